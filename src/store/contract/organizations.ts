/**
 * @module store/contract/organizations
 * The storage contract: migrations, organizations and users, API keys.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import { apiKey, assertConflict, later, meeting, member, org, seed, space, user, type ContractEnv } from './fixtures.ts';

export function organizationsContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  describe('migrations and health', () => {
    it('migrating twice applies nothing the second time', async () => {
      assert.deepEqual(await store.migrate(), []);
      await store.ping();
    });
  });

  describe('organizations and users', () => {
    it('round-trips an organization, found by id and by slug', async () => {
      const o = org({ type: 'basic' });
      await store.insertOrganization(o);
      assert.deepEqual(await store.findOrganization(o.id), o);
      assert.deepEqual(await store.findOrganization(o.slug), o);
      assert.equal(await store.findOrganization('no-such-org'), undefined);
      assert.deepEqual(await store.listOrganizations(), [o]);
    });

    it('refuses a second organization with the same slug', async () => {
      const o = org();
      await store.insertOrganization(o);
      await assertConflict(store.insertOrganization(org({ slug: o.slug })), 'slug');
      assert.equal((await store.listOrganizations()).length, 1);
    });

    it('round-trips users and lists them per organization', async () => {
      const { o, ann, bob } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      await store.insertUser(user(other.id));
      assert.deepEqual(await store.listUsers(o.id), [ann, bob]);
    });

    it('finds a user by email case-insensitively, only in its organization', async () => {
      const { o, ann } = await seed(store);
      assert.deepEqual(await store.findUserByEmail(o.id, ann.email.toUpperCase()), ann);
      assert.deepEqual(await store.findUserByEmail(o.id, ann.email.toLowerCase()), ann);
      const other = org();
      await store.insertOrganization(other);
      assert.equal(await store.findUserByEmail(other.id, ann.email), undefined);
    });

    it('refuses a duplicate email in one organization, whatever the case, but allows it in another', async () => {
      const { o, ann } = await seed(store);
      await assertConflict(store.insertUser(user(o.id, { email: ann.email.toUpperCase() })), 'email');
      const other = org();
      await store.insertOrganization(other);
      await store.insertUser(user(other.id, { email: ann.email }));
      assert.equal((await store.listUsers(o.id)).length, 2);
    });

    it('deletes a user, removing their memberships, and reports unknown users', async () => {
      const { o, ann, bob } = await seed(store);
      const board = space(o.id, 'board');
      await store.insertSpace(board);
      await store.updateSpace(o.id, 'board', board.id, { members: [member(ann.id), member(bob.id)] }, later(5));
      const owned = meeting(o.id, { ownerUserId: ann.id });
      await store.insertMeeting(owned);

      assert.equal(await store.deleteUser(o.id, ann.id), true);
      assert.equal(await store.findUserByEmail(o.id, ann.email), undefined);
      const after = await store.findSpace(o.id, 'board', board.id);
      assert.deepEqual(after?.members.map((m) => m.userId), [bob.id]);
      assert.equal((await store.findMeeting(o.id, owned.id))?.ownerUserId, null);
      assert.equal(await store.deleteUser(o.id, ann.id), false);
    });

    it("does not delete another organization's user", async () => {
      const { ann } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      assert.equal(await store.deleteUser(other.id, ann.id), false);
      assert.deepEqual(await store.findUserByEmail(ann.organizationId, ann.email), ann);
    });
  });

  describe('API keys', () => {
    it('round-trips keys with and without expiry', async () => {
      const { o } = await seed(store);
      const a = apiKey(o.id);
      const b = apiKey(o.id, { expiresAt: null, createdAt: later(1) });
      await store.insertApiKey(a);
      await store.insertApiKey(b);
      assert.deepEqual(await store.findApiKey(a.publicKey), a);
      assert.deepEqual(await store.findApiKey(b.publicKey), b);
      assert.equal(await store.findApiKey('pk_unknown'), undefined);
      assert.deepEqual(await store.listApiKeys(o.id), [a, b]);
    });

    it('refuses a duplicate public key', async () => {
      const { o } = await seed(store);
      const a = apiKey(o.id);
      await store.insertApiKey(a);
      await assertConflict(store.insertApiKey(apiKey(o.id, { publicKey: a.publicKey })), 'publicKey');
    });

    it('revokes a key once, keeping the first revocation time', async () => {
      const { o } = await seed(store);
      const a = apiKey(o.id);
      await store.insertApiKey(a);
      const revoked = await store.revokeApiKey(o.id, a.publicKey, later(10));
      assert.deepEqual(revoked, { ...a, revokedAt: later(10) });
      assert.deepEqual((await store.revokeApiKey(o.id, a.publicKey, later(20)))?.revokedAt, later(10));
      assert.deepEqual((await store.findApiKey(a.publicKey))?.revokedAt, later(10));
      assert.equal(await store.revokeApiKey(o.id, 'pk_unknown', later(10)), undefined);
    });

    it("does not revoke another organization's key", async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const a = apiKey(o.id);
      await store.insertApiKey(a);
      assert.equal(await store.revokeApiKey(other.id, a.publicKey, later(10)), undefined);
      assert.deepEqual(await store.findApiKey(a.publicKey), a);
    });
  });
}

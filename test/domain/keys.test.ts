/**
 * Who may manage API keys and read usage, decided by the domain's
 * policies whichever edge asks: an ADMIN member and the operator may; a
 * USER member and an API key may not (a leaked key must not mint more).
 * A key's name is checked where it is issued; a key is revoked by id only
 * within its organization. The rules need no second database: SQLite.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createContext } from '../../src/context.ts';
import { apiKeyActor, memberActor, operatorActor, type Actor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../src/domain/errors.ts';
import { createApiKey, keyStatus, listApiKeys, revokeApiKey } from '../../src/domain/keys.ts';
import { addUser, createOrganization } from '../../src/domain/organizations.ts';
import { usageHistory } from '../../src/domain/usage-history.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';

describe('API keys and usage in the domain', () => {
  let db: TestDatabase;
  let ctx: DomainContext;
  let admin: Actor;
  let user: Actor;
  let operator: Actor;
  let stranger: Actor;
  const now = Date.parse('2026-03-10T14:30:00.000Z');

  beforeEach(async () => {
    db = await openTestDatabase('sqlite');
    ctx = await createContext({ databaseUrl: db.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: 'test' }, { store: db.store, now: () => new Date(now) });
    const acme = await createOrganization(ctx, { name: 'Acme', type: 'basic' });
    operator = operatorActor(acme);
    admin = memberActor(acme, await addUser(ctx, operator, { email: 'ann@acme.test', fullName: 'Ann', role: 'ADMIN' }));
    user = memberActor(acme, await addUser(ctx, operator, { email: 'bob@acme.test', fullName: 'Bob', role: 'USER' }));
    stranger = operatorActor(await createOrganization(ctx, { name: 'Other', type: 'basic' }));
  });
  afterEach(() => db.dispose());

  it('lets an ADMIN member issue, list and revoke keys, named, and read usage', async () => {
    const { key, secret } = await createApiKey(ctx, admin, { name: '  Practice software ', expiresAt: null });
    assert.equal(key.name, 'Practice software', 'trimmed');
    assert.match(secret, /^fs_/);
    assert.deepEqual((await listApiKeys(ctx, admin)).map((k) => k.id), [key.id]);
    const revoked = await revokeApiKey(ctx, admin, { id: key.id });
    assert.equal(keyStatus(revoked, new Date(now)), 'revoked');
    const history = await usageHistory(ctx, admin);
    assert.equal(history.hours.starts.length, 48);
    assert.equal(history.days.starts.length, 30);
  });

  it('refuses a USER member and an API key every key action and usage', async () => {
    const { key } = await createApiKey(ctx, operator, { expiresAt: null });
    for (const actor of [user, apiKeyActor(admin.organization, key.id)]) {
      await assert.rejects(createApiKey(ctx, actor, { name: 'Mine', expiresAt: null }), ForbiddenError);
      await assert.rejects(listApiKeys(ctx, actor), ForbiddenError);
      await assert.rejects(revokeApiKey(ctx, actor, { id: key.id }), ForbiddenError);
      await assert.rejects(revokeApiKey(ctx, actor, key.publicKey), ForbiddenError);
      await assert.rejects(usageHistory(ctx, actor), ForbiddenError);
    }
    assert.equal((await ctx.store.findApiKey(key.publicKey))!.revokedAt, null);
    assert.equal((await listApiKeys(ctx, operator)).length, 1, 'nothing issued');
  });

  it('checks a given name and the expiry; the operator may still issue unnamed keys', async () => {
    for (const [name, message] of [['', 'name must not be empty.'], ['   ', 'name must not be empty.'], ['x'.repeat(101), 'name has at most 100 characters.']] as const) {
      await assert.rejects(createApiKey(ctx, admin, { name, expiresAt: null }), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.deepEqual(error.fieldErrors, [{ field: 'name', message }]);
        return true;
      });
    }
    await assert.rejects(createApiKey(ctx, admin, { name: 'Late', expiresAt: new Date(now) }), ValidationError);
    assert.equal((await createApiKey(ctx, operator, { expiresAt: null })).key.name, '');
    assert.equal((await createApiKey(ctx, admin, { name: 'x'.repeat(100), expiresAt: new Date(now + 1) })).key.name.length, 100);
  });

  it('revokes by id only within the organization: another organization’s key is not found', async () => {
    const theirs = (await createApiKey(ctx, stranger, { name: 'Theirs', expiresAt: null })).key;
    await assert.rejects(revokeApiKey(ctx, admin, { id: theirs.id }), NotFoundError);
    await assert.rejects(revokeApiKey(ctx, admin, theirs.publicKey), NotFoundError);
    assert.equal((await ctx.store.findApiKey(theirs.publicKey))!.revokedAt, null);
  });

  it('tells a key’s status: revoked before expired, expired from its moment on', async () => {
    const { key } = await createApiKey(ctx, admin, { name: 'Short', expiresAt: new Date(now + 1000) });
    assert.equal(keyStatus(key, new Date(now)), 'active');
    assert.equal(keyStatus(key, new Date(now + 1000)), 'expired');
    assert.equal(keyStatus({ ...key, revokedAt: new Date(now) }, new Date(now + 1000)), 'revoked');
  });
});

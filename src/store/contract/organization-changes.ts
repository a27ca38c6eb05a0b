/**
 * @module store/contract/organization-changes
 * The storage contract: members' roles, who has a password, and the
 * record of changes to an organization (newest first, in pages, scoped).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import type { OrganizationChange } from '../../domain/types.ts';
import { later, org, seed, type ContractEnv } from './fixtures.ts';

function change(organizationId: string, at: number, overrides: Partial<OrganizationChange> = {}): OrganizationChange {
  return {
    id: randomUUID(),
    organizationId,
    createdAt: later(at),
    actor: { kind: 'member', id: randomUUID(), label: 'Ann Lee <ann@acme.test>' },
    action: 'member.role_changed',
    subject: { id: randomUUID(), label: 'Bob Roe <bob@acme.test>' },
    detail: { from: 'USER', to: 'ADMIN' },
    ...overrides,
  };
}

export function organizationChangesContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  describe('member roles and passwords', () => {
    it("sets a user's role within its organization only", async () => {
      const { o, bob } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      assert.equal(await store.setUserRole(other.id, bob.id, 'ADMIN'), undefined);
      assert.equal((await store.findUser(o.id, bob.id))?.role, 'USER');
      assert.deepEqual(await store.setUserRole(o.id, bob.id, 'ADMIN'), { ...bob, role: 'ADMIN' });
      assert.equal((await store.findUser(o.id, bob.id))?.role, 'ADMIN');
    });

    it('lists the users of an organization who have set a password', async () => {
      const { o, bob } = await seed(store);
      assert.deepEqual(await store.usersWithPassword(o.id), []);
      await store.setPasswordHash(bob.id, 'scrypt$hash');
      assert.deepEqual(await store.usersWithPassword(o.id), [bob.id]);
      const other = org();
      await store.insertOrganization(other);
      assert.deepEqual(await store.usersWithPassword(other.id), []);
    });
  });

  describe('allowed embedding origins', () => {
    it('replaces an organization’s origins, keeping their order, without touching another’s', async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      assert.deepEqual(await store.listAllowedOrigins(o.id), []);
      await store.replaceAllowedOrigins(o.id, ['https://b.example', 'https://a.example'], later(1));
      await store.replaceAllowedOrigins(other.id, ['https://a.example'], later(1));
      assert.deepEqual(await store.listAllowedOrigins(o.id), ['https://b.example', 'https://a.example']);
      await store.replaceAllowedOrigins(o.id, ['https://c.example'], later(2));
      assert.deepEqual(await store.listAllowedOrigins(o.id), ['https://c.example']);
      await store.replaceAllowedOrigins(o.id, [], later(3));
      assert.deepEqual(await store.listAllowedOrigins(o.id), []);
      assert.deepEqual(await store.listAllowedOrigins(other.id), ['https://a.example']);
    });
  });

  describe('the record of organization changes', () => {
    it('round-trips changes, newest first, only the organization’s own, with settings changes without a subject', async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const first = change(o.id, 1);
      const second = change(o.id, 2, { action: 'allowed_origins.changed', subject: null, actor: { kind: 'operator', id: null, label: 'operator' }, detail: { added: ['https://a.example'], removed: [] } });
      await store.insertOrganizationChange(first);
      await store.insertOrganizationChange(second);
      await store.insertOrganizationChange(change(other.id, 3));
      assert.deepEqual(await store.listOrganizationChanges(o.id, { limit: 10 }), [second, first]);
    });

    it('pages by (time, id) without repeating or skipping changes of the same millisecond', async () => {
      const { o } = await seed(store);
      const all: OrganizationChange[] = [];
      for (let i = 0; i < 5; i++) all.push(change(o.id, i < 3 ? 7 : 8 + i));
      for (const c of all) await store.insertOrganizationChange(c);
      const expected = [...all].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((c) => c.id);
      const seen: string[] = [];
      let before: { createdAt: Date; id: string } | undefined;
      for (;;) {
        const page = await store.listOrganizationChanges(o.id, { limit: 2, before });
        if (page.length === 0) break;
        seen.push(...page.map((c) => c.id));
        const last = page[page.length - 1]!;
        before = { createdAt: last.createdAt, id: last.id };
      }
      assert.deepEqual(seen, expected);
    });
  });
}

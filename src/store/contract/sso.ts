/**
 * @module store/contract/sso
 * The storage contract: organizations' single sign-on clients (one per
 * organization, replaced in place, gone with the organization's row), and
 * the count of recent member links that limits "forgot password" mail.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import type { OrganizationSso } from '../../domain/types.ts';
import { later, org, T0, user, type ContractEnv } from './fixtures.ts';

export function ssoContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  const sso = (organizationId: string, overrides: Partial<OrganizationSso> = {}): OrganizationSso => ({
    organizationId,
    issuer: 'https://login.example.org/realms/acme',
    clientId: 'foyer',
    clientSecretSealed: 'v1.nonce.box',
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  });

  describe('single sign-on clients', () => {
    it('stores one per organization, replaces it in place and removes it', async () => {
      const o = org();
      const other = org();
      await store.insertOrganization(o);
      await store.insertOrganization(other);
      assert.equal(await store.anyOrganizationSso(), false);
      assert.equal(await store.findOrganizationSso(o.id), undefined);

      await store.putOrganizationSso(sso(o.id));
      assert.deepEqual(await store.findOrganizationSso(o.id), sso(o.id));
      assert.equal(await store.findOrganizationSso(other.id), undefined);
      assert.equal(await store.anyOrganizationSso(), true);

      const replaced = sso(o.id, { issuer: 'https://idp.example.org', clientId: 'foyer-2', clientSecretSealed: 'v1.n2.b2', updatedAt: later(1000) });
      await store.putOrganizationSso(replaced);
      assert.deepEqual(await store.findOrganizationSso(o.id), replaced);

      assert.equal(await store.deleteOrganizationSso(o.id), true);
      assert.equal(await store.deleteOrganizationSso(o.id), false);
      assert.equal(await store.findOrganizationSso(o.id), undefined);
      assert.equal(await store.anyOrganizationSso(), false);
    });
  });

  describe('recent member links', () => {
    it('counts a member’s links of one purpose since a moment', async () => {
      const o = org();
      await store.insertOrganization(o);
      const u = user(o.id);
      await store.insertUser(u);
      const link = (n: number, purpose: 'invite' | 'reset', at: Date) =>
        store.insertMemberLink({ tokenHash: `hash-${n}-${u.id}`, userId: u.id, organizationId: o.id, purpose, createdAt: at, expiresAt: later(3_600_000), usedAt: null });
      await link(1, 'reset', T0);
      await link(2, 'reset', later(60_000));
      await link(3, 'invite', later(60_000));
      assert.equal(await store.countMemberLinksSince(u.id, 'reset', T0), 2);
      assert.equal(await store.countMemberLinksSince(u.id, 'reset', later(1)), 1);
      assert.equal(await store.countMemberLinksSince(u.id, 'invite', T0), 1);
    });
  });
}

/**
 * The credential lookup cache: fewer database reads, bounded staleness.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lookupCacheOf, withLookupCache } from '../../src/limits/lookup-cache.ts';
import type { Store } from '../../src/store/store.ts';

function countingStore() {
  const calls: string[] = [];
  const keys = new Map<string, { publicKey: string; revokedAt: Date | null }>();
  const store = {
    dialect: 'sqlite',
    async findApiKey(publicKey: string) {
      calls.push(`findApiKey ${publicKey}`);
      const k = keys.get(publicKey);
      return k && { ...k };
    },
    async revokeApiKey(publicKey: string, at: Date) {
      const k = keys.get(publicKey);
      if (k) k.revokedAt = at;
      return k;
    },
    async findOrganizationQuota(id: string) {
      calls.push(`quota ${id}`);
      return undefined;
    },
    async listUsers(id: string) {
      calls.push(`listUsers ${id}`);
      return [];
    },
  };
  return { store: store as unknown as Store, calls, keys };
}

describe('lookup cache', () => {
  it('serves repeated key lookups from memory and re-reads after the time to live', async () => {
    const { store, calls, keys } = countingStore();
    keys.set('fk_1', { publicKey: 'fk_1', revokedAt: null });
    const clock = { t: 0 };
    const cached = withLookupCache(store, 5000, () => clock.t);
    for (let i = 0; i < 10; i++) assert.equal((await cached.findApiKey('fk_1'))?.revokedAt, null);
    assert.equal(calls.length, 1);
    // Revoked by another process (the CLI): visible once the entry expires.
    keys.get('fk_1')!.revokedAt = new Date(1);
    clock.t = 4999;
    assert.equal((await cached.findApiKey('fk_1'))?.revokedAt, null);
    clock.t = 5000;
    assert.notEqual((await cached.findApiKey('fk_1'))?.revokedAt, null);
    assert.equal(calls.length, 2);
  });

  it('drops the entry at once when the key is revoked through the same store', async () => {
    const { store, keys } = countingStore();
    keys.set('fk_1', { publicKey: 'fk_1', revokedAt: null });
    const cached = withLookupCache(store, 60_000);
    await cached.findApiKey('fk_1');
    await cached.revokeApiKey('fk_1', new Date(5));
    assert.notEqual((await cached.findApiKey('fk_1'))?.revokedAt, null);
  });

  it('does not remember unknown keys, so a new key works at once', async () => {
    const { store, keys, calls } = countingStore();
    const cached = withLookupCache(store, 60_000);
    assert.equal(await cached.findApiKey('fk_new'), undefined);
    keys.set('fk_new', { publicKey: 'fk_new', revokedAt: null });
    assert.ok(await cached.findApiKey('fk_new'));
    assert.equal(calls.length, 2);
  });

  it('caches the absence of a quota but passes other methods through', async () => {
    const { store, calls } = countingStore();
    const cached = withLookupCache(store, 60_000);
    await cached.findOrganizationQuota('o');
    await cached.findOrganizationQuota('o');
    await cached.listUsers('o');
    await cached.listUsers('o');
    assert.deepEqual(calls, ['quota o', 'listUsers o', 'listUsers o']);
    assert.equal(cached.dialect, 'sqlite');
  });

  it('tells beforehand whether a key lookup would be answered from memory, also through an outer proxy', async () => {
    const { store, keys } = countingStore();
    keys.set('fk_1', { publicKey: 'fk_1', revokedAt: null });
    const clock = { t: 0 };
    const cached = withLookupCache(store, 5000, () => clock.t);
    const probe = lookupCacheOf(new Proxy(cached, {}))!;
    assert.equal(probe.answersKey('fk_1'), false, 'never looked up');
    const pending = cached.findApiKey('fk_1');
    assert.equal(probe.answersKey('fk_1'), true, 'a lookup in flight is shared');
    await pending;
    assert.equal(probe.answersKey('fk_1'), true);
    clock.t = 4950;
    assert.equal(probe.answersKey('fk_1'), false, 'too close to expiring to vouch for');
    const unknown = cached.findApiKey('fk_nope');
    assert.equal(probe.answersKey('fk_nope'), true);
    await unknown;
    assert.equal(probe.answersKey('fk_nope'), false, 'misses are not kept');
    assert.equal(lookupCacheOf(store), undefined, 'no cache, no probe');
    assert.equal(lookupCacheOf(withLookupCache(store, 0)), undefined);
  });
});

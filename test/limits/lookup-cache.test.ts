/**
 * The credential lookup cache: fewer database reads, bounded staleness.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventPublisher } from '../../src/domain/events.ts';
import { LookupCache } from '../../src/limits/lookup-cache.ts';

function countingSource() {
  const calls: string[] = [];
  const keys = new Map<string, { publicKey: string; revokedAt: Date | null }>();
  const source = {
    async findApiKey(publicKey: string) {
      calls.push(`findApiKey ${publicKey}`);
      const k = keys.get(publicKey);
      return k && ({ ...k } as never);
    },
    async findOrganization(id: string) {
      calls.push(`org ${id}`);
      return undefined;
    },
    async findOrganizationQuota(id: string) {
      calls.push(`quota ${id}`);
      return undefined;
    },
  };
  return { source, calls, keys };
}

describe('lookup cache', () => {
  it('serves repeated key lookups from memory and re-reads after the time to live', async () => {
    const { source, calls, keys } = countingSource();
    keys.set('fk_1', { publicKey: 'fk_1', revokedAt: null });
    const clock = { t: 0 };
    const cached = new LookupCache(source, 5000, () => clock.t);
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

  it('drops the entry at once when this process revokes the key or changes the quota (domain events)', async () => {
    const { source, keys, calls } = countingSource();
    keys.set('fk_1', { publicKey: 'fk_1', revokedAt: null });
    const cached = new LookupCache(source, 60_000);
    const events = new EventPublisher();
    cached.listen(events);
    await cached.findApiKey('fk_1');
    await cached.findOrganizationQuota('o');
    keys.get('fk_1')!.revokedAt = new Date(5);
    events.publish([
      { type: 'api_key.revoked', organizationId: 'o', publicKey: 'fk_1', at: new Date(5) },
      { type: 'organization.quota_changed', organizationId: 'o', at: new Date(5) },
    ]);
    assert.notEqual((await cached.findApiKey('fk_1'))?.revokedAt, null);
    await cached.findOrganizationQuota('o');
    assert.deepEqual(calls, ['findApiKey fk_1', 'quota o', 'findApiKey fk_1', 'quota o']);
  });

  it('does not remember unknown keys, so a new key works at once', async () => {
    const { source, keys, calls } = countingSource();
    const cached = new LookupCache(source, 60_000);
    assert.equal(await cached.findApiKey('fk_new'), undefined);
    keys.set('fk_new', { publicKey: 'fk_new', revokedAt: null });
    assert.ok(await cached.findApiKey('fk_new'));
    assert.equal(calls.length, 2);
  });

  it('caches the absence of a quota and of an organization', async () => {
    const { source, calls } = countingSource();
    const cached = new LookupCache(source, 60_000);
    await cached.findOrganizationQuota('o');
    await cached.findOrganizationQuota('o');
    await cached.findOrganization('o');
    await cached.findOrganization('o');
    assert.deepEqual(calls, ['quota o', 'org o']);
  });

  it('tells beforehand whether a key lookup would be answered from memory', async () => {
    const { source, keys } = countingSource();
    keys.set('fk_1', { publicKey: 'fk_1', revokedAt: null });
    const clock = { t: 0 };
    const cached = new LookupCache(source, 5000, () => clock.t);
    assert.equal(cached.answersKey('fk_1'), false, 'never looked up');
    const pending = cached.findApiKey('fk_1');
    assert.equal(cached.answersKey('fk_1'), true, 'a lookup in flight is shared');
    await pending;
    assert.equal(cached.answersKey('fk_1'), true);
    clock.t = 4950;
    assert.equal(cached.answersKey('fk_1'), false, 'too close to expiring to vouch for');
    const unknown = cached.findApiKey('fk_nope');
    assert.equal(cached.answersKey('fk_nope'), true);
    await unknown;
    assert.equal(cached.answersKey('fk_nope'), false, 'misses are not kept');
  });

  it('with a time to live of 0, reads every time and vouches for nothing', async () => {
    const { source, keys, calls } = countingSource();
    keys.set('fk_1', { publicKey: 'fk_1', revokedAt: null });
    const cached = new LookupCache(source, 0);
    await cached.findApiKey('fk_1');
    await cached.findApiKey('fk_1');
    assert.equal(calls.length, 2);
    assert.equal(cached.answersKey('fk_1'), false);
  });
});

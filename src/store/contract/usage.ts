/**
 * @module store/contract/usage
 * The storage contract: what the dashboard reads of keys and their use —
 * names and last use of keys, a key by id within its organization, hourly
 * totals of accepted and refused requests, and their sums per UTC day.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import { apiKey, later, org, type ContractEnv } from './fixtures.ts';

const H = 3_600_000;
const D = 24 * H;
/** Midnight UTC of a day, so hours can be placed on both sides of a day's edge. */
const DAY = Date.UTC(2024, 4, 6);

export function usageContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  async function organization() {
    const o = org();
    await store.insertOrganization(o);
    return o;
  }

  describe('key names, last use and lookup by id', () => {
    it('round-trips a key’s name and last use, an unnamed key’s empty name', async () => {
      const o = await organization();
      const named = apiKey(o.id, { name: 'Front desk — Zürich', lastUsedAt: later(5) });
      const unnamed = apiKey(o.id, { name: '', createdAt: later(1) });
      await store.insertApiKey(named);
      await store.insertApiKey(unnamed);
      assert.deepEqual(await store.findApiKey(named.publicKey), named);
      assert.deepEqual(await store.listApiKeys(o.id), [named, unnamed]);
    });

    it('finds a key by id only within its organization', async () => {
      const o = await organization();
      const other = await organization();
      const key = apiKey(o.id);
      await store.insertApiKey(key);
      assert.deepEqual(await store.findApiKeyById(o.id, key.id), key);
      assert.equal(await store.findApiKeyById(other.id, key.id), undefined);
      assert.equal(await store.findApiKeyById(o.id, '00000000-0000-4000-8000-000000000000'), undefined);
    });

    it('moves a key’s last use forward with the usage it records, never back', async () => {
      const o = await organization();
      const key = apiKey(o.id);
      const untouched = apiKey(o.id);
      await store.insertApiKey(key);
      await store.insertApiKey(untouched);
      await store.recordUsage([
        { apiKeyId: key.id, organizationId: o.id, hourStart: DAY, requests: 1, lastUsedAt: DAY + 10 },
        { apiKeyId: key.id, organizationId: o.id, hourStart: DAY + H, requests: 1, lastUsedAt: DAY + H + 20 },
      ]);
      assert.deepEqual((await store.findApiKey(key.publicKey))?.lastUsedAt, new Date(DAY + H + 20), 'the latest of the batch');
      // A slower instance flushing an older use afterwards does not move it back.
      await store.recordUsage([{ apiKeyId: key.id, organizationId: o.id, hourStart: DAY, requests: 1, lastUsedAt: DAY + 30 }]);
      assert.deepEqual((await store.findApiKey(key.publicKey))?.lastUsedAt, new Date(DAY + H + 20));
      await store.recordUsage([{ apiKeyId: key.id, organizationId: o.id, hourStart: DAY + H, requests: 0, refused: 1, lastUsedAt: DAY + H + 40 }]);
      assert.deepEqual((await store.findApiKey(key.publicKey))?.lastUsedAt, new Date(DAY + H + 40));
      assert.equal((await store.findApiKey(untouched.publicKey))?.lastUsedAt, null);
    });
  });

  describe('accepted and refused requests', () => {
    it('adds refused requests to the hour like accepted ones, each to its own total', async () => {
      const o = await organization();
      await store.recordUsage([{ apiKeyId: 'k1', organizationId: o.id, hourStart: DAY, requests: 5, refused: 1 }]);
      await store.recordUsage([
        { apiKeyId: 'k1', organizationId: o.id, hourStart: DAY, requests: 2, refused: 3 },
        { apiKeyId: 'k2', organizationId: o.id, hourStart: DAY, requests: 0, refused: 4 },
      ]);
      assert.deepEqual(await store.listHourlyUsage(o.id, new Date(DAY), new Date(DAY + H)), [
        { apiKeyId: 'k1', hourStart: DAY, requests: 7, refused: 4 },
        { apiKeyId: 'k2', hourStart: DAY, requests: 0, refused: 4 },
      ]);
    });

    it('sums hours into UTC days per key, within the range and the organization', async () => {
      const o = await organization();
      const other = await organization();
      await store.recordUsage([
        { apiKeyId: 'k1', organizationId: o.id, hourStart: DAY - H, requests: 1, refused: 0 }, // the day before, last hour
        { apiKeyId: 'k1', organizationId: o.id, hourStart: DAY, requests: 2, refused: 1 },
        { apiKeyId: 'k1', organizationId: o.id, hourStart: DAY + 23 * H, requests: 3, refused: 2 },
        { apiKeyId: 'k2', organizationId: o.id, hourStart: DAY + 5 * H, requests: 4 },
        { apiKeyId: 'k1', organizationId: o.id, hourStart: DAY + D, requests: 5 },
        { apiKeyId: 'k1', organizationId: o.id, hourStart: DAY + 2 * D, requests: 6 }, // outside the range
        { apiKeyId: 'k9', organizationId: other.id, hourStart: DAY, requests: 99 },
      ]);
      assert.deepEqual(await store.listDailyUsage(o.id, new Date(DAY - D), new Date(DAY + 2 * D)), [
        { apiKeyId: 'k1', dayStart: DAY - D, requests: 1, refused: 0 },
        { apiKeyId: 'k1', dayStart: DAY, requests: 5, refused: 3 },
        { apiKeyId: 'k2', dayStart: DAY, requests: 4, refused: 0 },
        { apiKeyId: 'k1', dayStart: DAY + D, requests: 5, refused: 0 },
      ]);
      assert.deepEqual(await store.listDailyUsage(o.id, new Date(DAY + 3 * D), new Date(DAY + 4 * D)), []);
    });

    it('keeps sums exact beyond 32-bit integers', async () => {
      const o = await organization();
      const big = 3_000_000_000;
      await store.recordUsage([
        { apiKeyId: 'k1', organizationId: o.id, hourStart: DAY, requests: big, refused: big },
        { apiKeyId: 'k1', organizationId: o.id, hourStart: DAY + H, requests: big },
      ]);
      assert.deepEqual(await store.listDailyUsage(o.id, new Date(DAY), new Date(DAY + D)), [
        { apiKeyId: 'k1', dayStart: DAY, requests: 2 * big, refused: big },
      ]);
    });
  });
}

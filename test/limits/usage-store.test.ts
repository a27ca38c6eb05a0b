/**
 * Request totals and quotas in the store, and the batching recorder that
 * writes them, on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setOrganizationQuota, usageReport } from '../../src/domain/usage.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { createContext } from '../../src/context.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import type { Organization } from '../../src/domain/types.ts';
import { UsageRecorder } from '../../src/limits/usage-recorder.ts';
import type { StoreConnection as Store } from '../../src/domain/ports/store.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { operatorActor } from '../../src/domain/actors.ts';

const H = 3_600_000;
const T0 = Date.UTC(2024, 4, 6, 10, 15);

for (const database of await testDatabases()) {
  describe(`usage totals on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let store: Store;
    let org: Organization;
    let ctx: DomainContext;

    beforeEach(async () => {
      db = await database.open();
      store = db.store;
      org = { id: randomUUID(), name: 'Acme', slug: `acme-${randomUUID().slice(0, 8)}`, type: 'basic', createdAt: new Date(T0) };
      await store.insertOrganization(org);
      ctx = await createContext({ databaseUrl: db.url, publicUrl: 'http://x', idleCloseSeconds: 900, secretPepper: 'p' }, { store, now: () => new Date(T0) });
    });
    afterEach(() => db.dispose());

    it('adds increments to existing hourly totals instead of overwriting them', async () => {
      const hour = T0 - (T0 % H);
      await store.recordUsage([{ apiKeyId: 'k1', organizationId: org.id, hourStart: hour, requests: 5 }]);
      await store.recordUsage([
        { apiKeyId: 'k1', organizationId: org.id, hourStart: hour, requests: 7 },
        { apiKeyId: 'k2', organizationId: org.id, hourStart: hour, requests: 1 },
        { apiKeyId: 'k1', organizationId: org.id, hourStart: hour - H, requests: 2 },
      ]);
      const rows = await store.listHourlyUsage(org.id, new Date(hour - H), new Date(hour + H));
      const byKey = rows.map((r) => `${r.apiKeyId}@${r.hourStart - hour}=${r.requests}`).sort();
      assert.deepEqual(byKey, ['k1@-3600000=2', 'k1@0=12', 'k2@0=1']);
      assert.deepEqual(await store.listHourlyUsage(org.id, new Date(hour), new Date(hour + H)).then((r) => r.length), 2, 'the range end is exclusive of earlier hours');
    });

    it('writes large batches (over one statement chunk) completely', async () => {
      const hour = T0 - (T0 % H);
      const batch = Array.from({ length: 1234 }, (_, i) => ({ apiKeyId: `k${i}`, organizationId: org.id, hourStart: hour, requests: i + 1 }));
      await store.recordUsage(batch);
      const rows = await store.listHourlyUsage(org.id, new Date(hour), new Date(hour + H));
      assert.equal(rows.length, 1234);
      assert.equal(rows.reduce((s, r) => s + r.requests, 0), (1234 * 1235) / 2);
    });

    it('stores, changes and clears quotas, and refuses nonsense values', async () => {
      assert.equal(await store.findOrganizationQuota(org.id), undefined);
      assert.deepEqual(await setOrganizationQuota(ctx, operatorActor(org), { hourly: 100, daily: 1000 }), { hourly: 100, daily: 1000 });
      assert.deepEqual(await setOrganizationQuota(ctx, operatorActor(org), { daily: 500 }), { hourly: 100, daily: 500 });
      assert.deepEqual(await setOrganizationQuota(ctx, operatorActor(org), { hourly: null }), { hourly: null, daily: 500 });
      assert.deepEqual(await store.findOrganizationQuota(org.id), { hourly: null, daily: 500 });
      await assert.rejects(setOrganizationQuota(ctx, operatorActor(org), { hourly: 0 }), ValidationError);
      await assert.rejects(setOrganizationQuota(ctx, operatorActor(org), { daily: 1.5 }), ValidationError);
      assert.deepEqual(await store.findOrganizationQuota(org.id), { hourly: null, daily: 500 }, 'refused changes change nothing');
    });

    it('reports hourly and daily totals per organization and per key', async () => {
      const hour = T0 - (T0 % H);
      await store.recordUsage([
        { apiKeyId: 'k1', organizationId: org.id, hourStart: hour, requests: 3 },
        { apiKeyId: 'k1', organizationId: org.id, hourStart: hour - 2 * H, requests: 4 },
        { apiKeyId: 'k1', organizationId: org.id, hourStart: hour - 24 * H, requests: 10 },
      ]);
      const report = await usageReport(ctx, operatorActor(org), 2);
      assert.equal(report.currentHour.requests, 3);
      assert.equal(report.currentDay.requests, 7);
      assert.deepEqual(report.days.map((d) => d.requests), [7, 10]);
      assert.equal(report.days[0]!.start, '2024-05-06T00:00:00.000Z');
      assert.deepEqual(report.days[0]!.hours.map((h) => h.start), ['2024-05-06T10:00:00.000Z', '2024-05-06T08:00:00.000Z']);
    });

    it('batches counted requests into few writes and loses none when a flush fails', async () => {
      let writes = 0;
      let failNext = true;
      const flaky = {
        recordUsage: async (rows: Parameters<Store['recordUsage']>[0]) => {
          writes++;
          if (failNext) {
            failNext = false;
            throw new Error('database away');
          }
          await store.recordUsage(rows);
        },
      };
      const errors: unknown[] = [];
      const recorder = new UsageRecorder(flaky, { flushMs: 60_000, now: () => T0, onError: (e) => errors.push(e) });
      for (let i = 0; i < 500; i++) recorder.record(i % 2 ? 'k1' : 'k2', org.id);
      assert.deepEqual(recorder.unflushed(org.id, T0 - (T0 % H), T0 - (T0 % (24 * H))), { hour: 500, day: 500 });
      await assert.rejects(recorder.flush());
      assert.equal(errors.length, 1);
      recorder.record('k1', org.id);
      await recorder.stop();
      assert.equal(writes, 2, 'one write per flush, not per request');
      const rows = await store.listHourlyUsage(org.id, new Date(T0 - H), new Date(T0 + H));
      assert.deepEqual(rows.map((r) => `${r.apiKeyId}=${r.requests}`).sort(), ['k1=251', 'k2=250']);
      assert.deepEqual(recorder.unflushed(org.id, T0 - (T0 % H), T0 - (T0 % (24 * H))), { hour: 0, day: 0 });
    });
  });
}

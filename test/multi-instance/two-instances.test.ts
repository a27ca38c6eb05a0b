/**
 * Two real Foyer processes behind no proxy, sharing one PostgreSQL database
 * and one Redis: the per-key limit holds for both together, data written
 * through one is read through the other, and both flush their request
 * totals when stopped with SIGTERM.
 *
 * Needs PostgreSQL and Redis on loopback; skipped with a printed reason
 * when either is missing, except under CI=true, where that fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import { freshDatabaseUrl, postgresSkipReason, type FreshDatabaseUrl } from '../support/databases.ts';
import { startFoyer, type FoyerProcess } from '../support/processes.ts';
import { deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { createTenant, TEST_PEPPER, type Tenant } from '../support/tenant.ts';

const LIMIT = 50;
const skip = (await postgresSkipReason()) ?? (await redisSkipReason());

describe('two Foyer instances on one PostgreSQL and one Redis', { skip }, () => {
  let database: FreshDatabaseUrl;
  let prefix: string;
  let tenant: Tenant;
  let a: FoyerProcess;
  let b: FoyerProcess;
  let tenant2: Tenant | undefined;
  let accepted = 0;

  before(async () => {
    database = await freshDatabaseUrl('postgres');
    prefix = uniquePrefix();
    tenant = await createTenant(database.url);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      API_SECRET_PEPPER: TEST_PEPPER,
      // As behind a load balancer: one public address for all instances.
      PUBLIC_URL: 'http://meet.foyer.test',
      // Long enough that only the SIGTERM flush can have written the totals.
      USAGE_FLUSH_SECONDS: '3600',
    };
    [a, b] = await Promise.all([startFoyer(env), startFoyer(env)]);
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await deletePrefix(prefix);
    await database?.dispose();
  });

  it('accepts exactly the per-key limit across both instances together', async () => {
    // Pairs of concurrent requests, one to each instance, 2 x LIMIT + 20 in all.
    const results: Response[] = [];
    const served = { a: 0, b: 0 };
    for (let round = 0; round < LIMIT + 10; round++) {
      const [ra, rb] = await Promise.all(
        [a, b].map((instance) => fetch(`${instance.base}/api/v3/organizations`, { headers: tenant.headers })),
      );
      if (ra!.status === 200) served.a++;
      if (rb!.status === 200) served.b++;
      results.push(ra!, rb!);
    }
    const statuses = results.map((r) => r.status);
    accepted += statuses.filter((s) => s === 200).length;
    assert.equal(statuses.filter((s) => s === 200).length, LIMIT, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses.filter((s) => s === 429).length, LIMIT + 20);
    const refused = results.find((r) => r.status === 429)!;
    assert.match(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.headers.get('ratelimit-remaining'), '0');
    assert.deepEqual(served, { a: LIMIT / 2, b: LIMIT / 2 }, 'each instance served half of the one shared limit');
  });

  it('reads on one instance a meeting created on the other', async () => {
    // A second key: the first has spent its minute.
    const other = await createTenant(database.url, 'Beta Clinic');
    const created = await fetch(`${a.base}/api/v3/meeting`, {
      method: 'POST',
      headers: { ...other.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'MEETING', isInfinite: true }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    const meeting = (await created.json()) as { id: string };
    const read = await fetch(`${b.base}/api/v3/meeting/${meeting.id}`, { headers: other.headers });
    assert.equal(read.status, 200);
    assert.deepEqual(await read.json(), { ...meeting, state: 'open', closedAt: null });
    tenant2 = other;
  });

  it('flushes request totals of both instances on SIGTERM', async () => {
    const codes = await Promise.all([a.stop(), b.stop()]);
    assert.deepEqual(codes, [0, 0], `clean exits; output:\n${a.output()}\n${b.output()}`);
    const store = await openStore(database.url);
    try {
      const sum = async (t: Tenant) =>
        (await store.listHourlyUsage(t.organization.id, new Date(0), new Date(Date.now() + 86_400_000))).reduce(
          (s, r) => s + r.requests,
          0,
        );
      assert.equal(await sum(tenant), accepted);
      assert.equal(await sum(tenant2!), 2);
    } finally {
      await store.close();
    }
  });
});

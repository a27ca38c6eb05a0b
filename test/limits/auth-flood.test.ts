/**
 * A flood of bad credentials from one client address must neither lock out
 * valid credentials from that address nor reach the database beyond
 * AUTH_FAILURES_PER_MINUTE: one instance (in-memory limiter), and two
 * instances sharing Redis, on SQLite and PostgreSQL. Key lookups are
 * counted below the lookup cache (test/support/limited-server.ts).
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { startLimited, type Limited } from '../support/limited-server.ts';
import { deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { seedOrganization, type SeededOrganization } from '../support/server.ts';

const LIMIT = 10;
const WAVES = 4;
const PER_WAVE = 50;
const redisSkip = await redisSkipReason();

const get = async (base: string, headers: Record<string, string>): Promise<number> =>
  (await fetch(`${base}/api/v3/organizations`, { headers })).status;

/**
 * Waves of concurrent made-up keys, each alongside a few valid requests
 * made one after another (round robin over `instances`); from the second
 * wave on, the address is over its budget. Returns every status.
 */
async function flood(instances: Limited[], valid: Record<string, string>) {
  const bad: number[] = [];
  const good: number[] = [];
  let n = 0;
  for (let wave = 0; wave < WAVES; wave++) {
    const badWave = Promise.all(
      Array.from({ length: PER_WAVE }, (_, i) =>
        get(instances[i % instances.length]!.base, { API_KEY: `fk_flood${wave}x${i}`, API_SECRET: 'fs_wrong' }),
      ),
    );
    const goodWave = (async () => {
      for (let i = 0; i < 5; i++) good.push(await get(instances[n++ % instances.length]!.base, valid));
    })();
    const [statuses] = await Promise.all([badWave, goodWave]);
    bad.push(...statuses);
  }
  return { bad, good };
}

const floodLookups = (instances: Limited[]) =>
  instances.reduce((n, s) => n + s.lookups.publicKeys.filter((k) => k.startsWith('fk_flood')).length, 0);

for (const database of await testDatabases()) {
  describe(`a flood of bad credentials from one address on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let servers: Limited[] = [];
    let org: SeededOrganization;
    let prefix: string | undefined;

    beforeEach(async () => {
      db = await database.open();
    });
    afterEach(async () => {
      await Promise.all(servers.map((s) => s.close()));
      servers = [];
      if (prefix) await deletePrefix(prefix);
      prefix = undefined;
      await db.dispose();
    });

    async function start(count: number, env: Record<string, string>) {
      for (let i = 0; i < count; i++) servers.push(await startLimited(db.store, { AUTH_FAILURES_PER_MINUTE: String(LIMIT), ...env }, 2));
      org = await seedOrganization(servers[0]!.ctx, 'basic');
      return servers;
    }

    function withRedis(): Record<string, string> {
      prefix = uniquePrefix();
      return { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
    }

    for (const cache of ['5', '0']) {
      it(`answers every valid request and looks up at most the limit of bad keys (one instance, API_KEY_CACHE_SECONDS=${cache})`, async () => {
        const [s] = await start(1, { API_KEY_CACHE_SECONDS: cache });
        assert.equal(await get(s!.base, org.headers), 200, 'the key pair authenticates once before the flood');
        const { bad, good } = await flood([s!], org.headers);
        assert.deepEqual(new Set(good), new Set([200]), `valid: ${good.join(',')}`);
        assert.deepEqual(new Set(bad), new Set([401, 429]));
        assert.ok(bad.filter((c) => c === 401).length <= LIMIT);
        assert.ok(floodLookups([s!]) <= LIMIT, `${floodLookups([s!])} lookups of made-up keys for a limit of ${LIMIT}`);

        // Over its budget, the address gets no lookup for anything but the pair that authenticated.
        const before = s!.lookups.findApiKey;
        assert.equal(await get(s!.base, { ...org.headers, API_SECRET: 'fs_wrong' }), 429, 'a wrong secret for the good key');
        const unseen = await seedOrganization(s!.ctx, 'basic');
        assert.equal(await get(s!.base, unseen.headers), 429, 'a pair that has not authenticated yet (the documented price)');
        assert.equal(s!.lookups.findApiKey, before, 'neither reached the database');
        assert.equal(await get(s!.base, org.headers), 200);
      });
    }

    it('stops vouching for a pair whose key was revoked, after one lookup', async () => {
      const [s] = await start(1, { API_KEY_CACHE_SECONDS: '0' });
      const other = await seedOrganization(s!.ctx, 'basic');
      assert.equal(await get(s!.base, other.headers), 200);
      await flood([s!], org.headers);
      const { revokeKey } = await import('../support/server.ts');
      await revokeKey(s!.ctx, other.key);
      const before = s!.lookups.findApiKey;
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push(await get(s!.base, other.headers));
      assert.deepEqual(statuses, [429, 429, 429, 429, 429]);
      assert.equal(s!.lookups.findApiKey, before + 1);
    });

    it('answers every valid request on two instances sharing Redis, and looks up at most the limit of bad keys on both together', { skip: redisSkip }, async () => {
      const [a, b] = await start(2, withRedis());
      // Verified on one instance only, then the address is over its budget before the other one sees the pair:
      // it vouches for the pair through Redis.
      assert.equal(await get(a!.base, org.headers), 200);
      for (let i = 0; i <= LIMIT; i++) await get(a!.base, { API_KEY: `fk_flood_first${i}`, API_SECRET: 'fs_wrong' });
      const { bad, good } = await flood([b!, a!], org.headers);
      assert.deepEqual(new Set(good), new Set([200]), `valid: ${good.join(',')}`);
      assert.deepEqual(new Set(bad), new Set([429]), 'the address was over its budget from the start');
      assert.ok(floodLookups([a!, b!]) <= LIMIT, `${floodLookups([a!, b!])} lookups of made-up keys for a limit of ${LIMIT}`);
      assert.ok(b!.lookups.publicKeys.includes(org.key.publicKey), 'b looked the good key up, with the address over its budget');
      for (const s of [a!, b!]) assert.equal(s.limits.redisFailures(), 0);
    });
  });
}

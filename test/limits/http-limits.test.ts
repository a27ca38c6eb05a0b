/**
 * Request limits through real HTTP: a Foyer app built as main.ts builds it
 * (limits guard, lookup cache, health with limits), listening on loopback,
 * on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { setOrganizationQuota } from '../../src/domain/usage.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { closedPort, deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { startLimited, type Limited } from '../support/limited-server.ts';
import { seedOrganization, type SeededOrganization } from '../support/server.ts';
import { operatorActor } from '../../src/domain/actors.ts';

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

const redisSkip = await redisSkipReason();

for (const database of await testDatabases()) {
  describe(`request limits over HTTP on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: Limited | undefined;
    let org: SeededOrganization;

    beforeEach(async () => {
      db = await database.open();
    });
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await db.dispose();
    });

    async function start(env: Record<string, string> = {}, lookupDelayMs = 0) {
      server = await startLimited(db.store, env, lookupDelayMs);
      org = await seedOrganization(server.ctx, 'basic');
      return server;
    }

    it('puts RateLimit headers on every authenticated response and answers 429 with Retry-After past the limit', async () => {
      const s = await start({ RATE_LIMIT_PER_MINUTE: '3' });
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await get(`${s.base}/api/v3/organizations`, org.headers);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('ratelimit-limit'), '3');
        assert.equal(res.headers.get('ratelimit-reset'), '60');
        remaining.push(res.headers.get('ratelimit-remaining')!);
      }
      assert.deepEqual(remaining, ['2', '1', '0']);
      const refused = await get(`${s.base}/api/meeting/00000000-0000-4000-8000-000000000000`, org.headers);
      assert.equal(refused.status, 429, 'the window covers every API version');
      assert.match(refused.headers.get('content-type')!, /^application\/problem\+json/);
      const body = (await refused.json()) as { type: string; status: number };
      assert.equal(body.type, 'urn:foyer:problem:rate-limited');
      assert.equal(body.status, 429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 59 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      assert.equal(refused.headers.get('ratelimit-remaining'), '0');
      // Another key of the same organization has its own window.
      const second = await seedOrganization(s.ctx, 'basic');
      assert.equal((await get(`${s.base}/api/v3/organizations`, second.headers)).status, 200);
    });

    it('puts RateLimit headers on authenticated 4xx answers too, and none on a 401', async () => {
      const s = await start({ RATE_LIMIT_PER_MINUTE: '10' });
      const missing = await get(`${s.base}/api/v3/meeting/00000000-0000-4000-8000-000000000000`, org.headers);
      const invalid = await fetch(`${s.base}/api/v3/meeting`, {
        method: 'POST',
        headers: { ...org.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ ownerEmail: 42 }),
      });
      for (const [res, status, remaining] of [[missing, 404, '9'], [invalid, 400, '8']] as const) {
        assert.equal(res.status, status);
        assert.equal(res.headers.get('ratelimit-limit'), '10', `${status}`);
        assert.equal(res.headers.get('ratelimit-remaining'), remaining, `${status} counted like any accepted request`);
        assert.equal(res.headers.get('ratelimit-reset'), '60', `${status}`);
      }
      const unauthorized = await get(`${s.base}/api/v3/meeting/00000000-0000-4000-8000-000000000000`, { ...org.headers, API_SECRET: 'fs_wrong' });
      assert.equal(unauthorized.status, 401);
      for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
        assert.equal(unauthorized.headers.get(name), null, `no ${name}: no key was identified`);
      }
    });

    it('refuses with a distinct quota_exceeded problem when the organization quota is spent', async () => {
      const s = await start({ RATE_LIMIT_PER_MINUTE: '100' });
      await setOrganizationQuota(s.ctx, operatorActor(org.organization), { hourly: 2, daily: 10 });
      assert.equal((await get(`${s.base}/api/v3/organizations`, org.headers)).status, 200);
      assert.equal((await get(`${s.base}/api/v2/organizations`, org.headers)).status, 200);
      const refused = await get(`${s.base}/api/v3/organizations`, org.headers);
      assert.equal(refused.status, 429);
      const body = (await refused.json()) as { type: string; detail: string };
      assert.equal(body.type, 'urn:foyer:problem:quota-exceeded');
      assert.match(body.detail, /hourly/);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      assert.ok(Number(refused.headers.get('retry-after')) <= 3600);
      // Quota refusals do not use up the key's minute window.
      assert.equal(refused.headers.get('ratelimit-remaining'), '98');
    });

    it('limits failed authentication per address before any database lookup', async () => {
      const s = await start({ AUTH_FAILURES_PER_MINUTE: '5' });
      const bad = { API_KEY: org.key.publicKey, API_SECRET: 'fs_wrong' };
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await get(`${s.base}/api/v3/organizations`, bad)).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 401]);
      const before = s.lookups.findApiKey;
      const flood = await Promise.all(
        Array.from({ length: 50 }, (_, i) => get(`${s.base}/api/v3/organizations`, { API_KEY: `fk_random${i}`, API_SECRET: 'x' })),
      );
      assert.deepEqual(new Set(flood.map((r) => r.status)), new Set([429]));
      assert.equal(s.lookups.findApiKey, before, 'the flood never reached the database');
      const body = (await flood[0]!.json()) as { type: string };
      assert.equal(body.type, 'urn:foyer:problem:rate-limited');
      assert.ok(Number(flood[0]!.headers.get('retry-after')) >= 1);
      // Missing credentials count too: they are failures like any other.
      assert.equal((await get(`${s.base}/api/v3/organizations`)).status, 429);
    });

    // PostgreSQL runs this with the shared (Redis) limiter, as several instances would.
    const shared = database.name === 'postgres';
    it(`lets at most AUTH_FAILURES_PER_MINUTE of a concurrent flood from a new address reach the key lookup (${shared ? 'Redis' : 'in-memory'} limiter)`, { skip: shared ? redisSkip : undefined }, async () => {
      const limit = 10;
      const keyPrefix = uniquePrefix();
      const env: Record<string, string> = { AUTH_FAILURES_PER_MINUTE: String(limit) };
      if (shared) Object.assign(env, { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: keyPrefix });
      try {
        const s = await start(env, 5);
        // Unknown keys miss the lookup cache, so each lookup that gets through is a database query.
        const unknown = await Promise.all(
          Array.from({ length: 200 }, (_, i) => get(`${s.base}/api/v3/organizations`, { API_KEY: `fk_flood${i}`, API_SECRET: 'fs_wrong' })),
        );
        const statuses = unknown.map((r) => r.status);
        assert.deepEqual(new Set(statuses), new Set([401, 429]));
        assert.equal(statuses.filter((c) => c === 401).length, limit, 'exactly the allowed failures were looked up');
        assert.ok(s.lookups.findApiKey <= limit, `${s.lookups.findApiKey} database lookups for a limit of ${limit}`);
        assert.equal(s.limits.redisFailures(), 0);
      } finally {
        if (shared) await deletePrefix(keyPrefix);
      }
    });

    it('keeps a concurrent flood of wrong secrets for a real key away from the database, and the key usable elsewhere', { skip: shared ? redisSkip : undefined }, async () => {
      const limit = 10;
      const keyPrefix = uniquePrefix();
      const env: Record<string, string> = { AUTH_FAILURES_PER_MINUTE: String(limit), TRUST_PROXY: 'true' };
      if (shared) Object.assign(env, { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: keyPrefix });
      try {
        const s = await start(env, 5);
        const attacker = { ...org.headers, API_SECRET: 'fs_wrong', 'X-Forwarded-For': '203.0.113.7' };
        const flood = await Promise.all(Array.from({ length: 200 }, () => get(`${s.base}/api/v3/organizations`, attacker)));
        assert.deepEqual(new Set(flood.map((r) => r.status).filter((c) => c !== 429)), new Set([401]));
        // The lookups of one key share the cache (one query in flight, then the cached row).
        assert.ok(s.lookups.findApiKey <= limit, `${s.lookups.findApiKey} database lookups for a limit of ${limit}`);
        assert.equal((await get(`${s.base}/api/v3/organizations`, attacker)).status, 429, 'the address is blocked now');
        assert.equal((await get(`${s.base}/api/v3/organizations`, { ...attacker, API_SECRET: org.secret })).status, 200, 'but for valid credentials');
        // The owner, from its own address, is unaffected; its successes use up nothing of its address's failures.
        const owner = { ...org.headers, 'X-Forwarded-For': '198.51.100.1' };
        for (let i = 0; i < limit + 5; i++) assert.equal((await get(`${s.base}/api/v3/organizations`, owner)).status, 200);
        const wrong = { ...owner, API_SECRET: 'fs_wrong' };
        for (let i = 0; i < limit; i++) assert.equal((await get(`${s.base}/api/v3/organizations`, wrong)).status, 401, `failure ${i + 1}`);
        assert.equal((await get(`${s.base}/api/v3/organizations`, wrong)).status, 429);
        assert.equal(s.limits.redisFailures(), 0);
      } finally {
        if (shared) await deletePrefix(keyPrefix);
      }
    });

    it('does not limit a client\'s own concurrent requests with a valid key by the failure limit', { skip: shared ? redisSkip : undefined }, async () => {
      const keyPrefix = uniquePrefix();
      const env: Record<string, string> = { AUTH_FAILURES_PER_MINUTE: '3' };
      if (shared) Object.assign(env, { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: keyPrefix });
      try {
        const s = await start(env, 5);
        // Cold: the key is not cached yet, so the first request's lookup reaches the database.
        // Injected, all requests start at once, while the first is still reserving its slot.
        const burst = await Promise.all(
          Array.from({ length: 100 }, () => s.app.inject({ method: 'GET', url: '/api/v3/organizations', headers: org.headers })),
        );
        assert.deepEqual(new Set(burst.map((r) => r.statusCode)), new Set([200]));
        assert.equal(s.lookups.findApiKey, 1);
        const overHttp = await Promise.all(Array.from({ length: 50 }, () => get(`${s.base}/api/v3/organizations`, org.headers)));
        assert.deepEqual(new Set(overHttp.map((r) => r.status)), new Set([200]));
        // Its address has no failures counted: three are still allowed.
        const wrong = { ...org.headers, API_SECRET: 'fs_wrong' };
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await get(`${s.base}/api/v3/organizations`, wrong)).status);
        assert.deepEqual(statuses, [401, 401, 401, 429]);
      } finally {
        if (shared) await deletePrefix(keyPrefix);
      }
    });

    it('does not count a lookup that failed (database down) as a failed authentication', async () => {
      const s = await start({ AUTH_FAILURES_PER_MINUTE: '2' });
      s.databaseDown.value = true;
      const other = await seedOrganization(s.ctx, 'basic'); // not cached yet: its lookup reaches the database
      for (let i = 0; i < 5; i++) assert.equal((await get(`${s.base}/api/v3/organizations`, other.headers)).status, 500);
      s.databaseDown.value = false;
      assert.equal((await get(`${s.base}/api/v3/organizations`, other.headers)).status, 200);
      const wrong = { ...other.headers, API_SECRET: 'fs_wrong' };
      assert.deepEqual([await get(`${s.base}/api/v3/organizations`, wrong), await get(`${s.base}/api/v3/organizations`, wrong)].map((r) => r.status), [401, 401]);
      assert.equal((await get(`${s.base}/api/v3/organizations`, wrong)).status, 429);
    });

    it('reads a verified key from memory, not from the database, on every request', async () => {
      const s = await start();
      for (let i = 0; i < 10; i++) assert.equal((await get(`${s.base}/api/v3/organizations`, org.headers)).status, 200);
      assert.equal(s.lookups.findApiKey, 1);
    });

    it('counts accepted requests into hourly totals written in one batch', async () => {
      const s = await start({ RATE_LIMIT_PER_MINUTE: '4', USAGE_FLUSH_SECONDS: '3600' });
      for (let i = 0; i < 6; i++) await get(`${s.base}/api/v3/organizations`, org.headers);
      await get(`${s.base}/api/v3/organizations`, { API_KEY: org.key.publicKey, API_SECRET: 'wrong' });
      const range = [new Date(Date.now() - 7_200_000), new Date(Date.now() + 3_600_000)] as const;
      assert.deepEqual(await db.store.listHourlyUsage(org.organization.id, ...range), [], 'nothing written per request');
      await s.limits.usage.flush();
      const rows = await db.store.listHourlyUsage(org.organization.id, ...range);
      assert.equal(rows.reduce((n, r) => n + r.requests, 0), 4, 'only accepted requests count');
      assert.equal(rows[0]!.apiKeyId, org.key.id);
    });

    it('answers /health and /ready, and /ready turns 503 once shutdown begins', async () => {
      const s = await start();
      assert.deepEqual(await (await get(`${s.base}/health`)).json(), { status: 'ok' });
      const ready = await get(`${s.base}/ready`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ready', database: 'ok', redis: 'not configured', redisFailures: 0 });
      s.shuttingDown.value = true;
      const draining = await get(`${s.base}/ready`);
      assert.equal(draining.status, 503);
      assert.equal(((await draining.json()) as { detail: string }).detail, 'This instance is shutting down.');
      assert.equal((await get(`${s.base}/health`)).status, 200);
    });

    it('keeps serving when Redis is unreachable, with per-instance limits, counted and logged', async () => {
      const port = await closedPort();
      const s = await start({ REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PER_MINUTE: '2' });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(`${s.base}/api/v3/organizations`, org.headers)).status);
      assert.deepEqual(statuses, [200, 200, 429]);
      assert.ok(s.limits.redisFailures() >= 3);
      assert.ok(s.warnings.some((w) => /Redis/.test(w)), `warnings: ${s.warnings.join(' | ')}`);
      const ready = await get(`${s.base}/ready`);
      assert.equal(ready.status, 200, 'Redis is reported, not required (fail open)');
      const body = (await ready.json()) as { redis: string; redisFailures: number };
      assert.equal(body.redis, 'unavailable');
      assert.ok(body.redisFailures >= 3);
    });
  });
}

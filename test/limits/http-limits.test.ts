/**
 * Request limits through real HTTP: a Foyer app built as main.ts builds it
 * (limits guard, lookup cache, health with limits), listening on loopback,
 * on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { loadConfig, type Config } from '../../src/config.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { setOrganizationQuota } from '../../src/domain/usage.ts';
import { buildApp } from '../../src/http/app.ts';
import { limitsGuard } from '../../src/http/plugins/limits.ts';
import { createLimits, type Limits } from '../../src/limits/limits.ts';
import { withLookupCache } from '../../src/limits/lookup-cache.ts';
import type { Store } from '../../src/store/store.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { closedPort } from '../support/redis.ts';
import { seedOrganization, type SeededOrganization } from '../support/server.ts';

interface Limited {
  base: string;
  ctx: DomainContext;
  limits: Limits;
  warnings: string[];
  lookups: { findApiKey: number };
  shuttingDown: { value: boolean };
  close(): Promise<void>;
}

/** Counts key lookups that reach the database. */
function counting(store: Store, lookups: { findApiKey: number }): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'findApiKey') {
        return (publicKey: string) => {
          lookups.findApiKey++;
          return target.findApiKey(publicKey);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function startLimited(store: Store, env: Record<string, string> = {}): Promise<Limited> {
  const config: Config = loadConfig({ API_SECRET_PEPPER: 'test-pepper', LOG_LEVEL: 'silent', ...env });
  const warnings: string[] = [];
  const lookups = { findApiKey: 0 };
  const shuttingDown = { value: false };
  const limits = await createLimits({ config, store, warn: (m) => warnings.push(m) });
  const apiStore = withLookupCache(counting(store, lookups), config.apiKeyCacheSeconds * 1000);
  const app = await buildApp({
    config,
    store: apiStore,
    logger: false,
    authGuard: limitsGuard(limits, apiStore),
    health: { limits, isShuttingDown: () => shuttingDown.value },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    ctx: { store, now: () => new Date(), publicUrl: config.publicUrl, idleCloseSeconds: 900, secretPepper: 'test-pepper' },
    limits,
    warnings,
    lookups,
    shuttingDown,
    async close() {
      await app.close();
      await limits.close();
    },
  };
}

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

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

    async function start(env: Record<string, string> = {}) {
      server = await startLimited(db.store, env);
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

    it('refuses with a distinct quota_exceeded problem when the organization quota is spent', async () => {
      const s = await start({ RATE_LIMIT_PER_MINUTE: '100' });
      await setOrganizationQuota(s.ctx, org.organization, { hourly: 2, daily: 10 });
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

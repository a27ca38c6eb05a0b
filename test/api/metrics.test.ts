/**
 * The operator's metrics at `/metrics`: served only with METRICS_TOKEN and
 * only to a request bearing it; requests counted by route pattern (never a
 * raw path with ids), 429 refusals by kind, open WebSocket connections,
 * meetings open, sweeps, and on PostgreSQL + Redis the pool and Redis.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { redisSkipReason, TEST_REDIS_URL, uniquePrefix, deletePrefix } from '../support/redis.ts';
import { client, seedOrganization, startServer, type TestServer } from '../support/server.ts';
import { TestClient } from '../realtime/ws-client.ts';

const TOKEN = 'scrape-token-0123456789abcdef';

const scrape = async (server: TestServer, authorization = `Bearer ${TOKEN}`) =>
  fetch(`${server.origin}/metrics`, { headers: authorization ? { authorization } : {} });

/** The value of the sample whose name and labels start with `prefix`, or undefined. */
const sample = (text: string, prefix: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('metrics', () => {
  let db: TestDatabase;
  let server: TestServer;
  let plain: TestServer;

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { metricsToken: TOKEN, rateLimitPerMinute: 3 }, { limits: true });
    plain = await startServer(db.store);
  });
  after(async () => {
    await server?.close();
    await plain?.close();
    await db?.dispose();
  });

  it('does not serve /metrics without METRICS_TOKEN', async () => {
    assert.equal((await scrape(plain)).status, 404);
  });

  it('refuses a scrape without the token or with another one', async () => {
    for (const authorization of ['', 'Bearer wrong-token-0123456789abcdef', TOKEN]) {
      const res = await scrape(server, authorization);
      assert.equal(res.status, 401, authorization);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.doesNotMatch(await res.text(), /foyer_/);
    }
  });

  it('counts requests by route pattern, 429s by kind, connections, open meetings and sweeps', async () => {
    const api = client(server.baseUrl, await seedOrganization(server.ctx, 'basic'));
    const created = await api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await api.get(`/v3/meeting/${created.body.id}`)).status);
    assert.deepEqual(statuses, [200, 200, 429, 429], 'three requests a minute: the creation and two reads');
    const socket = await TestClient.connect(server.origin, { headers: { origin: server.origin } });
    try {
      const res = await scrape(server);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
      const text = await res.text();
      assert.equal(sample(text, 'foyer_http_requests_total{method="POST",route="/api/v3/meeting",status="201"}'), 1);
      assert.equal(sample(text, 'foyer_http_requests_total{method="GET",route="/api/v3/meeting/:id",status="200"}'), 2);
      assert.equal(sample(text, 'foyer_http_requests_total{method="GET",route="/api/v3/meeting/:id",status="429"}'), 2);
      assert.ok(!text.includes(created.body.id), 'no meeting id in any label');
      assert.equal(sample(text, 'foyer_http_request_duration_seconds_count{method="GET",route="/api/v3/meeting/:id"}'), 4);
      assert.equal(sample(text, 'foyer_rate_limit_refusals_total{kind="key-rate"}'), 2);
      assert.equal(sample(text, 'foyer_websocket_connections'), 1);
      assert.ok((sample(text, 'foyer_meetings_open') ?? 0) >= 1);
      const runs = sample(text, 'foyer_sweeper_runs') ?? 0;
      assert.ok(runs >= 1);
      // Sweeps go on every couple of seconds and are counted as they run.
      await new Promise((r) => setTimeout(r, 2500));
      assert.ok((sample(await (await scrape(server)).text(), 'foyer_sweeper_runs') ?? 0) > runs, 'a later scrape counts more sweeps');
      assert.ok(sample(text, 'nodejs_eventloop_lag_seconds') !== undefined, 'event loop lag');
      assert.equal(sample(text, 'foyer_redis_up'), undefined, 'no Redis configured');
      assert.equal(sample(text, 'foyer_database_pool_connections'), undefined, 'SQLite has no pool');
    } finally {
      socket.close();
    }
  });
});

describe('metrics of refused logins', () => {
  let db: TestDatabase;
  let server: TestServer;
  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { metricsToken: TOKEN, authFailuresPerMinute: 2 }, { limits: true });
  });
  after(async () => {
    await server?.close();
    await db?.dispose();
  });

  it('counts 429s for too many failed logins from an address as auth-failures', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await fetch(`${server.baseUrl}/v3/organizations`, { headers: { API_KEY: 'fk_nobody', API_SECRET: 'fs_nothing' } })).status);
    }
    assert.deepEqual(statuses, [401, 401, 429, 429]);
    const text = await (await scrape(server)).text();
    assert.equal(sample(text, 'foyer_rate_limit_refusals_total{kind="auth-failures"}'), 2);
    assert.equal(sample(text, 'foyer_rate_limit_refusals_total{kind="key-rate"}'), undefined);
  });
});

describe('metrics on PostgreSQL and Redis', { skip: (await postgresSkipReason()) ?? (await redisSkipReason()) }, () => {
  let db: TestDatabase;
  let server: TestServer;
  const prefix = uniquePrefix();

  before(async () => {
    db = await openTestDatabase('postgres');
    server = await startServer(db.store, { metricsToken: TOKEN, redisUrl: TEST_REDIS_URL, redisKeyPrefix: prefix });
  });
  after(async () => {
    await server?.close();
    await db?.dispose();
    await deletePrefix(prefix);
  });

  it('reports Redis as up and the database pool by state', async () => {
    const text = await (await scrape(server)).text();
    assert.equal(sample(text, 'foyer_redis_up'), 1);
    assert.ok((sample(text, 'foyer_database_pool_connections{state="total"}') ?? 0) >= 1);
    const idle = sample(text, 'foyer_database_pool_connections{state="idle"}');
    const total = sample(text, 'foyer_database_pool_connections{state="total"}')!;
    assert.ok(idle !== undefined && idle <= total, `idle ${idle} of ${total}`);
    assert.notEqual(sample(text, 'foyer_database_pool_connections{state="waiting"}'), undefined);
  });
});

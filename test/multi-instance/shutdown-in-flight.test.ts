/**
 * SIGTERM to a real Foyer process while a request is in flight and a
 * WebSocket is open, as a rolling restart does: the request still
 * completes, the socket is closed with 1001 and its client rejoins the same
 * meeting on another instance, the process exits 0, and the request totals
 * it had not written yet are in the database. Two processes on one
 * PostgreSQL and one Redis; the request's body is still arriving when the
 * signal comes (its headers were answered with 100 Continue first, so the
 * server had it in hand).
 *
 * Needs PostgreSQL and Redis on loopback; skipped with a printed reason
 * when either is missing, except under CI=true, where that fails.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import { freshDatabaseUrl, postgresSkipReason, type FreshDatabaseUrl } from '../support/databases.ts';
import { startFoyer, type FoyerProcess } from '../support/processes.ts';
import { deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { createTenant, TEST_PEPPER, type Tenant } from '../support/tenant.ts';
import { TestClient } from '../realtime/ws-client.ts';

const skip = (await postgresSkipReason()) ?? (await redisSkipReason());

/** Reads a raw HTTP exchange until `pattern` appears in what the server sent. */
function until(socket: Socket, received: () => string, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const text = received();
      if (pattern.test(text)) {
        socket.off('data', check);
        socket.off('close', closed);
        resolve(text);
      }
    };
    const closed = () => reject(new Error(`connection closed; received: ${JSON.stringify(received())}`));
    if (socket.destroyed) return closed();
    socket.on('data', check);
    socket.once('close', closed);
    check();
  });
}

describe('SIGTERM with a request in flight and a WebSocket open', { skip }, () => {
  let database: FreshDatabaseUrl;
  let prefix: string;
  let tenant: Tenant;
  let a: FoyerProcess;
  let b: FoyerProcess;

  before(async () => {
    database = await freshDatabaseUrl('postgres');
    prefix = uniquePrefix();
    tenant = await createTenant(database.url);
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      API_SECRET_PEPPER: TEST_PEPPER,
      PUBLIC_URL: 'http://meet.foyer.test',
      // Only the flush at shutdown can have written the totals.
      USAGE_FLUSH_SECONDS: '3600',
    };
    [a, b] = await Promise.all([startFoyer(env), startFoyer(env)]);
  });

  after(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await deletePrefix(prefix);
    await database?.dispose();
  });

  it('completes the request, closes the socket with 1001 for a rejoin elsewhere, and flushes the totals', { timeout: 60_000 }, async () => {
    const json = { ...tenant.headers, 'content-type': 'application/json' };
    const created = await fetch(`${a.base}/api/v3/meeting`, { method: 'POST', headers: json, body: JSON.stringify({ type: 'MEETING' }) });
    assert.equal(created.status, 201);
    const meeting = (await created.json()) as { id: string };
    for (let i = 0; i < 3; i++) assert.equal((await fetch(`${a.base}/api/v3/organizations`, { headers: tenant.headers })).status, 200);

    const ann = await TestClient.connect(a.base);
    assert.equal((await ann.join({ meetingId: meeting.id }, 'Ann')).type, 'welcome');

    // A write whose body is still on its way when the signal arrives.
    const body = JSON.stringify({ type: 'MEETING', title: 'Weekly review' });
    const port = Number(new URL(a.base).port);
    const slow = connect(port, '127.0.0.1');
    let received = '';
    slow.setEncoding('utf8');
    slow.on('data', (chunk: string) => (received += chunk));
    slow.on('error', () => {});
    await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
    slow.write(
      `POST /api/v3/meeting HTTP/1.1\r\nHost: 127.0.0.1\r\nAPI_KEY: ${tenant.headers.API_KEY}\r\nAPI_SECRET: ${tenant.headers.API_SECRET}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await until(slow, () => received, /^HTTP\/1\.1 100 Continue\r\n\r\n/);
    slow.write(body.slice(0, 10));

    const exited = a.stop();
    assert.equal(await ann.closed, 1001, 'the socket is closed as "going away" while the request is still open');
    assert.match(a.output(), /SIGTERM received/);

    slow.write(body.slice(10));
    const answer = await until(slow, () => received, /\r\n\r\n[\s\S]*\}$/);
    assert.match(answer, /HTTP\/1\.1 201 Created\r\n/, answer);
    assert.match(answer, /\{"id":"[0-9a-f-]{36}"/);
    slow.destroy();
    assert.equal(await exited, 0, a.output());

    // The page's reconnect: a new socket, to the instance still running, into the same meeting.
    const again = await TestClient.connect(b.base);
    try {
      assert.equal((await again.join({ meetingId: meeting.id }, 'Ann')).type, 'welcome');
    } finally {
      again.close();
    }

    const store = await openStore(database.url);
    try {
      const rows = await store.listHourlyUsage(tenant.organization.id, new Date(0), new Date(Date.now() + 86_400_000));
      assert.equal(rows.reduce((n, r) => n + r.requests, 0), 5, 'two writes and three reads, written at shutdown');
    } finally {
      await store.close();
    }
  });
});

/**
 * Slow and idle connections against a real listening server (raw sockets
 * from node:net): clients that send headers one byte at a time, to the API
 * and to the WebSocket upgrade, are cut off after the headers timeout while
 * everyone else is served; a trickled body is cut off after the request
 * timeout; an idle keep-alive connection is closed. Timeouts are set below
 * a second for the test (production defaults: config.ts).
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { TestClient } from '../realtime/ws-client.ts';

const SLOW_CLIENTS = 200;
const TIMEOUTS = { headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 400 };
/** Far beyond the timeouts: only a connection the server never closes waits this long. */
const PATIENCE_MS = 15_000;

interface Raw {
  socket: Socket;
  /** Everything the server sent. */
  received(): string;
  /** Resolves when the server closed the connection; rejects after PATIENCE_MS. */
  closed: Promise<void>;
}

function open(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    const closed = new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`the server kept a slow connection open for ${PATIENCE_MS} ms`)), PATIENCE_MS);
      socket.once('close', () => {
        clearTimeout(timer);
        done();
      });
    });
    closed.catch(() => {});
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

/** Writes `text` one byte per tick to every socket, round robin, until told to stop or the text runs out. */
function trickle(sockets: Raw[], text: string, tickMs = 40): () => void {
  let i = 0;
  const timer = setInterval(() => {
    if (i >= text.length) return;
    for (const { socket } of sockets) if (!socket.destroyed) socket.write(text[i]!);
    i++;
  }, tickMs);
  return () => clearInterval(timer);
}

describe('slow and idle HTTP connections', () => {
  let db: TestDatabase;
  let server: TestServer;
  let port: number;
  let org: SeededOrganization;
  const raws: Raw[] = [];

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { http: TIMEOUTS });
    port = Number(new URL(server.origin).port);
    org = await seedOrganization(server.ctx, 'basic');
  });
  after(async () => {
    for (const r of raws) r.socket.destroy();
    await server.close();
    await db.dispose();
  });

  async function slowClients(request: string): Promise<{ clients: Raw[]; stop: () => void }> {
    const clients = await Promise.all(Array.from({ length: SLOW_CLIENTS }, () => open(port)));
    raws.push(...clients);
    // Never finishes the headers: the padding outlasts the timeout many times over.
    return { clients, stop: trickle(clients, request + `X-Padding: ${'a'.repeat(10_000)}`) };
  }

  async function servedMeanwhile(): Promise<void> {
    for (let i = 0; i < 10; i++) {
      assert.equal((await fetch(`${server.baseUrl}/v3/organizations`, { headers: org.headers })).status, 200);
      assert.equal((await fetch(`${server.origin}/health`)).status, 200);
    }
  }

  it(`serves others while ${SLOW_CLIENTS} clients send headers a byte at a time, and cuts those off with 408`, async () => {
    const { clients, stop } = await slowClients('GET /api/v3/organizations HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    try {
      await servedMeanwhile();
      await Promise.all(clients.map((c) => c.closed));
    } finally {
      stop();
    }
    const answers = new Set(clients.map((c) => c.received().split('\r\n')[0]));
    assert.deepEqual(answers, new Set(['HTTP/1.1 408 Request Timeout']));
  });

  it(`does the same for ${SLOW_CLIENTS} WebSocket upgrades sent a byte at a time, and still upgrades others`, async () => {
    const { clients, stop } = await slowClients(
      'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n',
    );
    try {
      for (let i = 0; i < 5; i++) {
        const ws = await TestClient.connect(server.origin);
        ws.send({ type: 'ping' });
        assert.equal((await ws.next((m) => m.type === 'pong')).type, 'pong');
        ws.close();
      }
      await servedMeanwhile();
      await Promise.all(clients.map((c) => c.closed));
    } finally {
      stop();
    }
    // Cut off as the API requests are: an upgrade is a request until its headers are complete.
    const answers = new Set(clients.map((c) => c.received().split('\r\n')[0]));
    assert.deepEqual(answers, new Set(['HTTP/1.1 408 Request Timeout']));
  });

  it('keeps an upgraded WebSocket open beyond the request and keep-alive timeouts', async () => {
    const ws = await TestClient.connect(server.origin);
    try {
      // Past both timeouts and several of Node's checks for overdue connections.
      await new Promise((resolve) => setTimeout(resolve, TIMEOUTS.requestTimeoutMs * 2));
      ws.send({ type: 'ping' });
      assert.equal((await ws.next((m) => m.type === 'pong')).type, 'pong');
      assert.equal(ws.closeCode, undefined);
    } finally {
      ws.close();
    }
  });

  it('cuts off a request whose body trickles in beyond the request timeout', async () => {
    const [client] = [await open(port)];
    raws.push(client!);
    const body = JSON.stringify({ ownerEmail: 'ann@example.test', title: 'x'.repeat(500) });
    client!.socket.write(
      `POST /api/v3/meeting HTTP/1.1\r\nHost: 127.0.0.1\r\nAPI_KEY: ${org.key.publicKey}\r\nAPI_SECRET: ${org.secret}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const stop = trickle([client!], body);
    try {
      await client!.closed;
    } finally {
      stop();
    }
    assert.match(client!.received(), /^HTTP\/1\.1 408/);
  });

  it('closes an idle keep-alive connection', async () => {
    const client = await open(port);
    raws.push(client);
    client.socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await client.closed;
    assert.match(client.received(), /^HTTP\/1\.1 200 OK\r\n[\s\S]*keep-alive/i, 'served first, then closed when idle');
  });
});

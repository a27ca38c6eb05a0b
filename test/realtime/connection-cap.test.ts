/**
 * The cap on open signalling sockets per client address
 * (WS_CONNECTIONS_PER_ADDRESS): the socket over the cap is told why and
 * closed with 4429; other addresses are unaffected; a closed socket frees
 * its place. Addresses come from X-Forwarded-For (TRUST_PROXY), as behind
 * a proxy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { waitFor } from './harness.ts';
import { TestClient } from './ws-client.ts';

const CAP = 3;

describe('open WebSockets per client address', () => {
  let db: TestDatabase;
  let server: TestServer;
  const clients: TestClient[] = [];

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { wsConnectionsPerAddress: CAP, trustProxy: true });
  });
  after(async () => {
    for (const c of clients) c.terminate();
    await server.close();
    await db.dispose();
  });

  async function connect(address: string): Promise<TestClient> {
    const client = await TestClient.connect(server.origin, { headers: { 'X-Forwarded-For': address } });
    clients.push(client);
    return client;
  }

  /** Whether the hub serves the socket: it answers a ping. */
  async function served(client: TestClient): Promise<boolean> {
    client.send({ type: 'ping' });
    try {
      return (await client.next((m) => m.type === 'pong' || m.type === 'error')).type === 'pong';
    } catch {
      return false;
    }
  }

  it(`serves ${CAP} sockets of one address and closes the next with 4429 too_many_connections`, async () => {
    const mine = [];
    for (let i = 0; i < CAP; i++) mine.push(await connect('203.0.113.1'));
    for (const c of mine) assert.equal(await served(c), true);

    const over = await connect('203.0.113.1');
    assert.equal(await over.closed, 4429);
    const error = over.messages.find((m) => m.type === 'error');
    assert.deepEqual(error, { type: 'error', code: 'too_many_connections', message: 'Too many connections from this address.' });

    const other = await connect('203.0.113.2');
    assert.equal(await served(other), true, 'another address has its own count');

    mine[0]!.close();
    await mine[0]!.closed;
    // The server counts the socket gone once it sees the close; retry until it has.
    let again: TestClient | undefined;
    await waitFor(async () => {
      again = await connect('203.0.113.1');
      return served(again);
    }, 5000, 'a freed place');
    for (const c of mine.slice(1)) assert.equal(await served(c), true, 'the others stay open');
  });
});

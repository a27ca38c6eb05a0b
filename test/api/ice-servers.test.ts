/**
 * ICE servers for a participant that is not a browser page: an
 * organization's server asks `GET /v3/ice-servers` with its key pair, and
 * any participant finds them in its `welcome`. With a real coturn (the
 * configuration of docs/video.md, test/support/coturn.ts), the TURN
 * credentials either way allocate a relay with coturn's own command-line
 * client; they expire as documented; the TURN secret is in no answer.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config.ts';
import { TURN_CREDENTIAL_TTL_SECONDS } from '../../src/realtime/ice.ts';
import { coturnSkipReason, startCoturn, TURNUTILS_UCLIENT, type Coturn } from '../support/coturn.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { request, seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { TestClient } from '../realtime/ws-client.ts';

const run = promisify(execFile);

/** One relay allocation by turnutils_uclient with `username`/`credential`: 0 when coturn allocated. */
async function allocate(turn: Coturn, username: string, credential: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(TURNUTILS_UCLIENT, ['-y', '-n', '2', '-u', username, '-w', credential, '-p', String(turn.port), '127.0.0.1'], { timeout: 30_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('ICE servers for a participant that is not a browser', { skip: coturnSkipReason() }, () => {
  let turn: Coturn;
  let db: TestDatabase;
  let server: TestServer;
  let org: SeededOrganization;

  before(async () => {
    turn = await startCoturn();
    db = await openTestDatabase('sqlite');
    const { ice } = loadConfig({ ICE_SERVERS: ['stun:stun.example.org:3478', ...turn.urls].join(','), TURN_SECRET: turn.secret });
    server = await startServer(db.store, { ice });
    org = await seedOrganization(server.ctx, 'basic');
  });
  after(async () => {
    await server?.close();
    await db?.dispose();
    await turn?.stop();
  });

  const turnEntry = (servers: Array<{ urls: string[]; username?: string; credential?: string }>) => {
    const entry = servers.find((s) => s.urls.some((u) => u.startsWith('turn')));
    assert.ok(entry?.username && entry.credential, `a TURN entry with credentials in ${JSON.stringify(servers)}`);
    return entry as { urls: string[]; username: string; credential: string };
  };

  it('answers an API key with STUN and TURN servers whose credentials allocate a relay, and never the secret', async () => {
    const res = await request(`${server.baseUrl}/v3/ice-servers`, 'GET', { headers: org.headers });
    assert.equal(res.status, 200, res.text);
    assert.ok(!res.text.includes(turn.secret), 'the TURN secret is not in the answer');
    assert.deepEqual(res.body.iceServers[0], { urls: ['stun:stun.example.org:3478'] });
    assert.equal(res.body.iceTransportPolicy, 'all');
    const entry = turnEntry(res.body.iceServers);
    assert.deepEqual(entry.urls, turn.urls);
    const expiry = Number(entry.username.split(':')[0]);
    assert.equal(new Date(res.body.expiresAt).getTime(), expiry * 1000, 'expiresAt is the credential’s own expiry');
    assert.ok(Math.abs(expiry - Date.now() / 1000 - TURN_CREDENTIAL_TTL_SECONDS) < 120, `expires ${expiry - Date.now() / 1000} s ahead`);

    const result = await allocate(turn, entry.username, entry.credential);
    assert.equal(result.code, 0, result.output);
    assert.ok(!turn.log().includes(turn.secret));
  });

  it('refuses a caller without valid credentials (401), as every API call', async () => {
    const res = await request(`${server.baseUrl}/v3/ice-servers`, 'GET', { headers: { API_KEY: org.key.publicKey, API_SECRET: 'wrong' } });
    assert.equal(res.status, 401);
    assert.ok(!res.text.includes(turn.secret));
  });

  it('welcomes every participant with the ICE servers and credentials of its own', async () => {
    const created = await request(`${server.baseUrl}/v3/meeting`, 'POST', { headers: org.headers });
    assert.equal(created.status, 201, created.text);
    const client = await TestClient.connect(server.origin);
    try {
      const welcome = await client.join({ meetingId: created.body.id }, 'Recorder');
      assert.equal(welcome.type, 'welcome', JSON.stringify(welcome));
      assert.equal(welcome.place.title, null, 'a meeting has no title');
      assert.equal(welcome.iceTransportPolicy, 'all');
      assert.ok(!JSON.stringify(welcome).includes(turn.secret), 'the TURN secret is not in the welcome');
      const entry = turnEntry(welcome.iceServers);
      const result = await allocate(turn, entry.username, entry.credential);
      assert.equal(result.code, 0, result.output);
    } finally {
      client.close();
    }
  });
});

/**
 * coturn as the tests start it (test/support/coturn.ts, with docs/video.md's
 * configuration), checked with the
 * command-line client docs/video.md gives operators (`turnutils_uclient`):
 * a credential as Foyer issues it allocates a relay and the log shows the
 * allocation; a credential made with another secret, and one past its
 * expiry, are refused. The browser suites then rely on this server.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config.ts';
import { iceServersFor, TURN_CREDENTIAL_TTL_SECONDS } from '../../src/realtime/ice.ts';
import { waitUntil } from '../browser/support.ts';
import { coturnSkipReason, documentedConfig, startCoturn, TURNUTILS_UCLIENT, type Coturn } from '../support/coturn.ts';

const run = promisify(execFile);

/** The TURN entry Foyer would put into a page issued at `at`, with `secret`. */
function issued(turn: Coturn, secret: string, at = new Date()) {
  const ice = loadConfig({ ICE_SERVERS: turn.urls.join(','), TURN_SECRET: secret }).ice;
  const server = iceServersFor(ice, at).find((s) => s.username);
  assert.ok(server, 'a TURN entry with credentials');
  return { username: server.username!, credential: server.credential! };
}

/** One relay allocation by turnutils_uclient (client-to-client over the relay): its exit code and output. */
async function allocate(turn: Coturn, credential: { username: string; credential: string }) {
  try {
    const { stdout, stderr } = await run(TURNUTILS_UCLIENT, ['-y', '-n', '2', '-u', credential.username, '-w', credential.credential, '-p', String(turn.port), '127.0.0.1'], {
      timeout: 30_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('the coturn configuration of docs/video.md', () => {
  it('has the settings the checks rely on, and no comment after a value (coturn would read it as part of the value)', () => {
    const lines = documentedConfig();
    for (const setting of ['use-auth-secret', 'fingerprint', 'verbose', 'no-cli', 'no-multicast-peers', 'denied-peer-ip=127.0.0.0-127.255.255.255']) {
      assert.ok(lines.includes(setting), `${setting} in ${JSON.stringify(lines)}`);
    }
    for (const line of lines) assert.doesNotMatch(line, /\s#/, line);
  });
});

describe('coturn started by the tests', { skip: coturnSkipReason() }, () => {
  let turn: Coturn;
  before(async () => {
    turn = await startCoturn();
  });
  after(async () => {
    await turn?.stop();
  });

  it('relays for a credential as Foyer issues it, and logs the allocation under its username', async () => {
    const credential = issued(turn, turn.secret);
    const expiry = Number(credential.username.split(':')[0]);
    const ttl = expiry - Math.floor(Date.now() / 1000);
    assert.ok(Math.abs(ttl - TURN_CREDENTIAL_TTL_SECONDS) <= 60, `expiry ${ttl} s ahead`);
    const result = await allocate(turn, credential);
    assert.equal(result.code, 0, result.output);
    assert.match(result.output, /Total lost packets 0/);
    // coturn writes its log line after answering: a moment later on a loaded machine.
    await waitUntil(`the allocation of ${credential.username} in coturn's log`, async () => turn.allocations().includes(credential.username), { timeout: 10_000 });
  });

  it('refuses a credential made with another secret, and one past its expiry', async () => {
    const wrong = issued(turn, 'not-the-secret');
    const expired = issued(turn, turn.secret, new Date(Date.now() - (TURN_CREDENTIAL_TTL_SECONDS + 120) * 1000));
    for (const credential of [wrong, expired]) {
      const result = await allocate(turn, credential);
      assert.notEqual(result.code, 0, result.output);
      assert.match(result.output, /Cannot complete Allocation/);
      await waitUntil(`a 401 for ${credential.username} in coturn's log`, async () => turn.unauthorized().includes(credential.username), { timeout: 10_000 });
      assert.ok(!turn.allocations().includes(credential.username));
    }
    // The secret itself appears nowhere in what coturn logs.
    assert.ok(!turn.log().includes(turn.secret));
  });
});

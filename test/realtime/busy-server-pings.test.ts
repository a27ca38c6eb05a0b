/**
 * The server's ping check when the server itself was busy: a pong that
 * arrived while the process could not read it counts. The client runs in a
 * child process, so that it answers while this process (the server) is
 * stalled; in one process both would stall together.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createMeeting } from '../../src/domain/meetings.ts';
import { operatorActor } from '../../src/domain/actors.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startFrontEnd, type FrontEnd } from './harness.ts';

/** Long enough for a child process on a loaded machine to answer between two pings. */
const PING_INTERVAL_MS = 1000;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A participant that answers each ping 50 ms late and says on stdout when a ping came, when it answered (its
 * clock) and when its socket closed: the test stalls at "ping", so that the pong lands while the server cannot read.
 */
const CLIENT = `
const WebSocket = require('ws');
const [url, join] = process.argv.slice(1);
const socket = new WebSocket(url, { autoPong: false });
socket.on('open', () => socket.send(join));
socket.on('ping', (data) => {
  console.log('ping');
  setTimeout(() => socket.pong(data, undefined, () => console.log('ponged ' + Date.now())), 50);
});
socket.on('close', (code) => { console.log('closed ' + code); process.exit(0); });
`;

/** Blocks this process (the server's) for `ms`: timers and input wait until it returns. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('server pings when the server is busy', () => {
  let db: TestDatabase;
  let fe: FrontEnd;

  before(async () => {
    db = await openTestDatabase('sqlite');
    fe = await startFrontEnd(db.store, { realtime: { pingIntervalMs: PING_INTERVAL_MS } });
  });
  after(async () => {
    await fe.close();
    await db.dispose();
  });

  it('keeps a connection whose pong arrived while the server was too busy to read it', async () => {
    const meeting = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    const join = JSON.stringify({ type: 'join', meetingId: meeting.id, name: 'Ann', audio: true, video: true });
    // From the checkout, where `ws` is installed.
    const child = spawn(process.execPath, ['-e', CLIENT, fe.origin.replace(/^http/, 'ws') + '/ws', join], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout! });
      const stalls: Array<{ from: number; to: number }> = [];
      // Stalls during which the pong was sent: only those exercise the check (a "ping" line read late is no test).
      let exercised = 0;
      let closed: string | undefined;
      await new Promise<void>((resolve, reject) => {
        child.on('exit', (code) => (closed ? resolve() : reject(new Error(`the client ended (${code}) without its socket closing`))));
        lines.on('line', (line) => {
          if (line.startsWith('closed')) {
            closed = line;
            resolve();
          } else if (line.startsWith('ponged ')) {
            const at = Number(line.slice('ponged '.length));
            if (stalls.some((s) => at >= s.from && at <= s.to)) exercised += 1;
            if (exercised === 2 || stalls.length === 6) resolve();
          } else if (line === 'ping' && exercised < 2 && stalls.length < 6) {
            // The next ping is due in the middle of the stall and the pong arrives during it: at the stall's end
            // the ping timer runs before the pong is read.
            const from = Date.now();
            stall(PING_INTERVAL_MS * 2.5);
            stalls.push({ from, to: Date.now() });
          }
        });
      });
      assert.equal(closed, undefined, `the server ended a connection that answered every ping (after ${stalls.length} stalls)`);
      assert.equal(exercised, 2, `a pong sent during the stall twice (${exercised} of ${stalls.length} stalls)`);
    } finally {
      child.kill();
    }
  });
});

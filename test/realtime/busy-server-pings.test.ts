/**
 * The server's ping check when the server itself was busy: a pong that
 * arrived while the process could not read it counts. The client runs in a
 * child process, so that it answers while this process (the server) is
 * stalled; in one process both would stall together.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { createMeeting } from '../../src/domain/meetings.ts';
import { operatorActor } from '../../src/domain/actors.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startFrontEnd, type FrontEnd } from './harness.ts';

/** Long enough for a child process on a loaded machine to answer between two pings. */
const PING_INTERVAL_MS = 1000;

/**
 * A participant that answers each ping 50 ms late and says on stdout when a ping came and when its socket closed:
 * the test stalls at "ping", so that the pong lands while the server cannot read.
 */
const CLIENT = `
const WebSocket = require('ws');
const [url, join] = process.argv.slice(1);
const socket = new WebSocket(url, { autoPong: false });
socket.on('open', () => socket.send(join));
socket.on('message', (data) => { if (JSON.parse(String(data)).type === 'welcome') console.log('joined'); });
socket.on('ping', (data) => { console.log('ping'); setTimeout(() => socket.pong(data), 50); });
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
    const child = spawn(process.execPath, ['-e', CLIENT, fe.origin.replace(/^http/, 'ws') + '/ws', join], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const lines = createInterface({ input: child.stdout! });
      let stalls = 0;
      let closed: string | undefined;
      const done = new Promise<void>((resolve) => {
        lines.on('line', (line) => {
          if (line.startsWith('closed')) {
            closed = line;
            resolve();
          } else if (line === 'ping' && stalls < 2) {
            // The next ping is due in the middle of the stall and its pong arrives during it: at the stall's end
            // the ping timer runs before the pong is read.
            stalls++;
            stall(PING_INTERVAL_MS * 2.5);
          } else if (line === 'ping') resolve();
        });
      });
      await done;
      assert.equal(closed, undefined, `the server ended a connection that answered every ping (after ${stalls} stalls)`);
      assert.equal(stalls, 2);
    } finally {
      child.kill();
    }
  });
});

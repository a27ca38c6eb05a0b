/**
 * The Janus that Foyer starts (src/sfu/launcher.ts) and Foyer's connection
 * to a Janus (src/sfu/janus-server.ts), on the real Debian janus: a private
 * generated configuration with only what Foyer uses, the API on loopback
 * behind a random secret, rooms with secrets of their own, and a Janus that
 * is killed or frozen noticed within 5 s, restarted and reconnected.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Janode from 'janode';
import VideoRoomPlugin from 'janode/plugins/videoroom';
import { janusConfigFiles, stunServerOf } from '../../src/sfu/janus-config.ts';
import { JanusServer } from '../../src/sfu/janus-server.ts';
import type { LocalJanus } from '../../src/sfu/launcher.ts';
import { newRoomId, roomSecret } from '../../src/sfu/rooms.ts';
import { janusSkipReason, nextEvent, recordingLog, testJanus } from './support.ts';

const skip = janusSkipReason();

describe('the generated Janus configuration', () => {
  const base = { dir: '/tmp/foyer-janus-x', apiSecret: 'se"cret\\', wsPort: 41234, rtpPorts: { min: 20000, max: 20999 } };

  it('puts the API on loopback behind the secret, with no admin API, only Foyer-owned plugin folders and the RTP range', () => {
    const files = janusConfigFiles(base);
    assert.deepEqual(Object.keys(files).sort(), ['janus.jcfg', 'janus.plugin.videoroom.jcfg', 'janus.transport.websockets.jcfg']);
    const core = files['janus.jcfg']!;
    assert.match(core, /api_secret = "se\\"cret\\\\"/);
    assert.match(core, /plugins_folder = "\/tmp\/foyer-janus-x\/plugins"/);
    assert.match(core, /transports_folder = "\/tmp\/foyer-janus-x\/transports"/);
    assert.match(core, /rtp_port_range = "20000-20999"/);
    assert.doesNotMatch(core, /nat_1_1_mapping|stun_server|turn_/);
    const ws = files['janus.transport.websockets.jcfg']!;
    assert.match(ws, /ws_ip = "127\.0\.0\.1"/);
    assert.match(ws, /ws_port = 41234/);
    assert.match(ws, /wss = false/);
    assert.match(ws, /admin_ws = false/);
    assert.doesNotMatch(files['janus.plugin.videoroom.jcfg']!, /room-/);
  });

  it('announces JANUS_PUBLIC_IP, or else learns the public address from the first STUN server', () => {
    assert.match(janusConfigFiles({ ...base, publicIp: '203.0.113.10', stun: { host: 'stun.example.org', port: 3478 } })['janus.jcfg']!, /nat_1_1_mapping = "203\.0\.113\.10"(?![\s\S]*stun_server)/);
    const stun = stunServerOf(['turn:turn.example.org:3478', 'stun:stun.example.org:3479', 'stun:other.example.org']);
    assert.deepEqual(stun, { host: 'stun.example.org', port: 3479 });
    assert.deepEqual(stunServerOf(['stun:stun.example.org']), { host: 'stun.example.org', port: 3478 });
    assert.equal(stunServerOf(['turn:turn.example.org']), undefined);
    const core = janusConfigFiles({ ...base, stun })['janus.jcfg']!;
    assert.match(core, /stun_server = "stun\.example\.org"\n\tstun_port = 3479/);
    assert.match(core, /ignore_unreachable_ice_server = true/);
  });

  it('refuses a value that would break out of its line', () => {
    assert.throws(() => janusConfigFiles({ ...base, apiSecret: 'a\nadmin_secret = "x"' }));
  });
});

describe('a local Janus and Foyer connected to it', { skip }, () => {
  let janus: LocalJanus;
  let server: JanusServer;
  const log = recordingLog();
  let dir: string;

  before(async () => {
    janus = testJanus(log);
    const endpoint = await janus.start();
    server = new JanusServer('local@test', endpoint, log, { probeIntervalMs: 500, downAfterMs: 2500 });
    janus.on('up', (e) => server.setEndpoint(e));
    janus.on('down', () => server.setEndpoint(undefined));
    const up = nextEvent(server, 'up');
    server.start();
    await up;
    dir = readFileSync(`/proc/${janus.pid}/cmdline`, 'utf8').split('\0').find((a) => a.endsWith('/janus.jcfg'))!.replace(/\/janus\.jcfg$/, '');
  });
  after(async () => {
    await server?.stop();
    await janus?.stop();
  });

  it('runs from a private folder holding the VideoRoom plugin and the WebSocket transport only', () => {
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(join(dir, 'janus.jcfg')).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(join(dir, 'plugins')), ['libjanus_videoroom.so']);
    assert.deepEqual(readdirSync(join(dir, 'transports')), ['libjanus_websockets.so']);
    assert.deepEqual(readdirSync(join(dir, 'empty')), []);
    assert.match(janus.endpoint!.url, /^ws:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(janus.endpoint!.apiSecret.length >= 32);
  });

  it('refuses API requests without the secret', async () => {
    const connection = await Janode.connect({ address: { url: janus.endpoint!.url }, max_retries: 0 });
    try {
      await assert.rejects(connection.create(), /403|Unauthorized/i);
    } finally {
      await connection.close().catch(() => {});
    }
  });

  it('creates a room once, protects it with its own secret, kicks, and destroys it', async () => {
    const room = newRoomId();
    assert.ok(Number.isSafeInteger(room) && room > 0);
    assert.equal(await server.ensureRoom(room), 'created');
    assert.equal(await server.ensureRoom(room), 'existed', 'a second instance creating it finds it');
    assert.equal(await server.kick(room, 12345), 'absent');
    assert.deepEqual(await server.participants(room), []);

    // Anyone holding only the API secret cannot destroy it without the room's secret.
    const connection = await Janode.connect({ address: { url: janus.endpoint!.url, apisecret: janus.endpoint!.apiSecret }, max_retries: 0 });
    try {
      const handle = await (await connection.create()).attach(VideoRoomPlugin);
      await assert.rejects(handle.destroy({ room, secret: 'guess' }), /433/);
      await assert.rejects(handle.destroy({ room }), /429|433/);
      assert.notEqual(roomSecret(janus.endpoint!.apiSecret, room), roomSecret(janus.endpoint!.apiSecret, room + 1));
      // A publisher in the room is kicked by Foyer.
      const joined = await handle.joinPublisher({ room, display: 'someone' });
      assert.equal((await server.participants(room)).length, 1);
      assert.equal(await server.kick(room, joined.feed), 'kicked');
      assert.equal((await server.participants(room)).length, 0);
    } finally {
      await connection.close().catch(() => {});
    }
    assert.equal(await server.destroyRoom(room), 'destroyed');
    assert.equal(await server.destroyRoom(room), 'absent');
  });

  it('does not take Janus for down when Foyer itself was too busy to read its answers', async () => {
    let downs = 0;
    const onDown = () => (downs += 1);
    server.on('down', onDown);
    try {
      // Right after the next probe is sent, this process busy for longer than the time Janus has to answer (a
      // saturated machine): the answer arrives meanwhile and waits, unread, while that probe's time runs out.
      const connection = (server as any).live.connection;
      const getInfo = connection.getInfo;
      const stalled = new Promise<void>((resolve) => {
        connection.getInfo = function (this: unknown, ...args: unknown[]) {
          connection.getInfo = getInfo;
          const asked = getInfo.apply(this, args);
          queueMicrotask(() => {
            const until = Date.now() + 3500;
            while (Date.now() < until);
            resolve();
          });
          return asked;
        };
      });
      await stalled;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assert.equal(downs, 0, 'Janus was taken for down');
      assert.equal(server.up, true);
    } finally {
      server.off('down', onDown);
    }
  });

  it('notices a frozen Janus (no answers, connection still open) within 5 s, and its return', async () => {
    const pid = janus.pid!;
    const down = nextEvent<[string]>(server, 'down', 10_000);
    const stoppedAt = Date.now();
    process.kill(pid, 'SIGSTOP');
    try {
      const [reason] = await down;
      const noticedMs = Date.now() - stoppedAt;
      console.log(`frozen Janus noticed after ${noticedMs} ms (${reason})`);
      assert.ok(noticedMs < 5000, `noticed after ${noticedMs} ms`);
      assert.equal(server.up, false);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await nextEvent(server, 'up', 15_000);
    assert.equal(janus.pid, pid, 'the same Janus, answering again');
  });

  it('notices a SIGKILLed Janus within 5 s, restarts it, reconnects, and recreates a lost room', async () => {
    const room = newRoomId();
    await server.ensureRoom(room);
    const pid = janus.pid!;
    const down = nextEvent<[string]>(server, 'down', 10_000);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await down;
    const noticedMs = Date.now() - killedAt;
    console.log(`killed Janus noticed after ${noticedMs} ms`);
    assert.ok(noticedMs < 5000, `noticed after ${noticedMs} ms`);
    await nextEvent(server, 'up', 15_000);
    console.log(`restarted and reconnected after ${Date.now() - killedAt} ms`);
    assert.notEqual(janus.pid, pid);
    assert.equal(await server.ensureRoom(room), 'created', 'the restarted Janus had lost the room');
    assert.ok(log.lines.some((l) => /error: Local Janus killed by SIGKILL; restarting it/.test(l)));
  });

  it('takes its Janus along when Foyer is killed with SIGKILL', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', new URL('./janus-child.ts', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const match = /janus (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', () => reject(new Error(`the child exited first: ${out}`)));
    });
    process.kill(pid, 0);
    // Until Node reaps the killed child it is a zombie that still answers kill(pid, 0), and the next
    // launcher would rightly leave its folder alone: wait for the exit before judging the clean-up.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && isAlive(pid)) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    assert.equal(isAlive(pid), false, 'Janus outlived the Foyer that started it');
    // The next launcher removes the folder the killed one left behind.
    const abandoned = readdirSync(tmpdir()).filter((n) => n.startsWith('foyer-janus-') && readFileSync(join(tmpdir(), n, 'owner.pid'), 'utf8') === String(child.pid));
    assert.equal(abandoned.length, 1);
    await testJanus().stop();
    assert.equal(existsSync(join(tmpdir(), abandoned[0]!)), false);
  });

  it('stops Janus and removes its folder', async () => {
    const pid = janus.pid!;
    await server.stop();
    await janus.stop();
    assert.equal(existsSync(dir), false);
    assert.throws(() => process.kill(pid, 0), /ESRCH/);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped by its parent) is gone for our purpose.
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * The SFU pool inside a real Foyer server (src/sfu/pool.ts wired by
 * src/server.ts), on real Janus servers: a pool of two (JANUS_URLS)
 * places meetings on the least loaded one, notices a SIGKILLed Janus within
 * 5 s, places its meetings again on the other (in rooms that exist there),
 * reports itself degraded in /ready and per server in /metrics, and destroys
 * a meeting's room when the meeting ends. With JANUS_BIN, the server starts
 * its own Janus and ends it when it closes.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_RTP_PORTS } from '../../src/config-sfu.ts';
import { memberActor } from '../../src/domain/actors.ts';
import { createMeeting, endMeeting } from '../../src/domain/meetings.ts';
import type { PlaceRef } from '../../src/domain/presence.ts';
import type { Placement } from '../../src/domain/sfu/placement-store.ts';
import type { LocalJanus } from '../../src/sfu/launcher.ts';
import { serverLabel } from '../../src/sfu/mode.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { seedOrganization, startServer, type TestServer } from '../support/server.ts';
import { JANUS_BIN, janusSkipReason, nextEvent, recordingLog, testJanus, testRtpPorts } from './support.ts';

const skip = janusSkipReason();
const TOKEN = 'metrics-token-for-sfu-tests';
const FAST = { probeIntervalMs: 500, downAfterMs: 2500, reconnectDelayMs: 200 };

async function readyBody(server: TestServer) {
  const response = await fetch(`${server.origin}/ready`);
  assert.equal(response.status, 200);
  return (await response.json()) as { status: string; sfu: { status: string; up: number; total: number } };
}

async function metric(server: TestServer, name: string, label: string): Promise<number | undefined> {
  const text = await (await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{server="${label}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a pool of two Janus servers behind Foyer', { skip }, () => {
  const apiSecret = randomBytes(24).toString('base64url');
  let janus: LocalJanus[] = [];
  let db: TestDatabase;
  let server: TestServer;
  let labels: string[];
  const meetingPlaces: PlaceRef[] = [];

  before(async () => {
    janus = [testJanus(recordingLog(), apiSecret), testJanus(recordingLog(), apiSecret)];
    const urls = (await Promise.all(janus.map((j) => j.start()))).map((e) => e.url);
    labels = urls.map(serverLabel);
    db = await openTestDatabase('sqlite');
    server = await startServer(
      db.store,
      { metricsToken: TOKEN, sfu: { janus: { kind: 'pool', urls, apiSecret }, rtpPorts: DEFAULT_RTP_PORTS, publicIp: undefined, fromParticipants: 3, videoSlots: 9 } },
      { sfu: { tuning: FAST } },
    );
    await until('both servers up', async () => ((await readyBody(server)).sfu.up === 2 ? true : undefined));
  });
  after(async () => {
    await server?.close();
    await db?.dispose();
    await Promise.all(janus.map((j) => j.stop()));
  });

  it('reports the pool in /ready and /metrics', async () => {
    assert.deepEqual(await readyBody(server), { status: 'ready', database: 'ok', redis: 'not configured', redisFailures: 0, sfu: { status: 'ok', up: 2, total: 2 } });
    for (const label of labels) {
      assert.equal(await metric(server, 'foyer_sfu_servers_up', label), 1);
      assert.equal(await metric(server, 'foyer_sfu_rooms', label), 0);
      assert.equal(await metric(server, 'foyer_sfu_participants', label), 0);
    }
  });

  it('places meetings on the least loaded server and creates their rooms there', async () => {
    const org = await seedOrganization(server.ctx, 'basic');
    const actor = memberActor(org.organization, org.users[0]!);
    const sfu = server.sfu!;
    const rooms = [];
    for (let i = 0; i < 4; i++) {
      const meeting = await createMeeting(server.ctx, actor, { type: 'MEETING' });
      const place: PlaceRef = { kind: 'meeting', id: meeting.id };
      meetingPlaces.push(place);
      const placed = await sfu.roomFor(place);
      assert.ok(placed);
      rooms.push(placed);
      assert.deepEqual(await placed.server.participants(placed.room), [], 'the room exists on its server');
    }
    assert.deepEqual(rooms.map((r) => r.server.label).sort(), [...labels, ...labels].sort(), 'two rooms on each');
    // Two people in the first meeting make its server the busier one.
    await server.ctx.store.live.heartbeat('instance-a', new Date());
    for (const name of ['ann', 'bob']) {
      await server.ctx.store.live.enterMeeting(meetingPlaces[0]!.id, { id: `${name}-conn`, instanceId: 'instance-a', displayName: name, audio: true, video: true, screen: false, joinedAt: new Date(), host: false, guestKey: null }, new Date());
    }
    const busy = rooms[0]!.server.label;
    assert.equal(await metric(server, 'foyer_sfu_participants', busy), 2);
    assert.equal(await metric(server, 'foyer_sfu_rooms', busy), 2);
    const meeting = await createMeeting(server.ctx, actor, { type: 'MEETING' });
    const fifth = await sfu.roomFor({ kind: 'meeting', id: meeting.id });
    meetingPlaces.push({ kind: 'meeting', id: meeting.id });
    assert.notEqual(fifth?.server.label, busy);
    assert.deepEqual((await sfu.roomFor(meetingPlaces[0]!))?.placement, rooms[0]!.placement, 'a placed meeting stays where it is');
  });

  it('destroys the room of a meeting that ends, and forgets its placement', async () => {
    const place = meetingPlaces.pop()!;
    const placed = (await server.sfu!.roomFor(place))!;
    await endMeeting(server.ctx, place.id);
    await until('the placement forgotten', async () => ((await server.ctx.store.findPlacement(place)) === undefined ? true : undefined));
    await until('the room destroyed', async () => {
      try {
        await placed.server.participants(placed.room);
        return undefined;
      } catch (error) {
        return /426/.test((error as Error).message) ? true : undefined;
      }
    });
  });

  it('notices a SIGKILLed Janus within 5 s and moves its meetings to the other, into rooms that exist', async () => {
    const sfu = server.sfu!;
    const victimIndex = 0;
    const victim = labels[victimIndex]!;
    const survivor = labels[1 - victimIndex]!;
    const onVictim = await server.ctx.store.listPlacements(victim);
    assert.ok(onVictim.length >= 1);
    const moves: Placement[] = [];
    sfu.on('moved', (placement, from) => {
      if (from === victim) moves.push(placement);
    });
    const killedAt = Date.now();
    process.kill(janus[victimIndex]!.pid!, 'SIGKILL');
    await until('every meeting moved', async () => (moves.length === onVictim.length ? true : undefined), 10_000);
    const movedMs = Date.now() - killedAt;
    console.log(`killed Janus: ${onVictim.length} meetings placed again after ${movedMs} ms`);
    assert.ok(movedMs < 5000, `moved after ${movedMs} ms`);
    for (const placement of moves) {
      assert.equal(placement.server, survivor);
      const placed = await sfu.roomFor(placement.place);
      assert.equal(placed?.room, placement.room);
      assert.deepEqual(await placed!.server.participants(placed!.room), [], 'the new room exists');
    }
    assert.deepEqual(await server.ctx.store.listPlacements(victim), []);
    assert.deepEqual(await readyBody(server), { status: 'degraded', database: 'ok', redis: 'not configured', redisFailures: 0, sfu: { status: 'degraded', up: 1, total: 2 } });
    assert.equal(await metric(server, 'foyer_sfu_servers_up', victim), 0);
    assert.equal(await metric(server, 'foyer_sfu_rooms', victim), 0);
    assert.equal(await metric(server, 'foyer_sfu_servers_up', survivor), 1);
    assert.equal(await metric(server, 'foyer_sfu_rooms', survivor), meetingPlaces.length);
    assert.equal(await metric(server, 'foyer_sfu_participants', survivor), 2, 'the two people moved with their meeting');
  });

  it('takes the killed server back once it answers again', async () => {
    // The test's launcher restarts it on another port; a pool member comes back where it was, so give it back its address.
    const back = nextEvent(server.sfu!.servers[0]!, 'up', 20_000);
    const endpoint = await until('the killed Janus restarted', async () => janus[0]!.endpoint);
    server.sfu!.servers[0]!.setEndpoint(endpoint);
    await back;
    assert.equal((await readyBody(server)).sfu.status, 'ok');
  });
});

describe('a Janus of its own (JANUS_BIN)', { skip }, () => {
  it('is started with the server, reported, and ended with it', async () => {
    const db = await openTestDatabase('sqlite');
    const server = await startServer(
      db.store,
      { metricsToken: TOKEN, sfu: { janus: { kind: 'local', bin: JANUS_BIN! }, rtpPorts: testRtpPorts(), publicIp: undefined, fromParticipants: 3, videoSlots: 9 } },
      { sfu: { tuning: FAST, iceInterfaces: 'lo' } },
    );
    let pid: number | undefined;
    try {
      const label = `local@${hostname()}`;
      await until('the local Janus up', async () => ((await readyBody(server)).sfu.status === 'ok' ? true : undefined));
      assert.deepEqual((await readyBody(server)).sfu, { status: 'ok', up: 1, total: 1 });
      assert.equal(await metric(server, 'foyer_sfu_servers_up', label), 1);
      const placed = await server.sfu!.roomFor({ kind: 'meeting', id: crypto.randomUUID() });
      assert.equal(placed?.server.label, label);
      pid = server.sfu!.localPid;
      assert.ok(pid && alive(pid));
    } finally {
      await server.close();
      await db.dispose();
    }
    const gone = await fetch(`${server.origin}/ready`).catch(() => undefined);
    assert.equal(gone, undefined, 'the server is closed');
    assert.equal(alive(pid!), false, 'its Janus ended with it');
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

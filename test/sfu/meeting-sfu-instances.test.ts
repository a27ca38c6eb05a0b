/**
 * One meeting through the SFU across two Foyer instances (PostgreSQL, Redis)
 * that share a pool of one Janus (JANUS_URLS), with three Firefox
 * participants and one Chromium participant spread over both instances:
 * every page moves to the SFU, decodes the video of the three others
 * through at most two connections, and every instance's links use the same
 * placement (one SFU room holding all four feeds).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEFAULT_RTP_PORTS } from '../../src/config-sfu.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import type { LocalJanus } from '../../src/sfu/launcher.ts';
import { openStore } from '../../src/store/open.ts';
import { firefoxSkipReason, launchFirefox, openFirefoxParticipant, type LaunchedFirefox } from '../browser/firefox-support.ts';
import { browserSkipReason, joinAs, launch, openParticipant, waitForParticipants, waitUntil } from '../browser/support.ts';
import { openTestDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { client, seedOrganization, startServer, type TestServer } from '../support/server.ts';
import { cameraFpsFor, decodesEveryone, pathOf, sfuPage, type Person } from './meeting-pages.ts';
import { janusSkipReason, recordingLog, testJanus } from './support.ts';

const skip = janusSkipReason() ?? browserSkipReason() ?? firefoxSkipReason() ?? (await postgresSkipReason()) ?? (await redisSkipReason());
const WAIT = 90_000;
const FAST = { probeIntervalMs: 500, downAfterMs: 2500, reconnectDelayMs: 200 };



describe('a meeting through the SFU across two instances, in Firefox and Chromium', { skip, timeout: 600_000 }, () => {
  let janus: LocalJanus;
  let db: TestDatabase;
  let secondStore: StoreConnection;
  let one: TestServer;
  let two: TestServer;
  let prefix: string;
  let chromium: Browser;
  let firefox: LaunchedFirefox;
  const people: Person[] = [];

  before(async () => {
    const apiSecret = randomBytes(24).toString('base64url');
    janus = testJanus(recordingLog(), apiSecret);
    const { url } = await janus.start();
    db = await openTestDatabase('postgres');
    secondStore = await openStore(db.url);
    prefix = uniquePrefix();
    const config = {
      redisUrl: TEST_REDIS_URL,
      redisKeyPrefix: prefix,
      sfu: { janus: { kind: 'pool' as const, urls: [url], apiSecret }, rtpPorts: DEFAULT_RTP_PORTS, publicIp: undefined, fromParticipants: 3, videoSlots: 9 },
    };
    one = await startServer(db.store, config, { sfu: { tuning: FAST } });
    two = await startServer(secondStore, config, { sfu: { tuning: FAST } });
    for (const s of [one, two]) await waitUntil('the pool up', async () => s.sfu!.health() === 'ok', { timeout: 30_000 });
    [firefox, chromium] = await Promise.all([launchFirefox(), launch({ cameraFps: cameraFpsFor() })]);
  });

  after(async () => {
    for (const p of people) await p.context.close().catch(() => {});
    await chromium?.close();
    await firefox?.close();
    await one?.close();
    await two?.close();
    await secondStore?.close();
    await db?.dispose();
    await janus?.stop();
    if (prefix) await deletePrefix(prefix);
  });

  it('puts everyone on one Janus room, each page decoding the three others through two connections', async () => {
    const seeded = await seedOrganization(one.ctx, 'basic');
    const created = await client(one.baseUrl, seeded).post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const redirect = new URL(created.body.redirectUrl);
    const path = redirect.pathname + redirect.search;
    const meetingId = redirect.pathname.split('/').pop()!;
    const arrivals: Array<[string, TestServer, 'firefox' | 'chromium']> = [
      ['Ann', one, 'chromium'],
      ['Fox', two, 'firefox'],
      ['Fay', one, 'firefox'],
      ['Fin', two, 'firefox'],
    ];
    for (const [name, server, kind] of arrivals) {
      const setup = sfuPage();
      const p = kind === 'firefox' ? await openFirefoxParticipant(firefox.browser, server.origin + path, setup) : await openParticipant(chromium, server.origin + path, { setup });
      people.push({ ...p, name });
      await joinAs(p.page, name, WAIT);
    }
    const names = people.map((p) => p.name);
    for (const p of people) await waitForParticipants(p.page, names, WAIT);
    for (const p of people) await waitUntil(`${p.name} on the SFU, through at most two connections`, async () => {
      const path = await pathOf(p);
      return path.mode === 'sfu' && path.connections <= 2 ? path : undefined;
    }, { timeout: WAIT });
    // Counted once on the SFU: each page's frames from the three others (a count that restarts belongs to a new connection).
    for (const p of people) await decodesEveryone(p, 3);
    const placement = await db.store.findPlacement({ kind: 'meeting', id: meetingId });
    assert.ok(placement, 'the meeting is placed once, for both instances');
    const feeds = await one.sfu!.servers[0]!.participants(placement.room);
    assert.equal(feeds.filter((f) => f.publisher).length, 4, 'all four publish in the one room');
  });
});

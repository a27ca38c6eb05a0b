/**
 * The meeting front end in real headless Chromium with fake devices,
 * against the real Foyer app (API, pages, signalling) on SQLite:
 * live remote video and audio both ways (one stream per participant),
 * participant lists following joins and leaves, mute, camera and screen
 * sharing as the others see them, a denied camera and video=off, a lost
 * offer retried, reconnects after a server restart (1001) and a reaped
 * instance (4503) with backoff, final screens after refusals (4400, 4429),
 * idle closing ending in 410, isInfinite staying open, and short links
 * landing on the meeting with their parameters applied.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { liveContext, retireInstance } from '../../src/domain/lifecycle.ts';
import { createLogger } from '../../src/logger.ts';
import { createServer } from '../../src/server.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type TestServer } from '../support/server.ts';
import {
  browserSkipReason,
  framesDecoded,
  joinAs,
  launch,
  onlyRemote,
  openParticipant,
  waitForGrowth,
  waitForParticipants,
  waitUntil,
  type OpenOptions,
  type Participant,
} from './support.ts';

const skip = browserSkipReason();
// Long enough for a page to load and join before a meeting nobody joined closes, even with two
// browser suites sharing this machine's two cores (2 s was not, under CI load).
const IDLE_SECONDS = 6;
/** For waits on media and presence: generous, because the machine running this may be shared and starved. */
const WAIT = 45_000;

describe('meeting pages in Chromium', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let shortIdle: TestServer;
  let api: Client;
  let shortApi: Client;
  let browser: Browser;
  const opened: Participant[] = [];

  const open = async (url: string, options?: OpenOptions) => {
    const p = await openParticipant(browser, url, options);
    opened.push(p);
    return p;
  };
  const newMeeting = async (srv: TestServer = server) => {
    const created = await api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    return pageUrl(srv, created.body.redirectUrl);
  };
  /** Ann and Bob in a call at `url`, each receiving the other's video. */
  const pair = async (url: string, options: { ann?: OpenOptions; bob?: OpenOptions } = {}) => {
    const ann = await open(url, options.ann);
    const bob = await open(url, options.bob);
    await joinAs(ann.page, 'Ann', WAIT);
    await joinAs(bob.page, 'Bob', WAIT);
    for (const p of [ann, bob]) await waitForParticipants(p.page, ['Ann', 'Bob'], WAIT);
    return { ann, bob };
  };
  // By name, not id: a participant who rejoins gets a new id.
  const listed = (name: string, flag: string) => `#people-list li:has-text("${name}") small:has-text("${flag}")`;
  const tileOf = (name: string, state = '') => `.tile${state}:not(.self):has(figcaption:has-text("${name}"))`;
  const media = (p: Participant) => p.page.evaluate(() => (window as any).foyer.media());
  /** Waits for the page's announced media flags (camera toggles finish asynchronously). */
  const waitForMedia = (p: Participant, want: { audio: boolean; video: boolean; screen: boolean }) =>
    p.page.waitForFunction((w) => JSON.stringify((window as any).foyer.media()) === JSON.stringify(w), want, { timeout: WAIT });
  /**
   * Waits until `key` of the only remote grows by at most `tolerance` over a
   * second. (Sound: concealment of late packets on a busy machine adds a
   * trace of energy even to silence; the beeps add about 0.2 a second.)
   */
  const waitForStall = async (p: Participant, key: 'framesDecoded' | 'audioEnergy', what: string, tolerance = 0) => {
    const growth: number[] = [];
    await waitUntil(what, async () => {
      const before = (await onlyRemote(p.page))?.[key];
      await new Promise((r) => setTimeout(r, 1000));
      const now = (await onlyRemote(p.page))?.[key];
      if (before === undefined || now === undefined) return false;
      growth.push(now - before);
      return now - before <= tolerance;
    }).catch((error: Error) => {
      throw new Error(`${error.message}; growth per second: ${growth.join(', ')}`);
    });
  };
  const pageUrl = (srv: TestServer, redirectUrl: string) => srv.origin + new URL(redirectUrl).pathname + new URL(redirectUrl).search;

  before(async () => {
    db = await openTestDatabase('sqlite');
    // Two instances on one database: normal idle time, and a short one for the closing tests.
    server = await startServer(db.store);
    shortIdle = await startServer(db.store, { idleCloseSeconds: IDLE_SECONDS });
    const seeded = await seedOrganization(server.ctx, 'basic');
    api = client(server.baseUrl, seeded);
    shortApi = client(shortIdle.baseUrl, seeded);
    browser = await launch();
  });
  // Calls left running would load the machine for every later test.
  afterEach(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
  });
  after(async () => {
    for (const p of opened) await p.context.close().catch(() => {});
    await browser?.close();
    await shortIdle?.close();
    await server?.close();
    await db?.dispose();
  });

  it('shows each of two participants the other one\'s live video', async () => {
    const created = await api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const url = pageUrl(server, created.body.redirectUrl);
    const ann = await open(url);
    const bob = await open(url);
    await joinAs(ann.page, 'Ann');
    await joinAs(bob.page, 'Bob');
    await waitForParticipants(ann.page, ['Ann', 'Bob']);
    await waitForParticipants(bob.page, ['Ann', 'Bob']);

    for (const p of [ann, bob]) {
      await p.page.waitForFunction(
        async () => Object.values(await (window as any).foyer.framesDecoded()).some((n) => (n as number) > 0),
        undefined,
        { timeout: 20_000, polling: 250 },
      );
    }
    const first = await Promise.all([framesDecoded(ann.page), framesDecoded(bob.page)]);
    await new Promise((r) => setTimeout(r, 1500));
    const second = await Promise.all([framesDecoded(ann.page), framesDecoded(bob.page)]);
    for (const i of [0, 1]) {
      const [peer] = Object.keys(second[i]!);
      assert.ok(peer, 'one remote peer');
      assert.ok(second[i]![peer]! > first[i]![peer]! + 5, `frames keep coming: ${first[i]![peer]} -> ${second[i]![peer]}`);
    }
    // The remote <video> renders frames too, not only the decoder.
    const width = await ann.page.evaluate(() => (document.querySelector('.tile:not(.self) video') as HTMLVideoElement)?.videoWidth ?? 0);
    assert.ok(width > 0);
    await ann.context.close();
    await bob.context.close();
  });

  it('updates everyone\'s participant list when a third joins and leaves', async () => {
    const created = await api.post('/v3/meeting', { json: { type: 'consultation' } });
    const url = pageUrl(server, created.body.redirectUrl);
    const ann = await open(url);
    const bob = await open(url);
    await joinAs(ann.page, 'Ann');
    await joinAs(bob.page, 'Bob');
    await waitForParticipants(ann.page, ['Ann', 'Bob']);

    const cat = await open(url);
    await joinAs(cat.page, 'Cat');
    for (const p of [ann, bob, cat]) await waitForParticipants(p.page, ['Ann', 'Bob', 'Cat']);
    assert.deepEqual(
      await ann.page.$$eval('#people-list li', (items) => items.map((li) => li.firstChild?.textContent).sort()),
      ['Ann (you)', 'Bob', 'Cat'],
    );

    await cat.page.click('#leave');
    await cat.page.waitForSelector('#finished[data-kind="left"]');
    for (const p of [ann, bob]) await waitForParticipants(p.page, ['Ann', 'Bob']);
    // The departed peer's tile is gone.
    assert.equal(await ann.page.locator('.tile:not(.self)').count(), 1);

    // A closed tab (no leave message) is noticed too.
    const dan = await open(url);
    await joinAs(dan.page, 'Dan');
    await waitForParticipants(ann.page, ['Ann', 'Bob', 'Dan']);
    await dan.context.close();
    await waitForParticipants(ann.page, ['Ann', 'Bob']);
    await ann.context.close();
    await bob.context.close();
  });

  it('closes a meeting left empty after the idle time; its page then answers 410', async () => {
    const created = await shortApi.post('/v3/meeting', { json: {} });
    const url = pageUrl(shortIdle, created.body.redirectUrl);
    const ann = await open(url);
    await joinAs(ann.page, 'Ann');
    // Present for longer than the idle time: still open.
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000 + 500));
    assert.equal((await fetch(url)).status, 200);
    await ann.page.click('#leave');
    await ann.page.waitForSelector('#finished');
    const leftAt = Date.now();
    assert.equal((await fetch(url)).status, 200, 'open during the idle time');
    let status = 200;
    while (status === 200 && Date.now() - leftAt < IDLE_SECONDS * 1000 + 5000) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await fetch(url)).status;
    }
    assert.equal(status, 410);
    assert.ok(Date.now() - leftAt >= IDLE_SECONDS * 1000 - 100);
    const page = await ann.page.goto(url);
    assert.equal(page?.status(), 410);
    assert.match(await ann.page.textContent('h1') ?? '', /ended/);
    // The page counts a passed deadline as closed at once; a sweeper records it within its interval.
    const deadline = Date.now() + 5000;
    while (!(await db.store.live.findMeetingRecord({ id: created.body.id }))?.closedAt) {
      assert.ok(Date.now() < deadline, 'closed in the database by a sweeper');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('keeps an isInfinite meeting open however long it stays empty', async () => {
    const created = await shortApi.post('/v3/meeting', { json: { isInfinite: true } });
    const url = pageUrl(shortIdle, created.body.redirectUrl);
    const ann = await open(url);
    await joinAs(ann.page, 'Ann');
    await ann.page.click('#leave');
    // Well past the idle time after the last leave: a finite meeting would be closed by now.
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000 + 3000));
    assert.equal((await fetch(url)).status, 200);
    const bob = await open(url);
    await joinAs(bob.page, 'Bob');
    await waitForParticipants(bob.page, ['Bob']);
    await ann.context.close();
    await bob.context.close();
  });

  it('lands a short link on its meeting with the stored parameters applied', async () => {
    const created = await api.post('/v3/meeting', {
      json: { queryParameters: { displayName: 'Zed', audio: 'off', skipPrejoin: true, lang: 'de', embed: true, unknownThing: 'x' } },
    });
    assert.match(created.body.redirectUrl, /\/m\/[0-9A-Za-z]+$/);
    const host = await open(server.origin + `/meetings/${created.body.id}`);
    await joinAs(host.page, 'Host');

    const zed = await open(pageUrl(server, created.body.redirectUrl));
    assert.match(zed.page.url(), new RegExp(`/meetings/${created.body.id}\\?`));
    // skipPrejoin: in the call without touching anything, under the given name.
    await zed.page.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: 15_000 });
    await waitForParticipants(host.page, ['Host', 'Zed']);
    assert.equal(await zed.page.evaluate(() => document.documentElement.lang), 'de');
    assert.equal(await zed.page.textContent('#leave'), 'Verlassen');
    assert.equal(await zed.page.evaluate(() => document.body.classList.contains('embed')), true);
    assert.equal(await zed.page.locator('.bar').isVisible(), false, 'embed: minimal interface');
    assert.deepEqual(await zed.page.evaluate(() => (window as any).foyer.media()), { audio: false, video: true, screen: false });
    // Others see Zed muted.
    await host.page.waitForSelector('#people-list li:has-text("Zed") small:has-text("muted")', { timeout: 10_000 });
  });
  it('carries each one\'s audio to the other, in one stream with the video', async () => {
    const { ann, bob } = await pair(await newMeeting());
    for (const [me, other] of [[ann, bob], [bob, ann]] as const) {
      // Packets, samples played out and sound (the fake microphone beeps), still arriving.
      await waitForGrowth(me.page, 'audioPackets', 50);
      await waitForGrowth(me.page, 'audioSamples', 24_000);
      await waitForGrowth(me.page, 'audioEnergy', 0);
      await waitForGrowth(me.page, 'framesDecoded', 5);
      // Audio and video come as the sender's own stream (both sides name it:
      // addTransceiver when offering, setStreams when answering): lip sync.
      const remote = (await onlyRemote(me.page))!;
      assert.equal(remote.streamId, await other.page.evaluate(() => (window as any).foyer.localStreamId()));
      const kinds = await me.page.evaluate(() =>
        ((document.querySelector('.tile:not(.self) video') as HTMLVideoElement).srcObject as MediaStream).getTracks().map((t) => t.kind).sort(),
      );
      assert.deepEqual(kinds, ['audio', 'video']);
    }
    // Tiles that overflow stay reachable by scrolling.
    assert.equal(await ann.page.$eval('#tiles', (e) => getComputedStyle(e).alignContent), 'safe center');
  });

  it('shows mute and camera off to the other one; media comes back when turned on', async () => {
    const { ann, bob } = await pair(await newMeeting());
    await waitForGrowth(ann.page, 'audioEnergy', 0);

    await bob.page.click('#mic');
    await waitForMedia(bob, { audio: false, video: true, screen: false });
    await ann.page.waitForSelector(listed('Bob', 'muted'), { timeout: WAIT });
    await ann.page.waitForSelector(`${tileOf('Bob')} figcaption:has-text("muted")`, { timeout: WAIT });
    // What arrives is silence.
    await waitForStall(ann, 'audioEnergy', 'silence from Bob', 0.005);
    await bob.page.click('#mic');
    await waitForMedia(bob, { audio: true, video: true, screen: false });
    await ann.page.waitForSelector(listed('Bob', 'muted'), { state: 'detached', timeout: WAIT });
    await waitForGrowth(ann.page, 'audioEnergy', 0);

    await bob.page.click('#cam');
    await waitForMedia(bob, { audio: true, video: false, screen: false });
    await ann.page.waitForSelector(listed('Bob', 'camera off'), { timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', '.off'), { timeout: WAIT });
    await bob.page.waitForSelector('#tile-self.off', { timeout: WAIT });
    // No more frames while the camera is off...
    await waitForStall(ann, 'framesDecoded', 'Bob\'s frames to stop');
    // ...and frames again once it is back on, without renegotiating.
    await bob.page.click('#cam');
    await waitForMedia(bob, { audio: true, video: true, screen: false });
    await ann.page.waitForSelector(listed('Bob', 'camera off'), { state: 'detached', timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', ':not(.off)'), { timeout: WAIT });
    await waitForGrowth(ann.page, 'framesDecoded', 10);
  });

  it('shares a screen in a call: the other one sees it and the state; the sharer\'s view is steady and unmirrored', async () => {
    const { ann, bob } = await pair(await newMeeting());
    await waitForGrowth(ann.page, 'framesDecoded', 5);
    const aspect = async () => {
      const r = await onlyRemote(ann.page);
      return r?.frameHeight ? r.frameWidth / r.frameHeight : 0;
    };
    assert.ok((await aspect()) < 1.45, 'the camera (4:3) first');

    await bob.page.click('#share');
    await waitForMedia(bob, { audio: true, video: true, screen: true });
    await ann.page.waitForSelector(listed('Bob', 'sharing screen'), { timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', '.sharing'), { timeout: WAIT });
    // The fake screen is 16:9; frames keep coming (slowly: a still screen sends few).
    await waitUntil('the screen (16:9) on Ann\'s side', async () => (await aspect()) > 1.6);
    await waitForGrowth(ann.page, 'framesDecoded', 2);

    // The sharer sees the screen the right way round, from one stream that
    // survives other control changes (a new one per refresh would flicker).
    const selfView = '#tile-self video';
    assert.equal(await bob.page.$eval(selfView, (v) => getComputedStyle(v).transform), 'none');
    await bob.page.$eval(selfView, (v) => ((window as any).sharedView = (v as HTMLVideoElement).srcObject));
    await bob.page.click('#mic');
    await bob.page.click('#mic');
    assert.equal(await bob.page.$eval(selfView, (v) => (v as HTMLVideoElement).srcObject === (window as any).sharedView), true);
    assert.equal(await bob.page.$eval(selfView, (v) => ((v as HTMLVideoElement).srcObject as MediaStream).getVideoTracks()[0]?.label.startsWith('screen')), true);

    await bob.page.click('#share');
    await ann.page.waitForSelector(listed('Bob', 'sharing screen'), { state: 'detached', timeout: WAIT });
    await waitUntil('the camera (4:3) back on Ann\'s side', async () => {
      const a = await aspect();
      return a > 0 && a < 1.45;
    });
    await waitForGrowth(ann.page, 'framesDecoded', 10);
    assert.match(await bob.page.$eval(selfView, (v) => getComputedStyle(v).transform), /^matrix\(-1/);
  });

  it('joins with the camera off under video=off, and turns it on later', async () => {
    const url = await newMeeting();
    const ann = await open(url);
    await joinAs(ann.page, 'Ann', WAIT);
    const bob = await open(url + '?video=off');
    await joinAs(bob.page, 'Bob', WAIT);
    await waitForParticipants(ann.page, ['Ann', 'Bob'], WAIT);
    assert.deepEqual(await media(bob), { audio: true, video: false, screen: false });
    assert.equal(await bob.page.evaluate(() => document.querySelector('#tile-self')?.classList.contains('off')), true);
    await ann.page.waitForSelector(listed('Bob', 'camera off'), { timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', '.off'), { timeout: WAIT });
    await waitForGrowth(ann.page, 'audioPackets', 20);
    assert.equal((await onlyRemote(ann.page))!.framesDecoded, 0, 'no video sent');

    await bob.page.click('#cam');
    await waitForMedia(bob, { audio: true, video: true, screen: false });
    await ann.page.waitForSelector(tileOf('Bob', ':not(.off)'), { timeout: WAIT });
    await waitForGrowth(ann.page, 'framesDecoded', 10);
  });

  it('announces the camera off when it is refused, instead of a black "camera on" tile', async () => {
    // Refuses every request that includes video, as a browser does after "Block".
    const denyCamera = async (page: Page) =>
      page.addInitScript(`{
        const md = navigator.mediaDevices;
        const original = md.getUserMedia.bind(md);
        md.getUserMedia = (c) => (c && c.video ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) : original(c));
      }`);
    const { ann, bob } = await pair(await newMeeting(), { bob: { setup: denyCamera } });
    assert.deepEqual(await media(bob), { audio: true, video: false, screen: false });
    assert.equal(await bob.page.textContent('#cam'), 'Start camera');
    await ann.page.waitForSelector(listed('Bob', 'camera off'), { timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', '.off'), { timeout: WAIT });
    // Packets, not sound: Chromium's fake microphone beeps only while its fake camera captures.
    await waitForGrowth(ann.page, 'audioPackets', 20);
  });

  it('negotiates again when an offer is lost, and ignores candidates of a connection it does not have', async () => {
    // Each page's first offer vanishes on the way (only the offering side sends any).
    const tally = { dropped: 0, iceAfterDrop: 0 };
    const loseFirstOffer = async (page: Page) => {
      let dropped = false;
      await page.routeWebSocket(/\/ws$/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((message) => {
          const type = JSON.parse(String(message)).type;
          if (type === 'offer' && !dropped) {
            dropped = true;
            tally.dropped += 1;
            return;
          }
          if (type === 'ice' && dropped) tally.iceAfterDrop += 1;
          server.send(message);
        });
      });
    };
    const { ann, bob } = await pair(await newMeeting(), { ann: { setup: loseFirstOffer }, bob: { setup: loseFirstOffer } });
    await waitUntil('the first offer dropped and its candidates relayed', async () => tally.dropped === 1 && tally.iceAfterDrop > 0);
    // Those candidates reach the answering side, which has no connection for
    // them and makes none: only the offering side has one, still unconnected.
    await new Promise((r) => setTimeout(r, 500));
    const stats = await Promise.all([ann, bob].map((p) => p.page.evaluate(() => (window as any).foyer.stats())));
    const states = stats.flatMap((s) => Object.values(s).map((peer: any) => peer.state));
    assert.equal(states.length, 1, `one connection in all: ${JSON.stringify(stats)}`);
    assert.notEqual(states[0], 'connected');
    // About 10 s later the offering side starts over, and video flows both ways.
    for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 5, 60_000);
    assert.equal(tally.dropped, 1);
  });

  it('rejoins with media after a server restart (1001) and after its instance was reaped (4503), still sharing', async () => {
    let srv = await startServer(db.store);
    const port = Number(new URL(srv.origin).port);
    try {
      const { ann, bob } = await pair(await newMeeting(srv));
      for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 5);
      const selfId = (p: Participant) => p.page.evaluate(() => (window as any).foyer.phase() === 'call' && ((window as any).foyer.selfId() as string));
      const firstIds = await Promise.all([ann, bob].map(selfId));

      // A restart: the old server says 1001, the pages find nobody for a
      // moment (1006), back off, and come back as new participants. The new
      // server has an instance id known here so that it can be reaped below.
      await srv.close();
      const instanceId = `restarted-${randomUUID()}`;
      const { app, ctx } = await createServer({ config: srv.config, store: db.store, logger: createLogger(srv.config, false), realtime: { instanceId } });
      const live = liveContext(ctx, { instanceId, instanceTtlMs: 15_000 });
      await app.listen({ host: '127.0.0.1', port });
      srv = { ...srv, app, close: () => app.close() };
      for (const p of [ann, bob]) {
        await waitUntil('a rejoin after the restart', async () => {
          const id = await selfId(p);
          return id && !firstIds.includes(id);
        });
        await waitForParticipants(p.page, ['Ann', 'Bob'], WAIT);
        assert.equal((await p.page.evaluate(() => (window as any).foyer.closes()))[0], 1001);
      }
      for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 5);

      // Bob shares; then the instance is taken for dead (its presence removed
      // as another instance would): its next sweep asks everyone to rejoin.
      const bobBefore = await selfId(bob);
      await bob.page.click('#share');
      await waitForMedia(bob, { audio: true, video: true, screen: true });
      await waitUntil('Ann seeing the screen', async () => {
        const r = await onlyRemote(ann.page);
        return r && r.frameHeight > 0 && r.frameWidth / r.frameHeight > 1.6;
      });
      await retireInstance(live);
      await waitUntil('Bob rejoining after 4503', async () => {
        const id = await selfId(bob);
        return id && id !== bobBefore;
      });
      assert.ok((await bob.page.evaluate(() => (window as any).foyer.closes())).includes(4503));
      await waitForParticipants(ann.page, ['Ann', 'Bob'], WAIT);
      // The rejoin still sends the screen, not the camera, and says so.
      assert.equal((await media(bob)).screen, true);
      await ann.page.waitForSelector(listed('Bob', 'sharing screen'), { timeout: WAIT });
      await waitUntil('the screen (16:9) again on Ann\'s side', async () => {
        const r = await onlyRemote(ann.page);
        return r && r.frameHeight > 0 && r.frameWidth / r.frameHeight > 1.6;
      });
      await waitForGrowth(bob.page, 'framesDecoded', 5);
    } finally {
      for (const p of opened.splice(0)) await p.context.close().catch(() => {});
      await srv.close();
    }
  });

  it('backs off between reconnects, doubling, and starts over once joined', async () => {
    const url = await newMeeting();
    const attempts: number[] = [];
    let joined: WebSocketRoute | undefined;
    const { page } = await open(url, {
      setup: (p) =>
        p.routeWebSocket(/\/ws$/, (ws) => {
          attempts.push(Date.now());
          // A server going away three times in a row; the fourth attempt and later get through.
          if (attempts.length < 4) {
            ws.close({ code: 1001, reason: 'Server shutting down.' });
          } else {
            joined ??= ws;
            ws.connectToServer();
          }
        }),
    });
    await page.fill('#name', 'Ann');
    await page.click('#join');
    await page.waitForFunction(() => (window as any).foyer.phase() === 'call', undefined, { timeout: WAIT });
    // The page's own waits: 1 s, 2 s, 4 s, each ±20 %...
    const delays: number[] = await page.evaluate(() => (window as any).foyer.retryDelays());
    assert.equal(delays.length, 3);
    [1000, 2000, 4000].forEach((base, i) => assert.ok(delays[i]! >= base * 0.8 && delays[i]! <= base * 1.2, `waits ${delays}`));
    // ...and really waited (a loaded machine can only add to them).
    const gaps = attempts.slice(1, 4).map((at, i) => at - attempts[i]!);
    gaps.forEach((gap, i) => assert.ok(gap >= delays[i]! - 100, `attempts ${gaps} ms apart, waits ${delays}`));

    // Joined: the next drop is retried after about 1 s again, not 8 s.
    await joined!.close({ code: 1001, reason: 'Server shutting down.' });
    await waitUntil('a reconnect after the join', async () => attempts.length > 4);
    const after: number[] = await page.evaluate(() => (window as any).foyer.retryDelays());
    assert.ok(after[3]! >= 800 && after[3]! <= 1200, `wait after the join: ${after[3]}`);
    await page.waitForFunction(() => (window as any).foyer.phase() === 'call', undefined, { timeout: WAIT });
    assert.deepEqual(await page.evaluate(() => (window as any).foyer.closes()), [1001, 1001, 1001, 1001]);
  });

  it('shows a final error screen after 4400 and 4429 and does not reconnect', async () => {
    const url = await newMeeting();
    const host = await open(url);
    await joinAs(host.page, 'Host', WAIT);
    const routed = async (lang: string) => {
      const route = { opens: 0, server: undefined as WebSocketRoute | undefined };
      const p = await open(url + `?lang=${lang}`, {
        setup: (page) =>
          page.routeWebSocket(/\/ws$/, (ws) => {
            route.opens += 1;
            route.server = ws.connectToServer();
          }),
      });
      return { ...p, route };
    };
    const bad = await routed('en');
    const flood = await routed('de');
    await joinAs(bad.page, 'Bad', WAIT);
    await joinAs(flood.page, 'Flood', WAIT);
    await waitForParticipants(host.page, ['Bad', 'Flood', 'Host'], WAIT);

    // As if the page had sent garbage, and as if it had flooded the server.
    bad.route.server!.send('this is not JSON');
    for (let i = 0; i < 501; i += 1) flood.route.server!.send('{"type":"ping"}');

    await bad.page.waitForSelector('#finished[data-kind="failed"][data-code="4400"]', { timeout: WAIT });
    await flood.page.waitForSelector('#finished[data-kind="failed"][data-code="4429"]', { timeout: WAIT });
    assert.match(await bad.page.textContent('#finished h1') ?? '', /cannot be restored automatically/);
    assert.match(await flood.page.textContent('#finished h1') ?? '', /nicht automatisch wiederhergestellt/);
    assert.equal(await flood.page.textContent('#rejoin'), 'Erneut versuchen');
    await waitForParticipants(host.page, ['Host'], WAIT);
    // Well past the first retry (about 1 s): still one connection each, nothing scheduled, nobody back.
    await new Promise((r) => setTimeout(r, 4000));
    assert.equal(bad.route.opens, 1);
    assert.equal(flood.route.opens, 1);
    for (const p of [bad, flood]) {
      assert.deepEqual(await p.page.evaluate(() => [(window as any).foyer.phase(), (window as any).foyer.retryDelays()]), ['failed', []]);
    }
    assert.deepEqual(await host.page.evaluate(() => (window as any).foyer.participants()), ['Host']);
  });
});

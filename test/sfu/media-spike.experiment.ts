/**
 * The SFU's media path end to end, before it is wired into Foyer's
 * signalling: a real Janus (started by Foyer's launcher, ICE on loopback),
 * headless Chromium pages with fake devices that publish one camera with
 * three simulcast layers through a janode publisher handle, and receive
 * everyone else through ONE multistream subscriber connection each, the
 * offers and answers carried by this test. It proves that frames decode,
 * which layers arrive, what switching layers costs, how the receiving
 * connection is renegotiated when publishers come and go, what the talking
 * events look like. Figures are printed; docs/video.md ("The SFU") records
 * them. (Firefox through the SFU is covered by test/sfu/turn-sfu.test.ts and
 * meeting-sfu-instances.test.ts; the real meeting page by meeting-sfu.test.ts.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { VideoRoomHandle, VideoRoomStream } from 'janode/plugins/videoroom';
import VideoRoomPlugin from 'janode/plugins/videoroom';
import type { Browser, Page } from 'playwright-core';
import { JanusServer } from '../../src/sfu/janus-server.ts';
import type { LocalJanus } from '../../src/sfu/launcher.ts';
import { newRoomId } from '../../src/sfu/rooms.ts';
import { browserSkipReason, launch, waitUntil } from '../browser/support.ts';
import { janusSkipReason, nextEvent, recordingLog, testJanus } from './support.ts';

const skip = janusSkipReason() ?? browserSkipReason();
const CLIENT = readFileSync(new URL('./spike-client.js', import.meta.url), 'utf8');
const PAGE = '<!doctype html><meta charset="utf-8"><title>SFU spike</title><script type="module" src="/spike-client.js"></script>';

interface Person {
  name: string;
  page: Page;
  pub: VideoRoomHandle;
  feed: number;
  sub?: VideoRoomHandle;
  /** The subscription's streams as Janus last described them. */
  streams: VideoRoomStream[];
  capture: { width: number; height: number };
  offer: string;
  answer: string;
}

type Received = Record<string, { kind: string; framesDecoded: number; keyFramesDecoded: number; width: number; height: number; bytesReceived: number; packetsReceived: number; freezeCount: number; totalFreezesDuration: number }>;
type Sent = Record<string, { width: number; height: number; framesEncoded: number; bytesSent: number; limitation: string | null; active: boolean | null; keyFramesEncoded: number; pliCount: number; firCount: number }>;

const received = (p: Person): Promise<Received> => p.page.evaluate(() => (window as any).spike.received());
const sent = (p: Person): Promise<Sent> => p.page.evaluate(() => (window as any).spike.sent());

/** The subscriber mid carrying `feed`'s video for `viewer`. */
function videoMidOf(viewer: Person, feed: number): string {
  const stream = viewer.streams.find((s) => s.type === 'video' && s.feed_id === feed && s.active !== false);
  assert.ok(stream, `${viewer.name} has no video of feed ${feed}: ${JSON.stringify(viewer.streams)}`);
  return stream.mid;
}

describe('SFU media spike: Chromium through one Janus', { skip, timeout: 600_000 }, () => {
  let janus: LocalJanus;
  let server: JanusServer;
  let http: Server;
  let origin: string;
  let browser: Browser;
  const room = newRoomId();
  const people: Person[] = [];
  const talking: Array<{ feed: number; talking: boolean; level: number; at: number }> = [];
  const figures: Record<string, unknown> = {};
  let closing = false;

  before(async () => {
    janus = testJanus(recordingLog());
    const endpoint = await janus.start();
    server = new JanusServer('spike', endpoint, recordingLog());
    const up = nextEvent(server, 'up');
    server.start();
    await up;
    await server.ensureRoom(room);
    http = createServer((req, res) => {
      if (req.url === '/spike-client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(CLIENT);
      else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
    browser = await launch();
  });

  after(async () => {
    closing = true;
    console.log(`spike figures ${JSON.stringify(figures, null, 1)}`);
    await browser?.close();
    await server?.stop();
    await janus?.stop();
    http?.close();
  });

  async function openPage(b: Browser): Promise<Page> {
    const context = await b.newContext(b === browser ? { permissions: ['camera', 'microphone'] } : {});
    const page = await context.newPage();
    page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
    await page.goto(origin);
    await page.waitForFunction(() => (window as any).spike !== undefined);
    return page;
  }

  /** Joins the room as a publisher: the page's offer through a janode publisher handle, Janus's answer back. */
  async function publish(name: string, page: Page, options: { setParameters?: boolean; tone?: boolean } = {}): Promise<Person> {
    const startedAt = Date.now();
    const { sdp: offer, capture } = await page.evaluate((o) => (window as any).spike.publish(o), options);
    const pub = await server.attach();
    // Janus tells every publisher in the room; the first one's handle hears them all.
    if (people.length === 0) {
      pub.on(VideoRoomPlugin.EVENT.VIDEOROOM_TALKING, (e: { feed: number; talking: boolean; audio_level: number }) => {
        talking.push({ feed: e.feed, talking: e.talking, level: e.audio_level, at: Date.now() });
      });
    }
    const joined = await pub.joinConfigurePublisher({ room, display: name, jsep: { type: 'offer', sdp: offer } });
    assert.ok(joined.jsep, 'Janus answers the publisher');
    await page.evaluate((sdp) => (window as any).spike.publisherAnswer(sdp), joined.jsep.sdp);
    const person: Person = { name, page, pub, feed: joined.feed, streams: [], capture, offer, answer: joined.jsep.sdp };
    // Only a publisher whose connection is up can be subscribed to (before that: 428 "No such feed").
    await waitUntil(`${name} publishing`, async () => (await server.participants(room)).some((p) => p.feed === person.feed && p.publisher), { timeout: 30_000, interval: 50 });
    (figures.publishToActiveMs ??= {} as Record<string, number>) && ((figures.publishToActiveMs as Record<string, number>)[name] = Date.now() - startedAt);
    people.push(person);
    return person;
  }

  /** Answers an offer of the SFU on the person's receiving connection. */
  async function answer(p: Person, offer: string): Promise<void> {
    const sdp = await p.page.evaluate((o) => (window as any).spike.subscribe(o), offer);
    await p.sub!.start({ jsep: { type: 'answer', sdp } });
  }

  /** Subscribes `viewer` to `feeds` through its one subscriber handle (joining, or updating the subscription). */
  async function subscribe(viewer: Person, feeds: number[]): Promise<void> {
    if (!viewer.sub) {
      viewer.sub = await server.attach();
      // Janus renegotiates by itself when a subscribed publisher leaves (autoupdate).
      viewer.sub.on(VideoRoomPlugin.EVENT.VIDEOROOM_UPDATED, (e: { streams?: VideoRoomStream[]; jsep?: { sdp: string } }) => {
        if (e.streams) viewer.streams = e.streams;
        // After the test, closing pages make Janus renegotiate with pages that are gone: nothing to answer.
        if (e.jsep && !closing) answer(viewer, e.jsep.sdp).catch((error: Error) => console.log(`${viewer.name} could not answer a renegotiation: ${error.message}`));
      });
      const joined = await viewer.sub.joinSubscriber({ room, streams: feeds.map((feed) => ({ feed })), autoupdate: true });
      viewer.streams = joined.streams;
      await answer(viewer, joined.jsep!.sdp);
    } else {
      const updated = await viewer.sub.update({ subscribe: feeds.map((feed) => ({ feed })) });
      if (updated.streams) viewer.streams = updated.streams;
      if (updated.jsep) await answer(viewer, updated.jsep.sdp);
    }
  }

  /** Waits until every remote video of `viewer` from `feeds` decodes more than `frames` new frames. */
  async function decodes(viewer: Person, feeds: number[], frames = 24): Promise<Received> {
    const mids = feeds.map((f) => videoMidOf(viewer, f));
    const start = await received(viewer);
    return waitUntil(`${viewer.name} decoding video of feeds ${feeds.join(', ')}`, async () => {
      const now = await received(viewer);
      return mids.every((mid) => (now[mid]?.framesDecoded ?? 0) - (start[mid]?.framesDecoded ?? 0) > frames) ? now : undefined;
    }, { timeout: 60_000, interval: 250 });
  }

  it('publishes three simulcast layers from Chromium with sendEncodings alone, no SDP munging', async () => {
    const ann = await publish('ann', await openPage(browser), { tone: true });
    const bob = await publish('bob', await openPage(browser));
    for (const p of [ann, bob]) {
      assert.match(p.offer, /a=simulcast:send h;m;l/);
      assert.match(p.offer, /a=rid:h send\r\na=rid:m send\r\na=rid:l send/);
      assert.match(p.answer, /a=simulcast:recv h;m;l/, 'Janus accepts the three layers');
    }
    const layers = await waitUntil('all three layers encoding', async () => {
      const s = await sent(ann);
      return ['h', 'm', 'l'].every((rid) => (s[rid]?.framesEncoded ?? 0) > 24) ? s : undefined;
    }, { timeout: 60_000 });
    figures.chromiumCapture = ann.capture;
    figures.chromiumLayers = Object.fromEntries(Object.entries(layers).map(([rid, l]) => [rid, `${l.width}x${l.height} (${l.limitation})`]));
    const list = await server.participants(room);
    assert.deepEqual(list.map((p) => p.publisher).sort(), [true, true]);
  });

  it('receives every other participant through one subscriber connection each, renegotiated as publishers arrive', async () => {
    const [ann, bob] = people as [Person, Person];
    await subscribe(ann, [bob.feed]);
    await subscribe(bob, [ann.feed]);
    await decodes(ann, [bob.feed]);
    await decodes(bob, [ann.feed]);

    // A third person arrives: the two others add her to their one subscription (a renegotiation each).
    const joinedAt = Date.now();
    const cat = await publish('cat', await openPage(browser));
    const renegotiationStart = Date.now();
    await subscribe(ann, [cat.feed]);
    await subscribe(bob, [cat.feed]);
    figures.renegotiationMs = Date.now() - renegotiationStart;
    await subscribe(cat, [ann.feed, bob.feed]);
    const catFirst = await waitUntil('cat’s first remote frames', async () => {
      const r = await received(cat);
      return [ann.feed, bob.feed].every((f) => (r[videoMidOf(cat, f)]?.framesDecoded ?? 0) > 0) ? Date.now() : undefined;
    }, { timeout: 60_000, interval: 50 });
    figures.thirdPublishToFirstRemoteFramesMs = catFirst - joinedAt;

    const everyone = [ann, bob, cat];
    for (const viewer of everyone) {
      const others = everyone.filter((p) => p !== viewer).map((p) => p.feed);
      const r = await decodes(viewer, others);
      assert.equal(await viewer.page.evaluate(() => (window as any).spike.peerConnections()), 2, `${viewer.name}: one connection up, one down`);
      const audio = viewer.streams.filter((s) => s.type === 'audio' && others.includes(s.feed_id!));
      assert.equal(audio.length, 2, `${viewer.name} subscribes to two voices`);
      for (const s of audio) assert.ok((r[s.mid]?.packetsReceived ?? 0) > 0, `${viewer.name} hears feed ${s.feed_id}`);
    }
    figures.subscriberDefaultResolution = Object.fromEntries(Object.entries(await received(ann)).filter(([, v]) => v.kind === 'video').map(([mid, v]) => [mid, `${v.width}x${v.height}`]));
  });

  it('switches the layer a receiver gets per stream, without renegotiation', async () => {
    const [ann, bob] = people as [Person, Person];
    const mid = videoMidOf(ann, bob.feed);
    const costs: Record<string, unknown> = {};
    const switched: Array<{ substream: number; at: number }> = [];
    ann.sub!.on(VideoRoomPlugin.EVENT.VIDEOROOM_SC_SUBSTREAM_LAYER, (e: { sc_substream_layer: number }) => switched.push({ substream: e.sc_substream_layer, at: Date.now() }));
    // Back to back, as an active speaker changing would ask: Chromium ignores a keyframe request
    // that comes within about 300 ms of its last keyframe, and Janus asks only once per switch, so
    // a switch that Janus has not made after 700 ms gets one more keyframe request, through the
    // publisher's handle (which is Foyer's to use).
    const sequence = [0, 1, 2, 0, 2];
    for (const [step, substream] of sequence.entries()) {
      const before = (await received(ann))[mid]!;
      const sentBefore = await sent(bob);
      const askedAt = Date.now();
      await ann.sub!.configure({ streams: [{ mid, substream, temporal: 2 }] });
      const rid = ['l', 'm', 'h'][substream]!;
      let keyframeRequests = 0;
      let last = '';
      // The width to expect is the one Bob's browser sends on that layer now, not a fraction of the
      // capture: under CPU load Chromium scales every layer down.
      const after = await waitUntil(`bob's layer ${substream} (${rid}) at ann`, async () => {
        const now = (await received(ann))[mid]!;
        const layerWidth = (await sent(bob))[rid]?.width ?? Math.round(bob.capture.width / 2 ** (2 - substream));
        const confirmed = switched.some((e) => e.substream === substream && e.at >= askedAt);
        last = `decoding ${now.width} px, bob sends ${layerWidth} px on ${rid}, Janus ${confirmed ? 'switched' : 'not switched yet'}`;
        if (!confirmed && Date.now() - askedAt > 700 * (keyframeRequests + 1)) {
          keyframeRequests++;
          await bob.pub.configure({ keyframe: true });
        }
        // Within a few pixels: Chromium may crop odd sizes.
        return Math.abs(now.width - layerWidth) <= 16 ? now : undefined;
      }, { timeout: 30_000, interval: 50 }).catch((error: Error) => { throw new Error(`${error.message}; last: ${last}`); });
      const sentAfter = await sent(bob);
      costs[`${step + 1}: substream ${substream}`] = {
        ms: Date.now() - askedAt,
        extraKeyframeRequests: keyframeRequests,
        janusSwitchedMs: (switched.find((e) => e.substream === substream && e.at >= askedAt)?.at ?? NaN) - askedAt,
        size: `${after.width}x${after.height}`,
        keyFramesDecoded: after.keyFramesDecoded - before.keyFramesDecoded,
        freezes: after.freezeCount - before.freezeCount,
        publisherPlis: Object.fromEntries(Object.entries(sentAfter).map(([rid, l]) => [rid, l.pliCount - (sentBefore[rid]?.pliCount ?? 0)])),
        publisherKeyFrames: Object.fromEntries(Object.entries(sentAfter).map(([rid, l]) => [rid, l.keyFramesEncoded - (sentBefore[rid]?.keyFramesEncoded ?? 0)])),
      };
    }
    figures.layerSwitch = costs;
  });

  it('renegotiates by itself when a publisher leaves, and the others keep going', async () => {
    const [ann, bob, cat] = people as [Person, Person, Person];
    const annUpdated = nextEvent(ann.sub!, VideoRoomPlugin.EVENT.VIDEOROOM_UPDATED, 20_000);
    await cat.page.evaluate(() => (window as any).spike.leave());
    await cat.sub!.leave().catch(() => {});
    await cat.pub.leave();
    const [update] = (await annUpdated) as [{ streams?: VideoRoomStream[]; jsep?: unknown }];
    assert.ok(update.jsep, 'Janus sends a new offer without being asked');
    await waitUntil('cat’s m-lines inactive at ann', async () => {
      const t: Array<{ mid: string; direction: string | null }> = await ann.page.evaluate(() => (window as any).spike.transceivers());
      const catMids = ann.streams.filter((s) => s.feed_id === cat.feed).map((s) => s.mid);
      return catMids.length === 0 || t.filter((x) => catMids.includes(x.mid)).every((x) => x.direction === 'inactive') ? t : undefined;
    });
    figures.afterLeave = { annStreams: ann.streams.map((s) => `${s.mid}:${s.type}:${s.feed_id ?? '-'}:${s.active === false ? 'inactive' : 'active'}`) };
    people.splice(2, 1);
    await decodes(ann, [bob.feed]);
    await decodes(bob, [ann.feed]);
    assert.deepEqual(await ann.page.evaluate(() => (window as any).spike.states()), { publisher: 'connected', subscriber: 'connected' });
  });

  it('reports who is talking from the publishers’ audio levels', async () => {
    const ann = people[0]!;
    const events = () => talking.filter((t) => t.feed === ann.feed);
    const quietBefore = events().length;
    const startedAt = Date.now();
    await ann.page.evaluate(() => (window as any).spike.talk(true));
    const started = await waitUntil('ann talking', async () => events().slice(quietBefore).find((t) => t.talking), { timeout: 20_000, interval: 50 });
    await ann.page.evaluate(() => (window as any).spike.talk(false));
    const stoppedAt = Date.now();
    const stopped = await waitUntil('ann silent again', async () => events().slice(quietBefore).find((t) => !t.talking && t.at >= stoppedAt), { timeout: 20_000, interval: 50 });
    figures.talking = {
      eventsWhileSilent: quietBefore,
      talkingAfterMs: started.at - startedAt,
      stoppedAfterMs: stopped.at - stoppedAt,
      levelTalking: started.level,
      levelStopped: stopped.level,
      otherFeedsEvents: talking.filter((t) => t.feed !== ann.feed).length,
    };
  });
});

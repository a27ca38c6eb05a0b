/**
 * The receiving half of an SFU link (sessions/sfu-subscription.ts) against
 * a stand-in for Janus's subscriber handle: which feeds it asks for, and
 * what reaches the browser. The real Janus is in test/sfu.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import Janode from 'janode';
import type { JanusServer } from '../../src/sfu/janus-server.ts';
import { SfuSubscription, type SubscriptionLink } from '../../src/realtime/sessions/sfu-subscription.ts';
import { PUBLISH_AFTER_UP_MS, WANTS_AWAITED_AT_MOST_MS, WANTS_SETTLE_MS } from '../../src/realtime/sessions/sfu-large-join.ts';
import type { ServerMessage } from '../../src/realtime/protocol.ts';

/** A publisher as the room lists it: a microphone and a camera, and a screen when sharing (disabled once stopped). */
const publisher = (feed: number, display: string, screen?: 'on' | 'stopped') => ({
  feed,
  display,
  streams: [
    { type: 'audio', mid: '0' },
    { type: 'video', mid: '1' },
    ...(screen ? [{ type: 'video', mid: '2', description: 'screen', disabled: screen === 'stopped' }] : []),
  ],
});

const NO_SUCH_FEED = Object.assign(new Error('428 No such feed'), { _code: 428 });

type Spec = { feed: number; mid: string };

/**
 * A subscriber handle that knows which feeds still publish: asking for a gone one fails as Janus does, and
 * `failNext` fails the next request with another error. Each offer lists what the subscription carries.
 */
function fakeJanus(publishing: Set<number>) {
  const requests: Array<{ add: number[]; drop: string[] }> = [];
  const carried: Spec[] = [];
  let offers = 0;
  let failNext: Error | undefined;
  /** Fails every answer passed on (`start`) with this. */
  let startError: Error | undefined;
  const request = (add: Spec[] = [], drop: Spec[] = []) => {
    requests.push({ add: [...new Set(add.map((s) => s.feed))], drop: drop.map((s) => `${s.feed} ${s.mid}`) });
    const error = failNext ?? (add.some((s) => !publishing.has(s.feed)) ? NO_SUCH_FEED : undefined);
    failNext = undefined;
    if (error) return Promise.reject(error);
    for (const d of drop) carried.splice(carried.findIndex((c) => c.feed === d.feed && c.mid === d.mid), 1);
    carried.push(...add);
    offers += 1;
    return Promise.resolve({ streams: listed(), jsep: { type: 'offer', sdp: `v=0 offer ${offers}` } });
  };
  /** What Janus holds of each m-line as asked (`configure`), or as it resets it: relayed, at the highest layer. */
  const held = new Map<string, { send: boolean; substream?: number }>();
  /** The subscription's streams as Janus lists them in an offer (`displays`: publishers it names). */
  const listed = (displays = new Map<number, string>()) =>
    carried.map((c, i) => {
      const state = held.get(String(i)) ?? { send: true, substream: 2 };
      return { type: c.mid === '0' ? 'audio' : 'video', mid: String(i), feed_id: c.feed, feed_mid: c.mid, feed_display: displays.get(c.feed), feed_description: c.mid === '2' ? 'screen' : undefined, active: true, send: state.send, ...(c.mid === '1' ? { simulcast: { 'substream-target': state.substream ?? 2 } } : {}) };
    });
  const trickled: unknown[] = [];
  /** Each configure request's streams; one naming `refusedMid` fails whole, as Janus refuses an m-line it no longer has. */
  const configures: Array<Array<{ mid: string; send: boolean; substream?: number }>> = [];
  let refusedMid: string | undefined;
  /** The browser's answers passed on. */
  let answers = 0;
  /** What the subscription listens to on its handle: Janus offering again by itself, its connection up or failed (once). */
  const listeners: Array<(e: unknown) => void> = [];
  const upListeners: Array<() => void> = [];
  const failedListeners: Array<() => void> = [];
  const hangUpListeners: Array<() => void> = [];
  const handle = {
    streams: [],
    on: (_event: string, fn: (e: unknown) => void) => void listeners.push(fn),
    once: (event: string, fn: () => void) => {
      if (event === Janode.EVENT.HANDLE_WEBRTCUP) upListeners.push(fn);
      if (event === Janode.EVENT.HANDLE_ICE_FAILED) failedListeners.push(fn);
      if (event === Janode.EVENT.HANDLE_HANGUP) hangUpListeners.push(fn);
    },
    trickle: (candidate: unknown) => Promise.resolve(void trickled.push(candidate)),
    detach: () => Promise.resolve(),
    joinSubscriber: ({ streams }: { streams: Spec[] }) => request(streams),
    update: ({ subscribe, unsubscribe }: { subscribe?: Spec[]; unsubscribe?: Spec[] }) => request(subscribe, unsubscribe),
    start: () => (startError ? Promise.reject(startError) : Promise.resolve(void (answers += 1))),
    configure: ({ streams }: { streams: Array<{ mid: string; send: boolean; substream?: number }> }) => {
      configures.push(streams);
      if (streams.some((s) => s.mid === refusedMid)) return Promise.reject(new Error('No such mid'));
      for (const spec of streams) held.set(spec.mid, { send: spec.send, substream: spec.substream ?? held.get(spec.mid)?.substream });
      return Promise.resolve({});
    },
  };
  const server = { attach: () => Promise.resolve(handle) } as unknown as JanusServer;
  /** Janus offers again by itself (a publisher left), as the subscription carries now (`displays`: publishers it names). */
  const offerAgain = (displays = new Map<number, string>()) => {
    offers += 1;
    for (const fn of listeners) fn({ streams: listed(displays), jsep: { type: 'offer', sdp: `v=0 offer ${offers}` } });
  };
  /** Janus gives m-line `mid` to a stream anew: relayed again, at the highest layer. */
  const reset = (mid: string) => held.delete(mid);
  /** Janus reports the subscription's connection up (webrtcup). */
  const up = () => {
    for (const fn of upListeners.splice(0)) fn();
  };
  /** Janus reports that the subscription's connection failed (ICE). */
  const iceFailed = () => {
    for (const fn of failedListeners.splice(0)) fn();
  };
  /** Janus reports that the subscription's connection was closed (hang-up). */
  const hangUp = () => {
    for (const fn of hangUpListeners.splice(0)) fn();
  };
  return { server, requests, carried, trickled, configures, offerAgain, reset, up, iceFailed, hangUp, answers: () => answers, refuse: (mid: string) => (refusedMid = mid), failNext: (error: Error) => (failNext = error), failStart: (error: Error) => (startError = error) };
}

function link(server: JanusServer, wants = new Map<string, 'high' | 'low' | 'off'>(), videoSlots = 9) {
  const sent: ServerMessage[] = [];
  let chain = Promise.resolve();
  const failures: unknown[] = [];
  const value: SubscriptionLink & { idle(): Promise<void> } = {
    server,
    room: 1,
    send: (m) => sent.push(m),
    run: (_what, step) => {
      chain = chain.then(step).catch((error) => void failures.push(error));
    },
    current: () => true,
    wants,
    videoSlots,
    async idle() {
      for (let before; before !== chain; ) {
        before = chain;
        await chain;
      }
    },
  };
  return { value, sent, failures };
}

/** Eight others (feeds 11 to 18, named p11 to p18), the last talking. */
const eightOthers = () => [11, 12, 13, 14, 15, 16, 17, 18].map((f) => ({ ...publisher(f, `p${f}`), ...(f === 18 ? { talking: true } : {}) }));
const feedsOf = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

/**
 * A first subscription to the eight others, `publishing` the feeds Janus knows, with `videoSlots` and `wants`. With
 * no wants and `t`'s fake timers, past the wait for them: the page never said.
 */
async function joiningEight(publishing: number[], videoSlots: number, wants = new Map<string, 'high' | 'low' | 'off'>(), t?: TestContext) {
  const janus = fakeJanus(new Set(publishing));
  const { value, sent } = link(janus.server, wants, videoSlots);
  const subscription = new SfuSubscription(value, () => 10);
  subscription.publishers(eightOthers() as never);
  await value.idle();
  if (t && wants.size === 0) {
    t.mock.timers.tick(WANTS_AWAITED_AT_MOST_MS);
    await value.idle();
  }
  return { janus, value, sent, subscription };
}

/** A subscription to Ann (feed 11) and Bob (feed 12) with `wants`, its first offer answered and its layers set. */
async function answeredFirst(janus: ReturnType<typeof fakeJanus>, wants: Map<string, 'high' | 'low' | 'off'>) {
  const { value } = link(janus.server, wants);
  const subscription = new SfuSubscription(value, () => 10);
  subscription.publishers([publisher(11, 'ann'), publisher(12, 'bob')] as never);
  await value.idle();
  await subscription.answered('v=0 answer', undefined);
  await value.idle();
  return { value, subscription };
}

describe('SFU subscription', () => {
  const lastStreams = (sent: ServerMessage[]) => (sent.filter((m) => m.type === 'sfu').at(-1) as unknown as { streams: Array<{ from: string; kind: string; source?: string }> }).streams;
  const whoIsCarried = (sent: ServerMessage[]) => [...new Set(lastStreams(sent).map((s) => s.from))];

  it('subscribes to every publisher in one request, and offers the browser what each m-line carries', async () => {
    const janus = fakeJanus(new Set([11, 12]));
    const { value, sent } = link(janus.server);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(10, 'me'), publisher(11, 'ann'), publisher(12, 'bob')] as never);
    await value.idle();
    assert.deepEqual(janus.requests.map((r) => r.add), [[11, 12]]);
    assert.deepEqual(whoIsCarried(sent), ['ann', 'bob']);
    assert.equal(sent.filter((m) => m.type === 'offer').length, 1);
    subscription.stop();
  });

  it('passes Janus one answer per offer, and none beyond: a page that keeps answering costs Janus nothing', async () => {
    const janus = fakeJanus(new Set([11, 12]));
    const { value, sent } = link(janus.server);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(11, 'ann')] as never);
    await value.idle();
    const session = (sent.find((m) => m.type === 'offer') as { session?: string }).session;
    for (let i = 0; i < 5; i++) await subscription.answered('v=0 answer', session);
    assert.equal(janus.answers(), 1);
    // Bob arrives: the new offer takes its one answer.
    subscription.publishers([publisher(12, 'bob')] as never);
    await value.idle();
    assert.equal(sent.filter((m) => m.type === 'offer').length, 2);
    for (let i = 0; i < 5; i++) await subscription.answered('v=0 answer', session);
    assert.equal(janus.answers(), 2);
    subscription.stop();
  });

  it('passes Janus the answer to its newer offer after one to an offer it replaced meanwhile', async () => {
    const janus = fakeJanus(new Set([11]));
    const { value, sent } = link(janus.server);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(11, 'ann')] as never);
    await value.idle();
    // Janus offers again before the browser's answer to the first offer arrives: the browser answers both, in order.
    janus.offerAgain();
    assert.equal(sent.filter((m) => m.type === 'offer').length, 2);
    const session = (sent.find((m) => m.type === 'offer') as { session?: string }).session;
    await subscription.answered('v=0 answer 1', session);
    await subscription.answered('v=0 answer 2', session);
    assert.equal(janus.answers(), 2);
    subscription.stop();
  });

  it('still starts the subscription with the others when one of several publishers has just gone', async () => {
    // Bob's browser started its connections over: his old feed is gone from Janus before the room says so.
    const janus = fakeJanus(new Set([11]));
    const { value, sent } = link(janus.server);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(11, 'ann'), publisher(12, 'bob')] as never);
    await value.idle();
    // Ann alone next; Bob's old feed is not asked for again while the browser holds the offer.
    assert.deepEqual(janus.requests.map((r) => r.add), [[11, 12], [11]]);
    assert.ok(sent.some((m) => m.type === 'offer'), 'the browser is offered a subscription carrying Ann');
    assert.deepEqual(whoIsCarried(sent), ['ann']);
    subscription.stop();
  });

  it('adds a newcomer after the answer even when another feed of the same batch has gone', async () => {
    const janus = fakeJanus(new Set([11, 13]));
    const { value, sent } = link(janus.server);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(11, 'ann')] as never);
    await value.idle();
    subscription.publishers([publisher(12, 'bob'), publisher(13, 'cat')] as never);
    await value.idle();
    assert.deepEqual(janus.requests.map((r) => r.add), [[11]], 'nothing asked while the browser holds an offer');
    await subscription.answered('v=0 answer', undefined);
    await value.idle();
    assert.deepEqual(janus.requests.map((r) => r.add), [[11], [12, 13], [12], [13]]);
    assert.deepEqual(whoIsCarried(sent), ['ann', 'cat']);
    subscription.stop();
  });

  it('takes a screen in when its publisher shares and lets it go when sharing stops, the camera staying', async () => {
    const janus = fakeJanus(new Set([11]));
    const { value, sent } = link(janus.server);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(11, 'ann')] as never);
    await value.idle();
    await subscription.answered('v=0 answer', undefined);
    subscription.publishers([publisher(11, 'ann', 'on')] as never);
    await value.idle();
    assert.deepEqual(lastStreams(sent).filter((s) => s.kind === 'video').map((s) => s.source), ['camera', 'screen']);
    await subscription.answered('v=0 answer', undefined);
    subscription.publishers([publisher(11, 'ann', 'stopped')] as never);
    await value.idle();
    assert.deepEqual(janus.requests.at(-1), { add: [], drop: ['11 2'] });
    assert.deepEqual(lastStreams(sent).filter((s) => s.kind === 'video').map((s) => s.source), ['camera']);
    subscription.stop();
  });

  it('passes the browser’s trickled candidates on to its subscriber handle, and drops those of another subscription', async () => {
    const janus = fakeJanus(new Set([11]));
    const { value, sent } = link(janus.server);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(11, 'ann')] as never);
    await value.idle();
    const session = (sent.find((m) => m.type === 'offer') as { session?: string }).session;
    assert.ok(session, 'the offer names its subscription');
    const candidate = { candidate: 'candidate:1 1 udp 2122260223 192.0.2.2 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    await subscription.trickle(candidate, session);
    await subscription.trickle({ ...candidate, sdpMid: '1' }, 'a-subscription-replaced-since');
    await subscription.trickle(null, session);
    assert.deepEqual(janus.trickled, [candidate, null]);
    subscription.stop();
  });

  it('keeps a publisher it failed to add for another reason than a feed gone, to ask again', async () => {
    const janus = fakeJanus(new Set([11, 12]));
    const { value, failures } = link(janus.server);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(11, 'ann')] as never);
    await value.idle();
    await subscription.answered('v=0 answer', undefined);
    janus.failNext(Object.assign(new Error('500 Janus busy'), { _code: 500 }));
    subscription.publishers([publisher(12, 'bob')] as never);
    await value.idle();
    assert.equal(failures.length, 1);
    assert.equal(subscription.participantOf(12), 'bob', 'Bob is still known');
    subscription.publishers([] as never);
    await value.idle();
    assert.deepEqual(janus.requests.at(-1)?.add, [12], 'and asked for again at the next change');
    subscription.stop();
  });

  it('sets each video’s layer and pause in one request as soon as it offers, before the browser answers', async () => {
    const janus = fakeJanus(new Set([11, 12, 13]));
    // One video slot: Ann's thumbnail at the low layer; Bob's and Cat's wants came earlier, so theirs wait paused.
    const { value } = link(janus.server, new Map([['bob', 'low'], ['cat', 'off'], ['ann', 'low']]), 1);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(11, 'ann'), publisher(12, 'bob'), publisher(13, 'cat')] as never);
    await value.idle();
    assert.equal(janus.configures.length, 1, 'one request, with no answer yet');
    assert.deepEqual(janus.configures[0], [
      { mid: '1', send: true, substream: 0 },
      { mid: '3', send: false },
      { mid: '5', send: false },
    ]);
    await subscription.answered('v=0 answer', undefined);
    await value.idle();
    assert.equal(janus.configures.length, 1, 'nothing asked again once answered: nothing changed');
    subscription.stop();
  });

  it('asks Janus for the other layer when a tile wants more of a video it already receives, and for nothing else', async () => {
    const janus = fakeJanus(new Set([11, 12]));
    const wants = new Map<string, 'high' | 'low' | 'off'>([['ann', 'low'], ['bob', 'low']]);
    const { subscription } = await answeredFirst(janus, wants);
    // Ann is pinned: her tile fills the stage.
    wants.set('ann', 'high');
    await subscription.applyWants();
    assert.deepEqual(janus.configures.slice(1), [[{ mid: '1', send: true, substream: 2 }]]);
    subscription.stop();
  });

  it('asks Janus nothing again for the m-lines that still carry the same streams when a newcomer is added', async () => {
    const janus = fakeJanus(new Set([11, 12, 13]));
    const { value, subscription } = await answeredFirst(janus, new Map([['ann', 'low'], ['bob', 'low']]));
    assert.equal(janus.configures.length, 1);
    // Cat arrives: the new offer adds her m-lines; Ann's and Bob's stay as they were.
    subscription.publishers([publisher(13, 'cat')] as never);
    await value.idle();
    assert.equal(janus.requests.length, 2);
    assert.deepEqual(janus.configures.slice(1), [[{ mid: '5', send: true, substream: 2 }]]);
    subscription.stop();
  });

  it('asks Janus again for an m-line it reuses for another publisher’s stream, though the layer is the same', async () => {
    const janus = fakeJanus(new Set([11, 12, 13]));
    const { value, subscription } = await answeredFirst(janus, new Map([['ann', 'low'], ['bob', 'low'], ['cat', 'low']]));
    assert.deepEqual(janus.configures, [[{ mid: '1', send: true, substream: 0 }, { mid: '3', send: true, substream: 0 }]]);
    // Bob left and Cat came; Janus put her streams in the m-lines that were Bob's and offered again by itself.
    subscription.gone(12);
    janus.carried.splice(2, 2, { feed: 13, mid: '0' }, { feed: 13, mid: '1' });
    janus.offerAgain(new Map([[13, 'cat']]));
    await value.idle();
    assert.deepEqual(janus.configures.slice(1), [[{ mid: '3', send: true, substream: 0 }]]);
    subscription.stop();
  });

  it('asks Janus again for an m-line whose layer or pause it reports otherwise than asked', async () => {
    const janus = fakeJanus(new Set([11, 12]));
    const { value, subscription } = await answeredFirst(janus, new Map([['ann', 'low'], ['bob', 'off']]));
    assert.deepEqual(janus.configures, [[{ mid: '1', send: true, substream: 0 }, { mid: '3', send: false }]]);
    // Both m-lines were freed and taken again by the same streams between two offers: Janus relays them whole again.
    janus.reset('1');
    janus.reset('3');
    janus.offerAgain();
    await value.idle();
    assert.deepEqual(janus.configures.slice(1), [[{ mid: '1', send: true, substream: 0 }, { mid: '3', send: false }]]);
    subscription.stop();
  });

  it('asks for each m-line on its own when Janus refuses the whole request, so a gone one holds up none of the others', async () => {
    const janus = fakeJanus(new Set([11, 12]));
    const { value } = link(janus.server, new Map([['ann', 'low'], ['bob', 'low']]));
    const subscription = new SfuSubscription(value, () => 10);
    janus.refuse('1');
    subscription.publishers([publisher(11, 'ann'), publisher(12, 'bob')] as never);
    await value.idle();
    assert.deepEqual(janus.configures.map((streams) => streams.map((s) => s.mid)), [['1', '3'], ['1'], ['3']]);
    // Bob's was set; Ann's, refused, is asked for again at the next chance.
    await subscription.applyWants();
    assert.deepEqual(janus.configures.at(-1)?.map((s) => s.mid), ['1']);
    subscription.stop();
  });

  describe('joining a meeting of more people than the page shows videos of', () => {
    it('takes as many as it shows videos of first (six at least), then those talking, and the rest once its connection is up', async (t) => {
      t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      // Two video slots: the page shows p16's and p17's videos, none of p11 to p15, and said nothing of p18 (talking).
      const wants = new Map<string, 'high' | 'low' | 'off'>([...feedsOf(11, 15).map((f) => [`p${f}`, 'off'] as const), ['p16', 'low'], ['p17', 'high']]);
      const { janus, value, sent, subscription } = await joiningEight(feedsOf(11, 18), 2, wants);
      assert.deepEqual(janus.requests.map((r) => r.add), [[11, 12, 13, 16, 17, 18]]);
      assert.deepEqual(whoIsCarried(sent), ['p11', 'p12', 'p13', 'p16', 'p17', 'p18']);
      assert.deepEqual(
        janus.configures[0]!.filter((c) => c.send).map((c) => janus.carried[Number(c.mid)]!.feed),
        [16, 17, 18],
        'the videos shown are relayed at once (and the one nobody asked about yet)',
      );
      await subscription.answered('v=0 answer', undefined);
      await value.idle();
      assert.equal(janus.requests.length, 1, 'nothing more asked before the connection is up');
      janus.up();
      t.mock.timers.tick(499);
      await value.idle();
      assert.equal(janus.requests.length, 1);
      t.mock.timers.tick(1);
      await value.idle();
      assert.deepEqual(janus.requests.map((r) => r.add), [[11, 12, 13, 16, 17, 18], [14, 15]]);
      assert.deepEqual(whoIsCarried(sent), ['p11', 'p12', 'p13', 'p16', 'p17', 'p18', 'p14', 'p15']);
      subscription.stop();
    });

    it('waits a moment for the page to say which videos it shows, and takes those first', async (t) => {
      t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      const wants = new Map<string, 'high' | 'low' | 'off'>();
      const { janus, value, subscription } = await joiningEight(feedsOf(11, 18), 2, wants);
      assert.equal(janus.requests.length, 0, 'nothing asked before the page said');
      // The page lays out its tiles: p16's and p17's videos shown, the others not; its wants come one by one, the last
      // a little after the first.
      const say = (from: string, video: 'low' | 'off') => {
        wants.set(from, video);
        subscription.wanted();
      };
      for (const f of [...feedsOf(11, 15), 18]) say(`p${f}`, 'off');
      t.mock.timers.tick(WANTS_SETTLE_MS / 2);
      await value.idle();
      say('p16', 'low');
      say('p17', 'low');
      t.mock.timers.tick(WANTS_SETTLE_MS / 2 - 1);
      await value.idle();
      assert.equal(janus.requests.length, 0);
      t.mock.timers.tick(1);
      await value.idle();
      assert.deepEqual(janus.requests.map((r) => r.add), [[11, 12, 13, 16, 17, 18]], 'the two shown, the one talking, then the room’s order');
      subscription.stop();
    });

    it('asks Janus for nothing when it stops while waiting for the page’s wants', async (t) => {
      t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      const { janus, value, subscription } = await joiningEight(feedsOf(11, 18), 2);
      subscription.stop();
      t.mock.timers.tick(WANTS_AWAITED_AT_MOST_MS);
      await value.idle();
      assert.equal(janus.requests.length, 0);
    });

    it('takes its first feeds without the page’s wants when they do not come in time', async (t) => {
      t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      const { janus, value, subscription } = await joiningEight(feedsOf(11, 18), 2);
      t.mock.timers.tick(WANTS_AWAITED_AT_MOST_MS - 1);
      await value.idle();
      assert.equal(janus.requests.length, 0);
      t.mock.timers.tick(1);
      await value.idle();
      assert.deepEqual(janus.requests.map((r) => r.add), [[11, 12, 13, 14, 15, 18]]);
      subscription.stop();
    });

    it('takes the rest a few seconds after its answer at the latest, when Janus never reports the connection up', async (t) => {
      t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      const { janus, value, subscription } = await joiningEight(feedsOf(11, 19), 2, undefined, t);
      await subscription.answered('v=0 answer', undefined);
      // Someone arriving meanwhile waits with the rest.
      subscription.publishers([publisher(19, 'p19')] as never);
      t.mock.timers.tick(2999);
      await value.idle();
      assert.equal(janus.requests.length, 1);
      t.mock.timers.tick(1);
      await value.idle();
      assert.deepEqual(janus.requests.map((r) => r.add), [[11, 12, 13, 14, 15, 18], [16, 17, 19]]);
      subscription.stop();
    });

    it('takes the rest all the same when Janus refuses the first answer', async (t) => {
      t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      const { janus, value, subscription } = await joiningEight(feedsOf(11, 18), 2, undefined, t);
      janus.failStart(new Error('500 Janus could not take the answer'));
      await assert.rejects(subscription.answered('v=0 answer', undefined));
      t.mock.timers.tick(3000);
      await value.idle();
      assert.deepEqual(janus.requests.map((r) => r.add), [[11, 12, 13, 14, 15, 18], [16, 17]]);
      subscription.stop();
    });

    /** Whether the subscription lets its link publish yet (`firstUp`), once what is due has run. */
    const letsPublish = async (subscription: SfuSubscription, value: { idle(): Promise<void> }) => {
      let resolved = false;
      void subscription.firstUp.then(() => (resolved = true));
      await value.idle();
      await new Promise((resolve) => setImmediate(resolve));
      return resolved;
    };

    it('lets its link publish a moment after its connection is up, not when its answer is with Janus', async (t) => {
      t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      const { janus, value, subscription } = await joiningEight(feedsOf(11, 18), 2, undefined, t);
      await subscription.answered('v=0 answer', undefined);
      assert.equal(await letsPublish(subscription, value), false, 'answered, not yet up');
      janus.up();
      t.mock.timers.tick(PUBLISH_AFTER_UP_MS - 1);
      assert.equal(await letsPublish(subscription, value), false);
      t.mock.timers.tick(1);
      assert.equal(await letsPublish(subscription, value), true);
      subscription.stop();
    });

    it('lets its link publish at once when its connection fails or hangs up, Janus refuses its answer, or it stops', async (t) => {
      t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
      const failed = await joiningEight(feedsOf(11, 18), 2, undefined, t);
      await failed.subscription.answered('v=0 answer', undefined);
      assert.equal(await letsPublish(failed.subscription, failed.value), false);
      failed.janus.iceFailed();
      assert.equal(await letsPublish(failed.subscription, failed.value), true, 'connection failed');
      failed.subscription.stop();

      const hungUp = await joiningEight(feedsOf(11, 18), 2, undefined, t);
      await hungUp.subscription.answered('v=0 answer', undefined);
      assert.equal(await letsPublish(hungUp.subscription, hungUp.value), false);
      hungUp.janus.hangUp();
      assert.equal(await letsPublish(hungUp.subscription, hungUp.value), true, 'hung up');
      hungUp.subscription.stop();

      const refused = await joiningEight(feedsOf(11, 18), 2, undefined, t);
      refused.janus.failStart(new Error('500 Janus could not take the answer'));
      await assert.rejects(refused.subscription.answered('v=0 answer', undefined));
      assert.equal(await letsPublish(refused.subscription, refused.value), true, 'answer refused');
      refused.subscription.stop();

      const stopped = await joiningEight(feedsOf(11, 18), 2, undefined, t);
      assert.equal(await letsPublish(stopped.subscription, stopped.value), false);
      stopped.subscription.stop();
      assert.equal(await letsPublish(stopped.subscription, stopped.value), true, 'stopped');
    });

    it('lets its link publish at once where it takes everyone at first', async () => {
      const { value, subscription } = await joiningEight(feedsOf(11, 18), 8);
      assert.equal(await letsPublish(subscription, value), true);
      subscription.stop();
    });

    it('takes everyone at once where the page shows videos of all', async () => {
      const { janus, value, subscription } = await joiningEight(feedsOf(11, 18), 8);
      assert.deepEqual(janus.requests.map((r) => r.add), [feedsOf(11, 18)]);
      await subscription.answered('v=0 answer', undefined);
      await value.idle();
      assert.equal(janus.requests.length, 1);
      subscription.stop();
    });
  });
});

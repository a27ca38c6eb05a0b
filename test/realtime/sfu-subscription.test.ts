/**
 * The receiving half of an SFU link (sessions/sfu-subscription.ts) against
 * a stand-in for Janus's subscriber handle: which feeds it asks for, and
 * what reaches the browser. The real Janus is in test/sfu.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JanusServer } from '../../src/sfu/janus-server.ts';
import { SfuSubscription, type SubscriptionLink } from '../../src/realtime/sessions/sfu-subscription.ts';
import type { ServerMessage } from '../../src/realtime/protocol.ts';

/** A publisher as the room lists it: a microphone and a camera. */
const publisher = (feed: number, display: string) => ({ feed, display, streams: [{ type: 'audio', mid: '0' }, { type: 'video', mid: '1' }] });

const NO_SUCH_FEED = Object.assign(new Error('428 No such feed'), { _code: 428 });

/** A subscriber handle that knows which feeds still publish: asking for a gone one fails as Janus does. */
function fakeJanus(publishing: Set<number>) {
  const requests: number[][] = [];
  let offers = 0;
  const answer = (feeds: number[]) => {
    requests.push(feeds);
    if (feeds.some((f) => !publishing.has(f))) return Promise.reject(NO_SUCH_FEED);
    offers += 1;
    const streams = feeds.flatMap((f) => [
      { type: 'audio', mid: `a${f}`, feed_id: f, active: true },
      { type: 'video', mid: `v${f}`, feed_id: f, active: true },
    ]);
    return Promise.resolve({ streams, jsep: { type: 'offer', sdp: `v=0 offer ${offers}` } });
  };
  const handle = {
    streams: [],
    on() {},
    detach: () => Promise.resolve(),
    joinSubscriber: ({ streams }: { streams: Array<{ feed: number }> }) => answer([...new Set(streams.map((s) => s.feed))]),
    update: ({ subscribe }: { subscribe: Array<{ feed: number }> }) => answer([...new Set(subscribe.map((s) => s.feed))]),
    start: () => Promise.resolve({}),
    configure: () => Promise.resolve({}),
  };
  const server = { attach: () => Promise.resolve(handle) } as unknown as JanusServer;
  return { server, requests };
}

function link(server: JanusServer) {
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
    wants: new Map(),
    videoSlots: 9,
    async idle() {
      for (let before; before !== chain; ) {
        before = chain;
        await chain;
      }
    },
  };
  return { value, sent, failures };
}

describe('SFU subscription', () => {
  it('subscribes to every publisher in one request, and offers the browser what each m-line carries', async () => {
    const janus = fakeJanus(new Set([11, 12]));
    const { value, sent } = link(janus.server);
    const subscription = new SfuSubscription(value, () => 10);
    subscription.publishers([publisher(10, 'me'), publisher(11, 'ann'), publisher(12, 'bob')] as never);
    await value.idle();
    assert.deepEqual(janus.requests, [[11, 12]]);
    const streams = sent.find((m) => m.type === 'sfu') as { streams: Array<{ from: string }> };
    assert.deepEqual([...new Set(streams.streams.map((s) => s.from))], ['ann', 'bob']);
    assert.equal(sent.filter((m) => m.type === 'offer').length, 1);
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
    assert.deepEqual(janus.requests, [[11, 12], [11]]);
    const offer = sent.find((m) => m.type === 'offer');
    assert.ok(offer, 'the browser is offered a subscription carrying Ann');
    const streams = sent.find((m) => m.type === 'sfu') as { streams: Array<{ from: string }> };
    assert.deepEqual([...new Set(streams.streams.map((s) => s.from))], ['ann']);
    subscription.stop();
  });
});

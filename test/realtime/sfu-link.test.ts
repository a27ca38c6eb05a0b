/**
 * A participant's SFU link (sessions/sfu-link.ts) against a stand-in for
 * Janus: the candidates its browser trickles reach the handle of the
 * connection they name, after the description they belong to, and none
 * reaches a connection the link no longer holds. The real Janus is in
 * test/sfu.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it, mock } from 'node:test';
import Janode from 'janode';
import type { JanusServer } from '../../src/sfu/janus-server.ts';
import { SfuLink } from '../../src/realtime/sessions/sfu-link.ts';
import { SFU_OFFER_RATE } from '../../src/realtime/sessions/sfu-steps.ts';
import { PUBLISH_AFTER_UP_MS, WANTS_SETTLE_MS } from '../../src/realtime/sessions/sfu-large-join.ts';
import type { IceCandidate, ServerMessage } from '../../src/realtime/protocol.ts';
import type { SfuRouting } from '../../src/realtime/session.ts';

const offerOf = (session: string) => `v=0\r\no=- ${session} 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:0\r\n`;
const candidate = (mid: string): IceCandidate => ({ candidate: `candidate:1 1 udp 2122260223 192.0.2.2 5000${mid} typ host`, sdpMid: mid, sdpMLineIndex: Number(mid), usernameFragment: 'frag' });

/**
 * Janus as far as a publishing link needs it: each attach is a new publisher handle that notes what it was sent, and
 * keeps what waits for its connection to be up (`up` reports it).
 */
function fakeJanus(publishers: unknown[] = []) {
  const handles: Array<{ steps: string[]; trickled: unknown[]; up: () => void; subscribed?: number[] }> = [];
  const server = Object.assign(new EventEmitter(), {
    up: true,
    label: 'fake',
    attach: async () => {
      const waiting: Array<() => void> = [];
      const noted = { steps: [] as string[], trickled: [] as unknown[], up: () => waiting.splice(0).forEach((fn) => fn()), subscribed: undefined as number[] | undefined };
      handles.push(noted);
      return {
        on() {},
        once(event: string, fn: () => void) {
          if (event === Janode.EVENT.HANDLE_WEBRTCUP) waiting.push(fn);
        },
        joinConfigurePublisher: async () => {
          noted.steps.push('join');
          return { feed: 7, publishers, jsep: { type: 'answer', sdp: 'v=0 answer' } };
        },
        joinPublisher: async () => {
          noted.steps.push('join ahead');
          return { feed: 7, publishers };
        },
        publish: async () => {
          noted.steps.push('publish');
          return { jsep: { type: 'answer', sdp: 'v=0 answer' } };
        },
        joinSubscriber: async ({ streams: asked }: { streams: Array<{ feed: number }> }) => {
          noted.steps.push('subscribe');
          noted.subscribed = [...new Set(asked.map((s) => s.feed))];
          const streams = [{ mid: '0', type: 'audio', feed_id: 9, feed_display: 'c_bob' }];
          return { streams, jsep: { type: 'offer', sdp: `v=0 subscription offer ${handles.length}` } };
        },
        configure: async () => void noted.steps.push('configure'),
        start: async () => void noted.steps.push('start'),
        trickle: async (c: unknown) => {
          noted.steps.push('trickle');
          noted.trickled.push(c);
        },
        detach: async () => void noted.steps.push('detach'),
      };
    },
  });
  return { server: server as unknown as JanusServer, handles };
}

function linkOn(server: JanusServer) {
  const sent: ServerMessage[] = [];
  let last: Promise<unknown> = Promise.resolve();
  const routing = { fromParticipants: 3, videoSlots: 9, roomFor: async () => ({ server, room: 1 }), isPlaced: async () => true } as unknown as SfuRouting;
  const warnings: string[] = [];
  const link = new SfuLink(
    { id: 'c_ann', place: { kind: 'meeting', id: 'm1' }, send: (m) => sent.push(m), track: (p) => (last = p) },
    routing,
    { warn: (_o, message) => void warnings.push(message), error: () => {} },
  );
  // Until the link's last step, and any step it queued meanwhile, is done.
  const idle = async (): Promise<void> => {
    for (let seen: Promise<unknown> | undefined; seen !== last; ) {
      seen = last;
      await seen;
    }
  };
  return { link, sent, warnings, idle };
}

/** Polls `check` (the link's recovery runs on timers of its own). */
async function until(check: () => boolean, ms = 3000): Promise<void> {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('SFU link', () => {
  it('passes the publishing connection’s trickled candidates to its handle after the offer, the end as well', async () => {
    const janus = fakeJanus();
    const { link, sent, warnings, idle } = linkOn(janus.server);
    link.offer(offerOf('111'));
    // Sent right behind the offer: Janus must have the offer first.
    link.ice(candidate('0'), '111');
    link.ice(null, '111');
    await idle();
    assert.deepEqual(janus.handles[0]!.steps, ['join', 'trickle', 'trickle']);
    assert.deepEqual(janus.handles[0]!.trickled, [{ candidate: candidate('0').candidate, sdpMid: '0', sdpMLineIndex: 0 }, null]);
    assert.ok(sent.some((m) => m.type === 'answer'), 'Janus’s answer went to the browser');
    assert.deepEqual(warnings, []);
  });

  it('drops candidates of a connection it no longer holds, of none named, and those naming no m-line', async () => {
    const janus = fakeJanus();
    const { link, idle } = linkOn(janus.server);
    link.offer(offerOf('111'));
    await idle();
    // The browser started over on a new connection: the old one's late candidates go nowhere.
    link.offer(offerOf('222'));
    link.ice(candidate('0'), '111');
    link.ice(candidate('1'), undefined);
    link.ice({ ...candidate('0'), sdpMid: null, sdpMLineIndex: null }, '222');
    link.ice(candidate('0'), '222');
    await idle();
    assert.equal(janus.handles.length, 2);
    assert.deepEqual(janus.handles[0]!.trickled, [], 'nothing for the old connection');
    assert.deepEqual(janus.handles[1]!.trickled, [{ candidate: candidate('0').candidate, sdpMid: '0', sdpMLineIndex: 0 }]);
  });

  it('passes nothing on once the participant left', async () => {
    const janus = fakeJanus();
    const { link, idle } = linkOn(janus.server);
    link.offer(offerOf('111'));
    await idle();
    await link.close();
    link.ice(candidate('0'), '111');
    await idle();
    assert.deepEqual(janus.handles[0]!.trickled, []);
  });

  it('holds a page that keeps offering new connections to a few at once, then one at the offer rate, the newest each time', async (t) => {
    t.after(() => mock.timers.reset());
    mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const janus = fakeJanus();
    const { link, sent, idle } = linkOn(janus.server);
    const joins = () => janus.handles.filter((h) => h.steps.includes('join')).length;
    const answered = () => sent.filter((m) => m.type === 'answer').map((m) => (m as { session?: string }).session);
    for (let i = 1; i <= SFU_OFFER_RATE.burst; i++) {
      link.offer(offerOf(String(i)));
      await idle();
    }
    assert.equal(joins(), SFU_OFFER_RATE.burst, 'the burst went through at once');
    // One more: it waits for a token, and is overtaken by the next while it waits.
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    link.offer(offerOf('7'));
    await settled();
    link.offer(offerOf('8'));
    link.ice(candidate('0'), '8');
    await settled();
    mock.timers.tick(SFU_OFFER_RATE.everyMs - 1);
    await settled();
    assert.equal(joins(), SFU_OFFER_RATE.burst, 'nothing more before a token');
    mock.timers.tick(1);
    await idle();
    assert.equal(joins(), SFU_OFFER_RATE.burst + 1);
    assert.deepEqual(answered().slice(SFU_OFFER_RATE.burst), ['8'], 'the newest offer published, the older skipped');
    assert.deepEqual(janus.handles.at(-1)!.steps, ['join', 'trickle'], 'its candidate came after it');
    // Leaving while an offer waits: the participant's feed goes at once, not once the wait is over.
    link.offer(offerOf('9'));
    await settled();
    const left = link.close();
    await settled();
    await left;
    assert.deepEqual(janus.handles.at(-1)!.steps, ['join', 'trickle', 'detach']);
    assert.equal(joins(), SFU_OFFER_RATE.burst + 1, 'the waiting offer was not published');
  });

  describe('joined ahead of the page’s first offer (prepare)', () => {
    const bob = [{ feed: 9, display: 'c_bob', streams: [{ type: 'audio', mid: '0' }] }];

    it('offers the subscription before the page publishes, and publishes the first offer on the same handle', async () => {
      const janus = fakeJanus(bob);
      const { link, sent, warnings, idle } = linkOn(janus.server);
      link.prepare();
      await idle();
      assert.deepEqual(janus.handles[0]!.steps, ['join ahead'], 'in the room before any offer');
      assert.ok(sent.some((m) => m.type === 'offer' && m.from === 'sfu'), 'the subscription was offered');
      link.offer(offerOf('111'));
      await idle();
      assert.deepEqual(janus.handles[0]!.steps, ['join ahead', 'publish']);
      assert.equal(janus.handles.filter((h) => h.steps.includes('subscribe')).length, 1, 'one subscription all along');
      assert.ok(sent.some((m) => m.type === 'answer'));
      assert.deepEqual(warnings, []);
    });

    it('joins afresh, with a new subscription, when the page’s offer says it discarded the one offered ahead', async () => {
      const janus = fakeJanus(bob);
      const { link, sent, idle } = linkOn(janus.server);
      link.prepare();
      await idle();
      const first = sent.find((m) => m.type === 'offer' && m.from === 'sfu') as { session?: string } | undefined;
      assert.ok(first?.session);
      link.offer(offerOf('111'), first.session);
      await idle();
      assert.deepEqual(janus.handles[0]!.steps, ['join ahead', 'detach'], 'the handle joined ahead left');
      assert.equal(janus.handles[1]!.steps.at(-1), 'detach', 'so did its subscription');
      assert.equal(janus.handles.filter((h) => h.steps[0] === 'join').length, 1, 'published on a new handle');
      const offers = sent.filter((m) => m.type === 'offer' && m.from === 'sfu') as Array<{ session?: string }>;
      assert.equal(offers.length, 2, 'a new subscription offered');
      assert.notEqual(offers[1]!.session, first.session);
    });

    it('publishes on the handle joined ahead when the offer names an older subscription', async () => {
      const janus = fakeJanus(bob);
      const { link, idle } = linkOn(janus.server);
      link.prepare();
      await idle();
      link.offer(offerOf('111'), 'an-older-one');
      await idle();
      assert.deepEqual(janus.handles[0]!.steps, ['join ahead', 'publish']);
    });

    it('joins ahead afresh when the page starts over before publishing (its socket was away when the subscription was offered)', async () => {
      const janus = fakeJanus(bob);
      const { link, sent, idle } = linkOn(janus.server);
      link.prepare();
      await idle();
      link.prepare(true);
      await idle();
      assert.deepEqual(janus.handles[0]!.steps, ['join ahead', 'detach'], 'the handle joined ahead left');
      const offers = sent.filter((m) => m.type === 'offer' && m.from === 'sfu') as Array<{ session?: string }>;
      assert.equal(offers.length, 2, 'the subscription offered again');
      assert.notEqual(offers[1]!.session, offers[0]!.session);
      // Once published, starting over is the page's new connection's business (a new SDP session).
      link.offer(offerOf('111'));
      await idle();
      link.prepare(true);
      await idle();
      assert.equal(janus.handles.filter((h) => h.steps.includes('join ahead')).length, 2);
      assert.ok(!janus.handles.at(-2)!.steps.includes('detach'), 'the published handle stays');
    });

    it('leaves the room when the participant leaves before publishing', async () => {
      const janus = fakeJanus(bob);
      const { link, idle } = linkOn(janus.server);
      link.prepare();
      await idle();
      await link.close();
      await idle();
      assert.deepEqual(janus.handles[0]!.steps, ['join ahead', 'detach']);
      assert.equal(janus.handles[1]!.steps.at(-1), 'detach', 'the subscription too');
    });

    describe('in a meeting of more people than the page shows videos of', () => {
      const many = Array.from({ length: 12 }, (_, i) => ({ feed: 20 + i, display: `c_p${i}`, streams: [{ type: 'audio', mid: '0' }] }));
      /** Prepared for a page that has laid out its tiles (said which videos it shows): its first subscription waits for nothing more. */
      const prepareLaidOut = (link: SfuLink) => {
        link.want('c_p0', 'low');
        link.prepare();
      };

      it('offers the subscription once the page says which videos it shows, not before', async (t) => {
        t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
        const janus = fakeJanus(many);
        const { link, sent, idle } = linkOn(janus.server);
        link.prepare();
        await idle();
        assert.ok(!sent.some((m) => m.type === 'offer'), 'not offered before the page said');
        // The last of the room (feed 31): not among the first nine in the room's order.
        link.want('c_p11', 'low');
        t.mock.timers.tick(WANTS_SETTLE_MS);
        await idle();
        assert.ok(sent.some((m) => m.type === 'offer' && m.from === 'sfu'));
        assert.ok(janus.handles[1]!.subscribed?.includes(31), 'the one the page shows is among the first feeds');
        await link.close();
      });

      it('publishes the page’s first offer, and its candidates after it, a moment after the subscription is up', async (t) => {
        t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
        const janus = fakeJanus(many);
        const { link, sent, warnings, idle } = linkOn(janus.server);
        prepareLaidOut(link);
        link.offer(offerOf('111'));
        link.ice(candidate('0'), '111');
        await idle();
        assert.deepEqual(janus.handles[0]!.steps, ['join ahead'], 'not published while the subscription waits for its answer');
        const offered = sent.find((m) => m.type === 'offer' && m.from === 'sfu') as { session: string };
        // The subscription's own candidates are not held.
        link.ice(candidate('1'), offered.session);
        await idle();
        assert.deepEqual(janus.handles[1]!.steps, ['subscribe', 'trickle']);
        link.answer('v=0 answer', offered.session);
        await idle();
        assert.deepEqual(janus.handles[1]!.steps, ['subscribe', 'trickle', 'start']);
        assert.deepEqual(janus.handles[0]!.steps, ['join ahead'], 'not published while the subscription connects');
        janus.handles[1]!.up();
        t.mock.timers.tick(PUBLISH_AFTER_UP_MS - 1);
        await idle();
        assert.deepEqual(janus.handles[0]!.steps, ['join ahead']);
        t.mock.timers.tick(1);
        await idle();
        assert.deepEqual(janus.handles[0]!.steps, ['join ahead', 'publish', 'trickle']);
        assert.deepEqual(warnings, []);
        await link.close();
      });

      it('publishes at once an offer that starts over from the subscription offered ahead (no answer to it will come)', async () => {
        const janus = fakeJanus(many);
        const { link, sent, idle } = linkOn(janus.server);
        prepareLaidOut(link);
        await idle();
        const offered = sent.find((m) => m.type === 'offer' && m.from === 'sfu') as { session: string };
        link.offer(offerOf('111'), offered.session);
        await idle();
        assert.deepEqual(janus.handles[0]!.steps, ['join ahead', 'detach'], 'the handle joined ahead left');
        assert.ok(janus.handles.some((h) => h.steps[0] === 'join'), 'published on a new handle');
        await link.close();
      });

      it('drops the offer it holds when its Janus goes down, and asks the page to publish again', async () => {
        const janus = fakeJanus(many);
        const { link, sent, idle } = linkOn(janus.server);
        prepareLaidOut(link);
        link.offer(offerOf('111'));
        link.ice(candidate('0'), '111');
        await idle();
        (janus.server as unknown as EventEmitter).emit('down');
        await until(() => sent.some((m) => m.type === 'sfu' && m.event === 'use' && m.restart === true));
        await idle();
        assert.ok(!janus.handles.some((h) => h.steps.includes('publish') || h.steps.includes('join') || h.steps.includes('trickle')), 'nothing of the old offer reached Janus');
        assert.equal(janus.handles.filter((h) => h.steps[0] === 'join ahead').length, 2, 'the room joined ahead again, for the new offer');
        await link.close();
      });

      it('publishes a few seconds after joining ahead at the latest, when the subscription never comes up', async (t) => {
        t.mock.timers.enable({ apis: ['setTimeout'] });
        const janus = fakeJanus(many);
        const { link, idle } = linkOn(janus.server);
        prepareLaidOut(link);
        link.offer(offerOf('111'));
        await idle();
        t.mock.timers.tick(2999);
        await idle();
        assert.deepEqual(janus.handles[0]!.steps, ['join ahead']);
        t.mock.timers.tick(1);
        await idle();
        assert.deepEqual(janus.handles[0]!.steps, ['join ahead', 'publish']);
        await link.close();
      });
    });
  });
});

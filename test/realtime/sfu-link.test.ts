/**
 * A participant's SFU link (sessions/sfu-link.ts) against a stand-in for
 * Janus: the candidates its browser trickles reach the handle of the
 * connection they name, after the description they belong to, and none
 * reaches a connection the link no longer holds. The real Janus is in
 * test/sfu.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { JanusServer } from '../../src/sfu/janus-server.ts';
import { SfuLink } from '../../src/realtime/sessions/sfu-link.ts';
import type { IceCandidate, ServerMessage } from '../../src/realtime/protocol.ts';
import type { SfuRouting } from '../../src/realtime/session.ts';

const offerOf = (session: string) => `v=0\r\no=- ${session} 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:0\r\n`;
const candidate = (mid: string): IceCandidate => ({ candidate: `candidate:1 1 udp 2122260223 192.0.2.2 5000${mid} typ host`, sdpMid: mid, sdpMLineIndex: Number(mid), usernameFragment: 'frag' });

/** Janus as far as a publishing link needs it: each attach is a new publisher handle that notes what it was sent. */
function fakeJanus() {
  const handles: Array<{ steps: string[]; trickled: unknown[] }> = [];
  const server = Object.assign(new EventEmitter(), {
    up: true,
    label: 'fake',
    attach: async () => {
      const noted = { steps: [] as string[], trickled: [] as unknown[] };
      handles.push(noted);
      return {
        on() {},
        joinConfigurePublisher: async () => {
          noted.steps.push('join');
          return { feed: 7, publishers: [], jsep: { type: 'answer', sdp: 'v=0 answer' } };
        },
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
  return { link, sent, warnings, idle: async () => void (await last) };
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
});

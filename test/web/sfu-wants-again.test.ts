/**
 * The page's wants (how much of each person's video its tiles show) after
 * a `welcome`: the server's end of the SFU may be new then (a resume on
 * another instance, or after the grace) and know none of them, so the page
 * says every one again, the latest last (the latest take the video slots);
 * otherwise it says each once. With a stand-in for RTCPeerConnection; the
 * browsers are in test/sfu.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { MediaPath } from '../../public/js/call/media-path.js';

/** Enough of RTCPeerConnection for the SFU client to start (its offer is never answered here). */
class FakeConnection extends EventTarget {
  signalingState = 'stable';
  connectionState = 'new';
  iceGatheringState = 'complete';
  localDescription: { type: string; sdp: string } | null = null;
  private transceivers: unknown[] = [];
  addTransceiver(track: unknown) {
    const t = { mid: String(this.transceivers.length), direction: 'sendonly', sender: { track: typeof track === 'string' ? null : track, replaceTrack: async () => {} }, receiver: { track: null } };
    this.transceivers.push(t);
    return t;
  }
  getTransceivers() {
    return this.transceivers;
  }
  async createOffer() {
    return { type: 'offer', sdp: 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\n' };
  }
  async setLocalDescription(d: { type: string; sdp: string }) {
    this.localDescription = d;
  }
  close() {
    this.connectionState = 'closed';
  }
}

type Sent = { type: string; from?: string; video?: string };

describe('the page’s wants through the SFU', () => {
  const saved = (globalThis as any).RTCPeerConnection;
  let path: any;
  beforeEach(() => ((globalThis as any).RTCPeerConnection = FakeConnection));
  afterEach(() => {
    path?.closeAll();
    (globalThis as any).RTCPeerConnection = saved;
  });

  function onSfu() {
    const sent: Sent[] = [];
    path = new MediaPath({ iceServers: [], send: (m: Sent) => sent.push(m), onStream() {}, onGone() {}, onPeerState() {}, boundMs: 60_000 });
    path.setSelf('c_me');
    path.joinSfu();
    return { sent, wants: () => sent.filter((m) => m.type === 'sfu_want').map((m) => `${m.from} ${m.video}`) };
  }

  it('says each want once, and a changed one again', () => {
    const { wants } = onSfu();
    path.setWanted('c_ann', 'low');
    path.setWanted('c_bob', 'off');
    path.setWanted('c_ann', 'low');
    path.setWanted('c_bob', 'high');
    assert.deepEqual(wants(), ['c_ann low', 'c_bob off', 'c_bob high']);
  });

  it('says every want again after a welcome, the latest last', () => {
    const { wants, sent } = onSfu();
    path.setWanted('c_ann', 'low');
    path.setWanted('c_bob', 'off');
    path.setWanted('c_cat', 'low');
    path.setWanted('c_ann', 'off');
    sent.length = 0;
    path.sayWantsAgain();
    assert.deepEqual(wants(), ['c_bob off', 'c_cat low', 'c_ann off']);
  });
});

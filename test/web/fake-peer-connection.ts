/**
 * A stand-in for the browser's RTCPeerConnection, for the page's media
 * modules run under Node (public/js/lib, public/js/call): as much of it as
 * their offers and the subscription's answers use; candidates are in the
 * descriptions, nothing connects. `usingFakeConnections()` puts it in
 * place for a suite's tests. The browsers are in test/browser and test/sfu.
 */
import { afterEach, beforeEach } from 'node:test';

let made = 0;

export class FakeConnection extends EventTarget {
  /** Which connection this is, in the order made (each offer's SDP session is its id). */
  readonly id = ++made;
  signalingState = 'stable';
  connectionState = 'new';
  iceGatheringState = 'complete';
  localDescription: { type: string; sdp: string } | null = null;
  remoteDescription: { type: string; sdp: string } | null = null;
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
    return { type: 'offer', sdp: `v=0\r\no=- ${this.id} 1 IN IP4 127.0.0.1\r\n` };
  }
  async createAnswer() {
    return { type: 'answer', sdp: `v=0\r\no=- a${this.id} 1 IN IP4 127.0.0.1\r\n` };
  }
  async setLocalDescription(d: { type: string; sdp: string }) {
    this.localDescription = d;
    this.signalingState = d.type === 'offer' ? 'have-local-offer' : 'stable';
  }
  async setRemoteDescription(d: { type: string; sdp: string }) {
    this.remoteDescription = d;
    this.signalingState = d.type === 'offer' ? 'have-remote-offer' : 'stable';
  }
  close() {
    this.connectionState = 'closed';
  }
}

/** The stand-in as the global RTCPeerConnection for each test of the suite it is called in; `cleanUp` runs first after each. */
export function usingFakeConnections(cleanUp: () => void = () => {}): void {
  const saved = (globalThis as any).RTCPeerConnection;
  beforeEach(() => ((globalThis as any).RTCPeerConnection = FakeConnection));
  afterEach(() => {
    cleanUp();
    (globalThis as any).RTCPeerConnection = saved;
  });
}

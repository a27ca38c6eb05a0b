// @module public/js/lib/sfu-subscription — the receiving connection of the
// page's SFU media (lib/sfu.js): everyone else on one RTCPeerConnection.
// The SFU offers, this page answers, again whenever people come and go.
// Before each offer the server says which participant each m-line carries
// (`sfu` `streams`); each participant's microphone and camera become one
// MediaStream, and a screen they share another (`onScreen`): it is shown
// in a tile of its own, beside their camera.
//
// One connection per subscription, which the server names (`session`):
// Janus gives each of its offers a new o= session, renegotiations included,
// and a new connection answering an old subscription never gets through
// DTLS. Apart from the publishing side because it lives by the SFU's
// offers, not by this page's tracks.
import { MEDIA_BOUND_MS } from './peer-health.js';
import { addInbound } from './peer-stats.js';

/** A description is sent without waiting longer than this for candidates (a slow TURN server); those gathered by then go. Only for an offer that names no subscription: the others' candidates trickle. */
const GATHER_MS = 3000;

function gathered(pc) {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, GATHER_MS);
    function done() {
      clearTimeout(timer);
      pc.removeEventListener('icegatheringstatechange', check);
      resolve();
    }
    function check() {
      if (pc.iceGatheringState === 'complete') done();
    }
    pc.addEventListener('icegatheringstatechange', check);
  });
}

export class SfuSubscription {
  /**
   * `onLost()`: the
   * connection failed, or has not connected within the media bound (what
   * to do then is the connection health's: starting both connections over
   * at once would make the SFU renegotiate everyone else's subscription
   * with each try, and under load those tries spread from page to page);
   * `onScreen(id, stream)`: the screen `id` shares arrived, or went (null).
   */
  constructor({ iceServers, iceTransportPolicy, send, boundMs, onStream, onGone, onScreen, onLost, peer }) {
    Object.assign(this, { iceServers, iceTransportPolicy, send, boundMs, onStream, onGone, onScreen, onLost, peer });
    this.pc = null;
    this.session = null;
    /** mid → { from, kind, source } of the subscription, as of its last offer; the next offer's map waits in `pendingMap`. */
    this.map = new Map();
    this.pendingMap = null;
    /** Each remote participant's stream, and the tracks it was made of. */
    this.remote = new Map();
    /** Each sharing participant's screen: its stream and track. */
    this.screens = new Map();
    this.chain = Promise.resolve();
    /** The getStats reading under way, shared by whoever asks meanwhile. */
    this.reading = null;
    /** The last subscription whose connection this page closed (`close`). */
    this.discarded = null;
  }

  /** The server's `sfu` `streams`: what the next offer's m-lines carry. */
  streams(list) {
    this.pendingMap = new Map(list.map((s) => [s.mid, { from: s.from, kind: s.kind, source: s.source ?? (s.kind === 'video' ? 'camera' : null) }]));
  }

  /** An offer from the SFU: in order among themselves, but not holding up the page's other messages while candidates gather. */
  offer(m) {
    const map = this.pendingMap;
    this.pendingMap = null;
    this.chain = this.chain
      .then(() => this.answer(m.sdp, map, m.session ?? null))
      .catch((error) => {
        // An offer this page could not answer leaves its connection behind the SFU's: a stall, for the health to remedy.
        console.warn('foyer: the SFU subscription failed:', error);
        if (this.pc && !this.stopped) this.onLost();
      });
  }

  async answer(sdp, map, session) {
    if (this.stopped) return;
    if (!this.pc || this.session !== session) {
      this.pc?.close();
      const pc = new RTCPeerConnection({ iceServers: this.iceServers, iceTransportPolicy: this.iceTransportPolicy });
      this.pc = pc;
      this.session = session;
      // The health follows the publishing connection's states; this one it hears of when it fails or stalls.
      pc.addEventListener('connectionstatechange', () => {
        if (this.pc === pc && pc.connectionState === 'failed') this.onLost();
      });
      setTimeout(() => {
        if (this.pc === pc && !this.stopped && pc.connectionState !== 'connected') this.onLost();
      }, this.boundMs ?? MEDIA_BOUND_MS);
      // Candidates trickle after the first answer, named by the subscription they belong to.
      if (session) {
        pc.addEventListener('icecandidate', (e) => {
          if (this.pc === pc && !this.stopped) this.send({ type: 'ice', to: this.peer, candidate: e.candidate ? e.candidate.toJSON() : null, session });
        });
      }
    }
    const pc = this.pc;
    await pc.setRemoteDescription({ type: 'offer', sdp });
    if (map) this.map = map;
    await pc.setLocalDescription(await pc.createAnswer());
    // After the answer: an m-line that Janus reuses for someone new was inactive until now (currentDirection).
    if (this.pc === pc) this.regroup();
    // At once, the candidates trickling after it; a subscription without a name cannot say whose they are, so they go in it.
    if (!session) await gathered(pc);
    if (this.pc !== pc) return;
    this.send({ type: 'answer', to: this.peer, sdp: pc.localDescription.sdp, ...(session ? { session } : {}) });
  }

  /** Each participant's tracks of the subscription as one stream, their screen as another: new streams whenever they change. */
  regroup() {
    const tracks = new Map();
    const screens = new Map();
    for (const t of this.pc?.getTransceivers() ?? []) {
      const carried = t.mid !== null && this.map.get(t.mid);
      if (!carried || t.currentDirection === 'inactive') continue;
      if (carried.source === 'screen') {
        screens.set(carried.from, t.receiver.track);
        continue;
      }
      if (!tracks.has(carried.from)) tracks.set(carried.from, []);
      tracks.get(carried.from).push(t.receiver.track);
    }
    for (const [id, track] of screens) {
      if (this.screens.get(id)?.track === track) continue;
      const stream = new MediaStream([track]);
      this.screens.set(id, { stream, track });
      this.onScreen(id, stream);
    }
    for (const id of [...this.screens.keys()]) {
      if (screens.has(id)) continue;
      this.screens.delete(id);
      this.onScreen(id, null);
    }
    for (const [id, list] of tracks) {
      const known = this.remote.get(id);
      if (known && known.tracks.length === list.length && list.every((t) => known.tracks.includes(t))) continue;
      const stream = new MediaStream(list);
      this.remote.set(id, { stream, tracks: list });
      this.onStream(id, stream);
    }
    for (const id of [...this.remote.keys()]) {
      if (tracks.has(id)) continue;
      this.remote.delete(id);
      this.onGone(id);
    }
  }

  /** Whether media arrives (connected, and packets in); true when nobody else is there. */
  async carried() {
    if (this.map.size === 0) return true;
    if (this.pc?.connectionState !== 'connected') return false;
    let packets = 0;
    (await this.pc.getStats()).forEach((s) => {
      if (s.type === 'inbound-rtp') packets += s.packetsReceived || 0;
    });
    return packets > 0;
  }

  /** The connection goes (a rebuild): the SFU offers a new subscription. */
  close() {
    // The server may have joined the room ahead of this page's publishing (and offered this subscription): the next
    // publishing offer says this connection is gone, so that the server offers a new one.
    if (this.pc && this.session) this.discarded = this.session;
    this.pc?.close();
    this.pc = null;
    this.session = null;
    // What the old connection carried says nothing of the new one: with nobody else left, no offer comes to replace it.
    this.map = new Map();
  }

  stop() {
    this.stopped = true;
    this.close();
    for (const id of [...this.remote.keys()]) this.onGone(id);
    for (const id of [...this.screens.keys()]) this.onScreen(id, null);
    this.remote.clear();
    this.screens.clear();
    this.map.clear();
  }

  /** The participant each of the subscription's camera and microphone receivers carries (screens apart), as of its last offer. */
  receivers() {
    const result = [];
    for (const t of this.pc?.getTransceivers() ?? []) {
      const carried = t.mid !== null ? this.map.get(t.mid) : undefined;
      if (carried && carried.source !== 'screen' && this.remote.has(carried.from)) result.push({ from: carried.from, receiver: t.receiver });
    }
    return result;
  }

  /** How loud each participant is now (0 to 1): one pass over the receivers, a few times a second whatever the size. */
  audioLevels() {
    const levels = {};
    for (const id of this.remote.keys()) levels[id] = 0;
    for (const { from, receiver } of this.receivers()) {
      if (receiver.track.kind !== 'audio' || typeof receiver.getSynchronizationSources !== 'function') continue;
      for (const source of receiver.getSynchronizationSources()) levels[from] = Math.max(levels[from], source.audioLevel ?? 0);
    }
    return levels;
  }

  /**
   * Inbound figures per participant (by the m-line the subscription maps to them, else by their track); a shared
   * screen's apart, as `screen`. Callers at the same moment (each tile's first frame, say) share one reading.
   */
  stats() {
    this.reading ??= this.readStats().finally(() => (this.reading = null));
    return this.reading;
  }

  async readStats() {
    const result = {};
    const pc = this.pc;
    if (!pc) return result;
    const report = await pc.getStats();
    const cameraOf = new Map(this.receivers().map(({ from, receiver }) => [receiver.track.id, from]));
    const screenOf = new Map([...this.screens].map(([id, s]) => [s.track.id, id]));
    for (const id of this.remote.keys()) {
      result[id] = { state: pc.connectionState, streamId: this.remote.get(id)?.stream.id ?? null, framesDecoded: 0, frameWidth: 0, frameHeight: 0, audioPackets: 0, audioSamples: 0, audioEnergy: 0, path: null, via: this.peer };
      if (this.screens.has(id)) result[id].screen = { framesDecoded: 0, frameWidth: 0, frameHeight: 0 };
    }
    // One pass over the report, whatever the size of the meeting.
    report.forEach((s) => {
      if (s.type !== 'inbound-rtp') return;
      const carried = s.mid !== undefined ? this.map.get(s.mid) : undefined;
      if (carried) {
        const out = result[carried.from];
        if (carried.source !== 'screen') {
          if (out) addInbound(out, s);
        } else if (out?.screen) addInbound(out.screen, s);
        return;
      }
      // No m-line to go by: by track. While an m-line changes hands, one track can be someone's screen as the
      // screens last knew it and someone else's camera as the m-lines say now: it counts for both.
      const sharer = screenOf.get(s.trackIdentifier);
      if (sharer !== undefined && result[sharer]?.screen) addInbound(result[sharer].screen, s);
      const owner = cameraOf.get(s.trackIdentifier);
      if (owner !== undefined && owner !== sharer) addInbound(result[owner], s);
    });
    return result;
  }
}

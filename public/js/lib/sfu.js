// @module public/js/lib/sfu — the page's media through the SFU: two
// RTCPeerConnections whatever the size of the meeting, both with the
// reserved peer `sfu` (docs/signalling.md, "The sfu peer").
//
// - The publishing connection sends this page's microphone and camera
//   (sendonly), the camera in three simulcast layers (full, half, quarter
//   size) so that the SFU can forward each receiver the layer its tile
//   needs. This page offers; the SFU answers. A shared screen is a third
//   m-line, after the camera's (which is how the server tells them apart),
//   added by offering again on the same connection while the camera goes
//   on; stopping sets it inactive, and sharing again reuses it. Unlike the
//   mesh, where the screen takes the camera's place, everyone then sees
//   both: a second stream costs the sharer one upload, not one per person.
// - The receiving connection (the subscription, lib/sfu-subscription.js)
//   carries everyone else: the SFU offers, this page answers.
// This page sends each new connection's description at once and trickles
// its candidates after it (`ice` to `sfu`, naming the connection with
// `session`): gathering takes a tenth of a second and more (longer with
// STUN or TURN servers far away), which a join would otherwise wait for.
// Janus's descriptions carry its own candidates.
//
// Both connections count as one for the connection state (a PeerHealth,
// lib/peer-health.js): it carries media when the publishing connection is
// up and, when anyone else is there, media arrives on the subscription (no
// subscription at all is none: its offer may have gone astray, and the
// server offers anew to a new publishing connection); a
// subscription that fails or stalls tells it (`lost()`). Its first remedy
// waits while the publishing connection is up (the subscription is still
// being offered), then both connections start over, with backoff, as does
// "Try again": the SFU's side of an ICE restart would have to be asked for
// anyway. The server's `sfu` `use` with `restart` starts them over at once
// (the SFU changed: its Janus died and the meeting was placed again).
//
// Each tile asks for the video it needs (`want`): the highest layer for a
// large tile, the lowest for a thumbnail, none for people beyond the video
// slots (their audio still comes); the SFU switches layers without a
// renegotiation. Janus's talking events (`onTalking`) name the speaker.
//
// What the call needs of a media source (as lib/mesh.js): onStream(id,
// stream), onGone(id), onState(report); setLocalTracks, replaceAudio,
// replaceVideo; audioLevels(), connectionStats(), stats(), framesDecodedFrom(id);
// and, for screens shared as streams of their own, onScreen(id, stream).
import { hasTurn, PeerHealth } from './peer-health.js';
import { connectionFigures } from './peer-stats.js';
import { SfuSubscription } from './sfu-subscription.js';

export const SFU_PEER = 'sfu';

/** The three layers, highest first (the order Janus expects by default), each a quarter of the pixels of the one above. */
const LAYERS = [
  { rid: 'h', maxBitrate: 900_000 },
  { rid: 'm', maxBitrate: 300_000, scaleResolutionDownBy: 2 },
  { rid: 'l', maxBitrate: 100_000, scaleResolutionDownBy: 4 },
];

/** A shared screen: one layer (everyone gets it whole), at most this rate; `contentHint` 'detail' keeps its text sharp. */
const SCREEN_ENCODING = { maxBitrate: 1_500_000 };

/** A publishing connection's new offer (a screen shared or no longer) not answered by then is not coming: both connections start over. */
const ANSWER_MS = 15_000;

function sessionId(sdp) {
  return /^o=\S+ (\S+)/m.exec(sdp)?.[1] ?? null;
}

export class SfuClient {
  constructor({ iceServers, iceTransportPolicy = 'all', send, onStream, onGone, onScreen = () => {}, onState = () => {}, onTalking = () => {}, othersThere = () => false, boundMs, simulcast = true }) {
    Object.assign(this, { iceServers, iceTransportPolicy, send, onStream, onGone, onState, onTalking, othersThere, simulcast, boundMs });
    this.pub = null;
    /** The publishing connection's transceivers: audio, camera, and screen once one was shared. */
    this.sending = null;
    this.subscription = new SfuSubscription({ iceServers, iceTransportPolicy, send, boundMs, onStream, onGone, onScreen, onLost: () => this.health.lost(), peer: SFU_PEER });
    this.localStream = null;
    this.audioTrack = null;
    this.videoTrack = null;
    this.screenTrack = null;
    this.stopped = false;
    this.health = new PeerHealth(
      {
        onState: (report) => this.onState(report),
        carried: () => this.carried(),
        // First remedy: while the publishing connection is up the subscription is still being offered (people arriving
        // at once renegotiate it several times, slowly on a busy server): wait for the next bound. Otherwise both start over.
        restartIce: () => {
          if (this.pub?.connectionState !== 'connected' || this.sub?.connectionState === 'failed') this.rebuild();
        },
        rebuild: () => this.rebuild(),
        retry: () => this.rebuild(),
      },
      { boundMs, turn: hasTurn(iceServers) },
    );
  }

  /** Starts publishing (the server said the place uses the SFU). */
  start() {
    this.health.start();
    this.rebuild();
  }

  /** New connections, both: publish again; the SFU offers the subscription again. */
  rebuild() {
    if (this.stopped) return;
    this.closeConnections();
    const pc = new RTCPeerConnection({ iceServers: this.iceServers, iceTransportPolicy: this.iceTransportPolicy });
    this.pub = pc;
    const streams = this.localStream ? [this.localStream] : [];
    this.sending = {
      audio: pc.addTransceiver(this.audioTrack ?? 'audio', { direction: 'sendonly', streams }),
      camera: pc.addTransceiver(this.videoTrack ?? 'video', { direction: 'sendonly', streams, ...(this.simulcast ? { sendEncodings: LAYERS.map((l) => ({ ...l })) } : {}) }),
      screen: null,
    };
    if (this.screenTrack) this.applyScreen();
    this.health.attach(pc);
    pc.addEventListener('icecandidate', (e) => {
      if (this.pub === pc && pc.localDescription) this.send({ type: 'ice', to: SFU_PEER, candidate: e.candidate ? e.candidate.toJSON() : null, session: sessionId(pc.localDescription.sdp) });
    });
    this.negotiate();
  }

  /** Offers the publishing connection (again): one offer at a time, a change meanwhile is offered once it is answered. */
  negotiate() {
    const pc = this.pub;
    if (!pc) return;
    if (this.offering === pc) {
      this.offerAgain = true;
      return;
    }
    this.offering = pc;
    this.offerAgain = false;
    // The first offer's fate is the connection health's business; a renegotiation left unanswered would hold every later one.
    const again = Boolean(pc.remoteDescription);
    void (async () => {
      await pc.setLocalDescription(await pc.createOffer());
      // At once: the candidates trickle after it (those known already are in it).
      if (this.pub !== pc) return;
      const offer = pc.localDescription.sdp;
      const discarded = again ? null : this.subscription.discarded;
      this.send({ type: 'offer', to: SFU_PEER, sdp: offer, ...(discarded ? { discarded } : {}) });
      if (!again) return;
      // This very offer still unanswered: the connection can neither renegotiate nor restart ICE, so it starts over.
      setTimeout(() => {
        if (this.pub === pc && pc.signalingState === 'have-local-offer' && pc.localDescription?.sdp === offer) this.rebuild();
      }, ANSWER_MS);
    })().catch((error) => console.warn('foyer: publishing to the SFU failed:', error));
  }

  /** The server's `sfu` message, or an offer or answer from `sfu`. */
  async handle(m) {
    if (this.stopped) return;
    if (m.type === 'answer') {
      // Only the answer to this connection's offer: one to a connection rebuilt since must not land on the new one.
      const pub = this.pub;
      if (pub?.signalingState === 'have-local-offer' && (!m.session || m.session === sessionId(pub.localDescription.sdp))) {
        // Not waited for: the subscription's offer, right behind this answer, concerns the other connection, and
        // applying a simulcast answer can take a tenth of a second on a busy machine.
        void pub
          .setRemoteDescription({ type: 'answer', sdp: m.sdp })
          .then(() => {
            if (this.offering === pub) this.offering = null;
            if (this.offerAgain && this.pub === pub) this.negotiate();
          })
          .catch((error) => {
            // One for a connection closed meanwhile (started over) is no news.
            if (this.pub === pub) console.warn('foyer: the SFU answer could not be applied:', error);
          });
      }
    } else if (m.type === 'offer') {
      this.subscription.offer(m);
    } else if (m.type === 'sfu' && m.event === 'streams') {
      this.subscription.streams(m.streams);
    } else if (m.type === 'sfu' && m.event === 'talking') {
      this.onTalking?.(m.from, m.talking);
    } else if (m.type === 'sfu' && m.event === 'use' && m.restart) {
      this.rebuild();
    }
  }

  /** The subscription's connection, what it carries and from whom (media-path.js, diagnostics). */
  get sub() {
    return this.subscription.pc;
  }

  get map() {
    return this.subscription.map;
  }

  get remote() {
    return this.subscription.remote;
  }

  get screens() {
    return this.subscription.screens;
  }

  /** How much of `id`'s video this page wants ('high', 'low' or 'off'): the SFU sends that layer, or nothing. Said once, unless `again`. */
  want(id, video, again = false) {
    this.wants ??= new Map();
    if (this.wants.get(id) === video && !again) return;
    this.wants.set(id, video);
    this.send({ type: 'sfu_want', from: id, video });
  }

  async carried() {
    if (this.pub?.connectionState !== 'connected' || (!this.sub && this.othersThere())) return false;
    return this.subscription.carried();
  }

  /** This page's tracks: `screenTrack`, while a screen is shared, goes as a stream of its own. */
  setLocalTracks(stream, audioTrack, videoTrack, screenTrack = null) {
    this.localStream = stream;
    this.audioTrack = audioTrack;
    this.videoTrack = videoTrack;
    this.screenTrack = screenTrack;
    this.applyTracks();
  }

  replaceAudio(track) {
    this.audioTrack = track;
    this.applyTracks();
  }

  replaceVideo(track) {
    this.videoTrack = track;
    this.applyTracks();
  }

  applyTracks() {
    if (!this.sending) return;
    const { audio, camera } = this.sending;
    if (audio.sender.track !== this.audioTrack) audio.sender.replaceTrack(this.audioTrack).catch(() => {});
    if (camera.sender.track !== this.videoTrack) camera.sender.replaceTrack(this.videoTrack).catch(() => {});
    this.applyScreen();
  }

  /** The screen's m-line: added when a screen is first shared, inactive while none is, offered again on each change. */
  applyScreen() {
    const pc = this.pub;
    const track = this.screenTrack;
    const t = this.sending?.screen;
    if (!pc || !this.sending) return;
    if (!track) {
      if (!t || t.direction === 'inactive') return;
      t.sender.replaceTrack(null).catch(() => {});
      t.direction = 'inactive';
      this.negotiate();
      return;
    }
    if ('contentHint' in track && !track.contentHint) track.contentHint = 'detail';
    if (!t) {
      this.sending.screen = pc.addTransceiver(track, { direction: 'sendonly', streams: [new MediaStream([track])], sendEncodings: [{ ...SCREEN_ENCODING }] });
      // A rebuild offers the whole connection itself.
      if (pc.localDescription) this.negotiate();
      return;
    }
    if (t.sender.track !== track) t.sender.replaceTrack(track).catch(() => {});
    if (t.direction !== 'sendonly') {
      t.direction = 'sendonly';
      this.negotiate();
    }
  }

  closeConnections() {
    this.pub?.close();
    this.pub = null;
    this.sending = null;
    this.subscription.close();
  }

  stop() {
    this.stopped = true;
    this.health.stop();
    this.closeConnections();
    this.subscription.stop();
  }

  audioLevels() {
    return this.subscription.audioLevels();
  }

  /** The subscription's figures stand for everyone it carries (one path, one SFU). */
  async connectionStats() {
    if (this.sub?.connectionState !== 'connected') return {};
    this.figures ??= {};
    const figures = await connectionFigures(this.sub, this.figures).catch(() => ({}));
    if (this.pub?.connectionState === 'connected') {
      this.pubFigures ??= {};
      const out = await connectionFigures(this.pub, this.pubFigures).catch(() => ({}));
      Object.assign(figures, { lossOut: out.lossOut, availableOut: out.availableOut, outKbps: out.outKbps });
    }
    return Object.fromEntries([...this.remote.keys()].map((id) => [id, figures]));
  }

  stats() {
    return this.subscription.stats();
  }

  async framesDecodedFrom(id) {
    return (await this.stats())[id]?.framesDecoded ?? 0;
  }
}

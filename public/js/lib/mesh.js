// @module public/js/lib/mesh — one RTCPeerConnection per remote participant (P2P mesh).
//
// Who offers: of two participants, the one with the greater id. Both learn
// of each other from the server's participant list, so exactly one side
// offers and offers never collide. Each connection carries one audio and
// one video transceiver from the start; muting, turning the camera off and
// screen sharing swap tracks with replaceTrack and never renegotiate.
//
// Both sides tie their senders to their local MediaStream (addTransceiver's
// `streams` when offering, setStreams when answering), so each browser gets
// the other's audio and video as one stream: that is what browsers keep in
// lip sync, and what Safari needs to play both from one <video>.
//
// What the call needs of a media source (this mesh, or an SFU client beside
// it): onStream(id, stream), onGone(id), onPeerState(id, {state, attempt,
// hint}); setLocalTracks, replaceAudio, replaceVideo; audioLevels(),
// connectionStats() and setSendQuality(profile) (lib/peer-stats.js).
import { arrivingLevel, capVideoSender, connectionFigures } from './peer-stats.js';

/** How long the offering side waits for a connection before starting over. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The session id of an SDP's o= line: the same for every offer of one connection, new for a new one. */
function sessionId(sdp) {
  return /^o=\S+ (\S+)/m.exec(sdp)?.[1] ?? null;
}

export class Mesh {
  constructor({ iceServers, send, onStream, onGone, onPeerState = () => {}, connectTimeoutMs = CONNECT_TIMEOUT_MS }) {
    this.iceServers = iceServers;
    this.send = send;
    this.onStream = onStream;
    this.onGone = onGone;
    this.onPeerState = onPeerState;
    this.sendProfile = null;
    this.connectTimeoutMs = connectTimeoutMs;
    this.peers = new Map();
    this.selfId = null;
    this.localStream = null;
    this.audioTrack = null;
    this.videoTrack = null;
  }

  setSelf(id) {
    this.selfId = id;
  }

  /** Tracks sent to everyone (null: nothing on that transceiver). */
  setLocalTracks(stream, audioTrack, videoTrack) {
    this.localStream = stream;
    this.audioTrack = audioTrack;
    this.videoTrack = videoTrack;
    for (const peer of this.peers.values()) this.applyTracks(peer);
  }

  replaceVideo(track) {
    this.videoTrack = track;
    for (const peer of this.peers.values()) this.applyTracks(peer);
  }

  replaceAudio(track) {
    this.audioTrack = track;
    for (const peer of this.peers.values()) this.applyTracks(peer);
  }

  /** The server's participant list: connect to newcomers, drop those who left. */
  sync(participants) {
    const ids = new Set(participants.map((p) => p.id));
    for (const id of [...this.peers.keys()]) if (!ids.has(id)) this.drop(id);
    for (const p of participants) {
      if (p.id === this.selfId || this.peers.has(p.id)) continue;
      if (this.selfId > p.id) this.offer(p.id).catch(() => {});
    }
  }

  async handle(message) {
    if (message.type === 'offer') {
      let peer = this.peers.get(message.from);
      const session = sessionId(message.sdp);
      // A different session is the offering side starting over (its connection
      // never came up): applying it to the old connection would fail.
      if (peer && peer.remoteSession && session !== peer.remoteSession) {
        this.discard(peer);
        peer = undefined;
      }
      peer ??= this.create(message.from);
      peer.remoteSession = session;
      await peer.pc.setRemoteDescription({ type: 'offer', sdp: message.sdp });
      for (const t of peer.pc.getTransceivers()) t.direction = 'sendrecv';
      this.bindStreams(peer);
      this.applyTracks(peer);
      await peer.pc.setLocalDescription(await peer.pc.createAnswer());
      this.send({ type: 'answer', to: message.from, sdp: peer.pc.localDescription.sdp });
      await this.flush(peer);
    } else if (message.type === 'answer') {
      const peer = this.peers.get(message.from);
      if (!peer || peer.pc.signalingState !== 'have-local-offer') return;
      await peer.pc.setRemoteDescription({ type: 'answer', sdp: message.sdp });
      await this.flush(peer);
    } else if (message.type === 'ice') {
      // Candidates follow their offer or answer, so an unknown sender is one
      // that left or was dropped: a connection for it would never be closed.
      const peer = this.peers.get(message.from);
      if (!peer) return;
      if (!peer.pc.remoteDescription) peer.pending.push(message.candidate);
      else await this.addCandidate(peer, message.candidate);
    }
  }

  create(id) {
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    const peer = { id, pc, pending: [], remoteStream: null, remoteSession: null, watchdog: undefined, attempt: 0 };
    this.peers.set(id, peer);
    pc.addEventListener('icecandidate', (e) => {
      this.send({ type: 'ice', to: id, candidate: e.candidate ? e.candidate.toJSON() : null });
    });
    pc.addEventListener('track', (e) => {
      if (!peer.remoteStream) {
        // The sender's own stream when it named one; otherwise one stream of
        // every receiver's track, built before it is shown: Safari does not
        // pick up tracks added to a stream a <video> already plays.
        peer.remoteStream = e.streams[0] ?? new MediaStream(pc.getReceivers().map((r) => r.track));
      }
      if (!peer.remoteStream.getTracks().includes(e.track)) peer.remoteStream.addTrack(e.track);
      this.onStream(id, peer.remoteStream);
    });
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'connected') {
        clearTimeout(peer.watchdog);
        peer.attempt = 0;
        this.onPeerState(id, { state: 'connected', attempt: 0 });
        this.capSender(peer);
      }
      // A failed path (a network change) gets a fresh set of candidates, from the offering side.
      if (pc.connectionState === 'failed' && this.selfId > id && this.peers.get(id) === peer) {
        pc.restartIce();
        void this.renegotiate(peer);
      }
    });
    return peer;
  }

  async offer(id, attempt = 1) {
    const peer = this.create(id);
    peer.attempt = attempt;
    const stream = this.localStream ? [this.localStream] : [];
    peer.pc.addTransceiver(this.audioTrack ?? 'audio', { direction: 'sendrecv', streams: stream });
    peer.pc.addTransceiver(this.videoTrack ?? 'video', { direction: 'sendrecv', streams: stream });
    await this.renegotiate(peer);
  }

  async renegotiate(peer) {
    // Armed first, so that an offer that cannot even be made is retried too.
    this.watch(peer);
    await peer.pc.setLocalDescription(await peer.pc.createOffer());
    if (this.peers.get(peer.id) !== peer) return;
    this.send({ type: 'offer', to: peer.id, sdp: peer.pc.localDescription.sdp });
  }

  /**
   * An offer or answer lost on the way (a socket that dropped at that moment,
   * a participant list that arrived late) would leave the pair without media
   * for good: the offering side starts over with a new connection. Waits grow
   * a little per attempt, for paths that are merely slow (TURN over TCP).
   */
  watch(peer) {
    clearTimeout(peer.watchdog);
    const wait = this.connectTimeoutMs * Math.min(Math.max(peer.attempt, 1), 3);
    peer.watchdog = setTimeout(() => {
      if (this.peers.get(peer.id) !== peer || peer.pc.connectionState === 'connected') return;
      this.discard(peer);
      this.offer(peer.id, peer.attempt + 1).catch(() => {});
    }, wait);
  }

  /** The answering side's senders join our local stream, as the offering side's did through addTransceiver. */
  bindStreams(peer) {
    if (!this.localStream) return;
    for (const t of peer.pc.getTransceivers()) {
      if (typeof t.sender.setStreams === 'function') {
        t.sender.setStreams(this.localStream);
      } else if (t.currentDirection === null && !t.sender.track) {
        // No setStreams (browsers before 2023): addTrack reuses this not yet negotiated transceiver and names the stream.
        const track = t.receiver.track.kind === 'audio' ? this.audioTrack : this.videoTrack;
        if (track) peer.pc.addTrack(track, this.localStream);
      }
    }
  }

  applyTracks(peer) {
    for (const t of peer.pc.getTransceivers()) {
      const kind = t.receiver.track?.kind;
      const track = kind === 'audio' ? this.audioTrack : kind === 'video' ? this.videoTrack : undefined;
      if (track === undefined || t.sender.track === track) continue;
      t.sender.replaceTrack(track).catch(() => {});
    }
  }

  async flush(peer) {
    const pending = peer.pending.splice(0);
    for (const c of pending) await this.addCandidate(peer, c);
  }

  async addCandidate(peer, candidate) {
    try {
      await peer.pc.addIceCandidate(candidate ?? undefined);
    } catch {
      // A candidate for a transport that no longer exists: harmless.
    }
  }

  discard(peer) {
    clearTimeout(peer.watchdog);
    peer.pc.close();
    if (this.peers.get(peer.id) === peer) this.peers.delete(peer.id);
    this.onGone(peer.id);
  }

  drop(id) {
    const peer = this.peers.get(id);
    if (peer) this.discard(peer);
  }

  closeAll() {
    for (const id of [...this.peers.keys()]) this.drop(id);
  }

  /** How loud each remote participant is now (0 to 1), for the active speaker. */
  audioLevels() {
    const levels = {};
    for (const [id, peer] of this.peers) levels[id] = arrivingLevel(peer.pc);
    return levels;
  }

  /** Round trip, loss and bitrates per remote participant since the last call (lib/peer-stats.js). */
  async connectionStats() {
    const result = {};
    for (const [id, peer] of this.peers) {
      if (peer.pc.connectionState !== 'connected') continue;
      peer.figures ??= {};
      result[id] = await connectionFigures(peer.pc, peer.figures).catch(() => ({}));
    }
    return result;
  }

  /** What the video sent to each participant may cost (lib/peer-stats.js, capVideoSender); kept for later connections. */
  setSendQuality(profile) {
    this.sendProfile = profile;
    for (const peer of this.peers.values()) this.capSender(peer);
  }

  capSender(peer) {
    if (!this.sendProfile) return;
    for (const t of peer.pc.getTransceivers()) {
      if (t.receiver.track?.kind === 'video' && t.currentDirection) capVideoSender(t.sender, this.sendProfile).catch(() => {});
    }
  }

  /** Sum of decoded video frames over all connections (tests and diagnostics). */
  async framesDecoded() {
    const result = {};
    for (const [id, stats] of Object.entries(await this.stats())) result[id] = stats.framesDecoded;
    return result;
  }

  /** What arrives from each remote participant (tests and diagnostics). */
  async stats() {
    const result = {};
    for (const [id, peer] of this.peers) {
      const out = { state: peer.pc.connectionState, streamId: peer.remoteStream?.id ?? null, framesDecoded: 0, frameWidth: 0, frameHeight: 0, audioPackets: 0, audioSamples: 0, audioEnergy: 0, sentVideo: null };
      const video = peer.pc.getTransceivers().find((t) => t.receiver.track?.kind === 'video');
      const encoding = video?.sender.getParameters().encodings?.[0];
      if (encoding) out.sentVideo = { track: video.sender.track?.label ?? null, maxBitrate: encoding.maxBitrate ?? null, scaleResolutionDownBy: encoding.scaleResolutionDownBy ?? null, maxFramerate: encoding.maxFramerate ?? null };
      const stats = await peer.pc.getStats();
      stats.forEach((s) => {
        if (s.type !== 'inbound-rtp') return;
        if (s.kind === 'video') {
          out.framesDecoded += s.framesDecoded || 0;
          out.frameWidth = s.frameWidth || out.frameWidth;
          out.frameHeight = s.frameHeight || out.frameHeight;
        } else if (s.kind === 'audio') {
          out.audioPackets += s.packetsReceived || 0;
          out.audioSamples += s.totalSamplesReceived || 0;
          out.audioEnergy += s.totalAudioEnergy || 0;
        }
      });
      result[id] = out;
    }
    return result;
  }
}

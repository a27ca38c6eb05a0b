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
// Every remote participant has a PeerHealth (lib/peer-health.js) from the
// moment it is known: its states go to `onPeerState(id, { state, attempt,
// hint? })`. The offering side carries out the remedies (ICE restart, new
// connections); the other side shows the same states and waits for them.
// "Try again" (`retry(id)`) starts a new connection from either side: the
// smaller id may then offer too, and where two offers cross, the greater
// id's wins (the smaller id's side gives way), as in WebRTC's "perfect
// negotiation" pattern.
//
// What the call needs of a media source (this mesh, or an SFU client beside
// it): onStream(id, stream), onGone(id), onPeerState(id, {state, attempt,
// hint}), retry(id); setLocalTracks, replaceAudio, replaceVideo; audioLevels(),
// connectionStats() and setSendQuality(profile) (lib/peer-stats.js).
import { hasTurn, mediaCarried, PeerHealth } from './peer-health.js';
import { capVideoSender, decodedFrames, figuresByPeer, levelsByPeer, receivedByPeer } from './peer-stats.js';

/** The session id of an SDP's o= line: the same for every offer of one connection, new for a new one. */
function sessionId(sdp) {
  return /^o=\S+ (\S+)/m.exec(sdp)?.[1] ?? null;
}

export class Mesh {
  constructor({ iceServers, iceTransportPolicy = 'all', send, onStream, onGone, onPeerState = () => {}, boundMs }) {
    this.iceServers = iceServers;
    this.iceTransportPolicy = iceTransportPolicy;
    this.send = send;
    this.onStream = onStream;
    this.onGone = onGone;
    this.onPeerState = onPeerState;
    this.sendProfile = null;
    this.boundMs = boundMs;
    /** The current connection to each remote participant that has one. */
    this.peers = new Map();
    /** Every known remote participant's PeerHealth, connection or not. */
    this.health = new Map();
    /** The remote participants as the server last listed them (what they say they send). */
    this.remotes = new Map();
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
    for (const id of new Set([...this.peers.keys(), ...this.health.keys()])) if (!ids.has(id)) this.drop(id);
    for (const p of participants) {
      if (p.id === this.selfId) continue;
      this.remotes.set(p.id, p);
      this.watch(p.id);
      if (this.drives(p.id) && !this.peers.has(p.id)) this.offer(p.id).catch(() => {});
    }
  }

  /** "Try again" for one remote participant: a new connection now. */
  retry(id) {
    this.health.get(id)?.retry();
  }

  /** Each remote participant's state, as last reported (tests and diagnostics). */
  peerStates() {
    const result = {};
    for (const [id, health] of this.health) result[id] = health.current;
    return result;
  }

  /** This side offers to `id`, and carries out the remedies when the connection fails. */
  drives(id) {
    return this.selfId > id;
  }

  /** The PeerHealth of `id`, created and started on first sight. */
  watch(id) {
    let health = this.health.get(id);
    if (health) return health;
    health = new PeerHealth(
      {
        onState: (report) => {
          if (report.state === 'connected') {
            const peer = this.peers.get(id);
            if (peer) this.capSender(peer);
          }
          this.onPeerState(id, report);
        },
        carried: (pc) => mediaCarried(pc, () => this.expectsMedia(id)),
        restartIce: () => this.drives(id) && this.restartIce(id),
        rebuild: () => this.drives(id) && this.rebuild(id),
        retry: () => this.rebuild(id),
      },
      { boundMs: this.boundMs, turn: hasTurn(this.iceServers) },
    );
    this.health.set(id, health);
    health.start();
    return health;
  }

  /** What the other side says it sends; unknown (an offer before the list): assume media. */
  expectsMedia(id) {
    const p = this.remotes.get(id);
    return p ? Boolean(p.audio || p.video || p.screen) : true;
  }

  restartIce(id) {
    const peer = this.peers.get(id);
    if (!peer) return void this.offer(id).catch(() => {});
    peer.pc.restartIce();
    void this.renegotiate(peer).catch(() => {});
  }

  rebuild(id) {
    const peer = this.peers.get(id);
    if (peer) this.close(peer);
    this.offer(id).catch(() => {});
  }

  async handle(message) {
    if (message.type === 'offer') {
      let peer = this.peers.get(message.from);
      const session = sessionId(message.sdp);
      if (peer && peer.pc.signalingState === 'have-local-offer') {
        // Two offers crossed (a "Try again" on the other side): the greater id's stands.
        if (this.drives(message.from)) return;
        if (session === peer.remoteSession) await peer.pc.setLocalDescription({ type: 'rollback' });
        else {
          this.close(peer);
          peer = undefined;
        }
      } else if (peer && peer.remoteSession && session !== peer.remoteSession) {
        // A different session is the other side starting over on a new
        // connection: applying it to the old one would fail.
        this.close(peer);
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
      peer.remoteSession = sessionId(message.sdp);
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
    const pc = new RTCPeerConnection({ iceServers: this.iceServers, iceTransportPolicy: this.iceTransportPolicy });
    const peer = { id, pc, pending: [], remoteStream: null, remoteSession: null };
    this.peers.set(id, peer);
    pc.addEventListener('icecandidate', (e) => {
      if (this.peers.get(id) !== peer) return;
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
    this.watch(id).attach(pc);
    return peer;
  }

  async offer(id) {
    const peer = this.create(id);
    const stream = this.localStream ? [this.localStream] : [];
    peer.pc.addTransceiver(this.audioTrack ?? 'audio', { direction: 'sendrecv', streams: stream });
    peer.pc.addTransceiver(this.videoTrack ?? 'video', { direction: 'sendrecv', streams: stream });
    await this.renegotiate(peer);
  }

  async renegotiate(peer) {
    await peer.pc.setLocalDescription(await peer.pc.createOffer());
    if (this.peers.get(peer.id) !== peer) return;
    this.send({ type: 'offer', to: peer.id, sdp: peer.pc.localDescription.sdp });
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

  /** Closes one connection; the participant stays (a new connection may follow). */
  close(peer) {
    peer.pc.close();
    if (this.peers.get(peer.id) === peer) this.peers.delete(peer.id);
  }

  /** The participant left: its connection, its state and its tile go. */
  drop(id) {
    const peer = this.peers.get(id);
    if (peer) this.close(peer);
    this.health.get(id)?.stop();
    this.health.delete(id);
    this.remotes.delete(id);
    this.onGone(id);
  }

  /** The participant's media comes another way now (the SFU): their connection and state go, their tile stays. */
  release(id) {
    const peer = this.peers.get(id);
    if (peer) this.close(peer);
    this.health.get(id)?.stop();
    this.health.delete(id);
    this.remotes.delete(id);
  }

  /** Whether a connection to `id` is open (or being made). */
  holds(id) {
    return this.peers.has(id) || this.health.has(id);
  }

  closeAll() {
    for (const id of new Set([...this.peers.keys(), ...this.health.keys()])) this.drop(id);
  }

  /** How loud each remote participant is now (0 to 1), for the active speaker. */
  audioLevels() {
    return levelsByPeer(this.peers);
  }

  /** Round trip, loss and bitrates per remote participant since the last call (lib/peer-stats.js). */
  connectionStats() {
    return figuresByPeer(this.peers);
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

  /** Video frames decoded on the current connection to `id` (0 without one). */
  async framesDecodedFrom(id) {
    const peer = this.peers.get(id);
    return peer ? decodedFrames(peer.pc) : 0;
  }

  /** What arrives from each remote participant (tests and diagnostics). */
  stats() {
    return receivedByPeer(this.peers);
  }
}

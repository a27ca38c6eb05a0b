// @module public/js/mesh — one RTCPeerConnection per remote participant (P2P mesh).
//
// Who offers: of two participants, the one with the greater id. Both learn
// of each other from the server's participant list, so exactly one side
// offers and offers never collide. Each connection carries one audio and
// one video transceiver from the start; muting, turning the camera off and
// screen sharing swap tracks with replaceTrack and never renegotiate.
export class Mesh {
  constructor({ iceServers, send, onStream, onGone }) {
    this.iceServers = iceServers;
    this.send = send;
    this.onStream = onStream;
    this.onGone = onGone;
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
      if (this.selfId > p.id) void this.offer(p.id);
    }
  }

  async handle(message) {
    if (message.type === 'offer') {
      const peer = this.peers.get(message.from) ?? this.create(message.from);
      await peer.pc.setRemoteDescription({ type: 'offer', sdp: message.sdp });
      for (const t of peer.pc.getTransceivers()) t.direction = 'sendrecv';
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
      const peer = this.peers.get(message.from) ?? this.create(message.from);
      if (!peer.pc.remoteDescription) peer.pending.push(message.candidate);
      else await this.addCandidate(peer, message.candidate);
    }
  }

  create(id) {
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    const peer = { id, pc, pending: [], stream: new MediaStream() };
    this.peers.set(id, peer);
    pc.addEventListener('icecandidate', (e) => {
      this.send({ type: 'ice', to: id, candidate: e.candidate ? e.candidate.toJSON() : null });
    });
    pc.addEventListener('track', (e) => {
      peer.stream.addTrack(e.track);
      this.onStream(id, peer.stream);
    });
    pc.addEventListener('connectionstatechange', () => {
      // A failed path (a network change) gets a fresh set of candidates, from the offering side.
      if (pc.connectionState === 'failed' && this.selfId > id) {
        pc.restartIce();
        void this.renegotiate(peer);
      }
    });
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
    this.send({ type: 'offer', to: peer.id, sdp: peer.pc.localDescription.sdp });
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

  drop(id) {
    const peer = this.peers.get(id);
    if (!peer) return;
    peer.pc.close();
    this.peers.delete(id);
    this.onGone(id);
  }

  closeAll() {
    for (const id of [...this.peers.keys()]) this.drop(id);
  }

  /** Sum of decoded video frames over all connections (tests and diagnostics). */
  async framesDecoded() {
    const result = {};
    for (const [id, peer] of this.peers) {
      let frames = 0;
      const stats = await peer.pc.getStats();
      stats.forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') frames += s.framesDecoded || 0;
      });
      result[id] = frames;
    }
    return result;
  }
}

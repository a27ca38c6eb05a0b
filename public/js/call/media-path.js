// @module public/js/call/media-path — where the call's media goes: the
// mesh (lib/mesh.js, one connection per person) until the server says the
// place uses the SFU (`sfu` `use`), then the SFU (lib/sfu.js, two
// connections whatever the size). It offers the call one media source with
// the mesh's interface, whichever carries the media.
//
// The move happens without a reload and without a frozen tile: the mesh
// connection to a person is kept until the SFU delivers that person's
// video (a decoded frame), and only then does the tile switch streams and
// the mesh connection close; a mesh connection that no longer carries
// anything goes after HANDOVER_MS. Someone new, whom the
// mesh never connected, is shown from the SFU at once. Once on the SFU,
// the place stays there until it ends (docs/video.md says why), so this
// page does not go back to the mesh; a rejoin (a new participant) starts
// from the mesh again until the server says otherwise.
//
// A shared screen takes the camera's place on the mesh (one video per
// connection, as before); on the SFU it is a stream of its own beside the
// camera (`onScreen`), shown once that person is handed over.
import { Mesh } from '../lib/mesh.js';
import { selectedPath } from '../lib/peer-stats.js';
import { SFU_PEER, SfuClient } from '../lib/sfu.js';

/** The longest the mesh carries a person after the move when the SFU has not shown them yet. */
const HANDOVER_MS = 8000;
const HANDOVER_POLL_MS = 200;

export class MediaPath {
  constructor(options) {
    this.options = options;
    const { onStream, onGone, onPeerState } = options;
    this.mesh = new Mesh({
      ...options,
      onStream: (id, stream) => {
        if (!this.handedOver(id)) onStream(id, stream);
      },
      onGone: (id) => {
        if (!this.sfu?.remote.has(id)) onGone(id);
      },
      onPeerState: (id, s) => {
        if (!this.handedOver(id)) onPeerState(id, s);
      },
    });
    this.sfu = null;
    /** Participants whose media the SFU carries for this page now (the mesh no longer does). */
    this.viaSfu = new Set();
    this.sfuState = null;
    this.participants = [];
    /** This page's stream, microphone, camera and shared screen. */
    this.local = [null, null, null, null];
    this.handover = undefined;
  }

  /** 'sfu' or 'mesh', for tests and diagnostics. */
  get mode() {
    return this.sfu ? 'sfu' : 'mesh';
  }

  get selfId() {
    return this.mesh.selfId;
  }

  handedOver(id) {
    return this.viaSfu.has(id);
  }

  setSelf(id) {
    this.mesh.setSelf(id);
  }

  /** `video` is the camera; `screen`, while one is shared, replaces it on the mesh and goes beside it through the SFU. */
  setLocalTracks(stream, audio, video, screen = null) {
    this.local = [stream, audio, video, screen];
    this.mesh.setLocalTracks(stream, audio, screen ?? video);
    this.sfu?.setLocalTracks(stream, audio, video, screen);
  }

  replaceVideo(track) {
    this.local[2] = track;
    this.mesh.replaceVideo(this.local[3] ?? track);
    this.sfu?.replaceVideo(track);
  }

  replaceAudio(track) {
    this.local[1] = track;
    this.mesh.replaceAudio(track);
    this.sfu?.replaceAudio(track);
  }

  sync(participants) {
    this.participants = participants;
    if (!this.sfu) return this.mesh.sync(participants);
    // On the SFU the mesh only keeps, until handed over, connections it has: nobody new is connected through it.
    this.mesh.sync(participants.filter((p) => p.id === this.mesh.selfId || this.mesh.holds(p.id)));
    for (const p of participants) if (p.id !== this.mesh.selfId && !this.mesh.holds(p.id) && this.sfuState) this.options.onPeerState(p.id, this.sfuState);
    return undefined;
  }

  /** The tile of `id` needs this much video ('high', 'low', 'off'): through the SFU, the layer it receives. */
  setWanted(id, wanted) {
    this.wanted ??= new Map();
    // The latest last, as the server orders them: the latest wants take the video slots.
    this.wanted.delete(id);
    this.wanted.set(id, wanted);
    this.sfu?.want(id, wanted);
  }

  /** Every tile's want to the SFU again: after a `welcome` the server's end may be new (a resume on another instance). */
  sayWantsAgain() {
    for (const [id, wanted] of this.wanted ?? []) this.sfu?.want(id, wanted, true);
  }

  retry(id) {
    if (this.sfu && !this.mesh.holds(id)) this.sfu.health.retry();
    else this.mesh.retry(id);
  }

  peerStates() {
    const states = this.mesh.peerStates();
    if (this.sfu) for (const p of this.participants) if (p.id !== this.mesh.selfId && !this.mesh.holds(p.id)) states[p.id] = this.sfu.health.current;
    return states;
  }

  async handle(m) {
    if (m.type === 'sfu' && m.event === 'use') {
      if (!this.sfu) return this.useSfu();
      return this.sfu.handle(m);
    }
    if (m.type === 'sfu' || m.from === SFU_PEER) return this.sfu?.handle(m);
    // On the SFU, nobody starts a mesh connection any more; those still handing over finish their business.
    if (this.sfu && (m.type === 'offer' || !this.mesh.holds(m.from))) return undefined;
    return this.mesh.handle(m);
  }

  /** The welcome said the place is on the SFU: publish at once (its `use` that follows finds this done). */
  joinSfu() {
    if (!this.sfu) this.useSfu();
  }

  useSfu() {
    const { iceServers, iceTransportPolicy, send, onStream, onPeerState, onTalking, boundMs } = this.options;
    this.sfu = new SfuClient({
      iceServers,
      iceTransportPolicy,
      send,
      boundMs,
      othersThere: () => this.participants.some((p) => p.id !== this.mesh.selfId),
      onTalking: (id, talking) => {
        if (id !== this.mesh.selfId) onTalking?.(id, talking);
      },
      onStream: (id, stream) => {
        if (!this.mesh.holds(id)) {
          this.viaSfu.add(id);
          onStream(id, stream);
        }
        this.watchHandover();
      },
      onGone: (id) => {
        this.viaSfu.delete(id);
        // Still listed (a new subscription is on its way): the tile stays, without a picture meanwhile.
        this.options.onGone(id);
      },
      // While the mesh still carries that person their screen is in their camera's place there: shown at the handover.
      onScreen: (id, stream) => {
        if (!stream || !this.mesh.holds(id)) this.options.onScreen?.(id, stream);
      },
      onState: (report) => {
        this.sfuState = report;
        for (const p of this.participants) if (p.id !== this.mesh.selfId && !this.mesh.holds(p.id)) onPeerState(p.id, report);
      },
    });
    this.sfu.setLocalTracks(...this.local);
    for (const [id, wanted] of this.wanted ?? []) this.sfu.want(id, wanted);
    this.sfu.start();
    this.handoverStarted = performance.now();
    this.watchHandover();
  }

  /** Hands each person over from the mesh to the SFU once the SFU shows them (or the handover took too long). */
  watchHandover() {
    if (this.handover) return;
    // A timeout that schedules the next once a round is done: a round waits on stats, and rounds must not overlap.
    // The loop's own token: a round of a loop stopped (and maybe started again) while it waited ends there.
    const loop = {};
    this.handoverLoop = loop;
    const round = async () => {
      if (this.handoverLoop !== loop) return undefined;
      if (!this.sfu) return this.stopHandover();
      const late = performance.now() - this.handoverStarted > HANDOVER_MS;
      const pending = this.participants.filter((p) => p.id !== this.mesh.selfId && this.mesh.holds(p.id));
      if (pending.length === 0) return this.stopHandover();
      const stats = await this.sfu.stats().catch(() => ({}));
      if (this.handoverLoop !== loop) return undefined;
      if (!this.sfu) return this.stopHandover();
      for (const p of pending) {
        if (!this.mesh.holds(p.id)) continue;
        const decoded = (stats[p.id]?.framesDecoded ?? 0) + (stats[p.id]?.screen?.framesDecoded ?? 0);
        const ready = this.sfu.remote.has(p.id) && (decoded > 0 || !(p.video || p.screen));
        // A mesh connection that still carries the person stays until the SFU shows them, however long that takes.
        const meshUp = this.mesh.peers.get(p.id)?.pc.connectionState === 'connected';
        if (!ready && !(late && !meshUp)) continue;
        this.mesh.release(p.id);
        const remote = this.sfu.remote.get(p.id);
        if (remote) {
          this.viaSfu.add(p.id);
          this.options.onStream(p.id, remote.stream);
        } else this.options.onGone(p.id);
        const screen = this.sfu.screens.get(p.id);
        if (screen) this.options.onScreen?.(p.id, screen.stream);
        if (this.sfuState) this.options.onPeerState(p.id, this.sfuState);
      }
      if (this.handoverLoop === loop) this.handover = setTimeout(round, HANDOVER_POLL_MS);
      return undefined;
    };
    this.handover = setTimeout(round, HANDOVER_POLL_MS);
  }

  stopHandover() {
    clearTimeout(this.handover);
    this.handover = undefined;
    this.handoverLoop = undefined;
  }

  closeAll() {
    this.stopHandover();
    this.sfu?.stop();
    this.sfu = null;
    this.sfuState = null;
    this.viaSfu.clear();
    this.mesh.closeAll();
  }

  audioLevels() {
    return { ...this.mesh.audioLevels(), ...(this.sfu?.audioLevels() ?? {}) };
  }

  async connectionStats() {
    return { ...(await this.mesh.connectionStats()), ...((await this.sfu?.connectionStats()) ?? {}) };
  }

  setSendQuality(profile) {
    // Through the SFU the layers are the adaptation: each receiver gets the one that fits.
    this.mesh.setSendQuality(profile);
  }

  async framesDecodedFrom(id) {
    if (this.viaSfu.has(id)) return this.sfu.framesDecodedFrom(id);
    return this.mesh.framesDecodedFrom(id);
  }

  async stats() {
    const mesh = await this.mesh.stats();
    const sfu = (await this.sfu?.stats()) ?? {};
    for (const id of this.viaSfu) if (sfu[id]) mesh[id] = sfu[id];
    return mesh;
  }

  async framesDecoded() {
    const result = {};
    for (const [id, s] of Object.entries(await this.stats())) result[id] = s.framesDecoded;
    return result;
  }

  /** Both SFU connections' ICE and DTLS figures, candidate pairs and the path media takes (tests and diagnostics). */
  async sfuPairs() {
    if (!this.sfu) return null;
    const describe = async (pc) => {
      if (!pc) return null;
      const out = [];
      const all = new Map();
      const report = await pc.getStats();
      report.forEach((s) => all.set(s.id, s));
      const transports = [];
      for (const s of all.values()) {
        if (s.type === 'transport') transports.push(`${s.iceState ?? '-'}/${s.dtlsState} role ${s.iceRole ?? '-'} dtlsRole ${s.dtlsRole ?? '-'} selected ${s.selectedCandidatePairId ?? '-'} pkts ${s.packetsReceived ?? 0}`);
        if (s.type !== 'candidate-pair') continue;
        const l = all.get(s.localCandidateId);
        const r = all.get(s.remoteCandidateId);
        out.push(`${s.id} ${l?.address}:${l?.port}->${r?.address}:${r?.port} ${s.state}${s.nominated ? ' nominated' : ''} req ${s.requestsSent}/${s.responsesReceived} in ${s.requestsReceived}/${s.responsesSent}`);
      }
      const setup = (pc.localDescription?.sdp.match(/a=setup:\w+/g) ?? [])[0];
      const remoteSetup = (pc.remoteDescription?.sdp.match(/a=setup:\w+/g) ?? [])[0];
      return { conn: pc.connectionState, ice: pc.iceConnectionState, setup, remoteSetup, transports, pairs: out, path: selectedPath(report) };
    };
    return { pub: await describe(this.sfu.pub), sub: await describe(this.sfu.sub) };
  }

  /** What the SFU side holds now (tests and diagnostics). */
  sfuDetails() {
    if (!this.sfu) return null;
    const { pub, sub, map, remote } = this.sfu;
    return { pub: pub?.connectionState ?? null, sub: sub?.connectionState ?? null, streams: map.size, carried: [...remote.keys()], viaSfu: [...this.viaSfu], mesh: [...this.mesh.peers.keys()], state: this.sfu.health.current };
  }

  /** How many RTCPeerConnections this page holds open now (tests and diagnostics). */
  connectionCount() {
    const sfu = this.sfu ? [this.sfu.pub, this.sfu.sub].filter((pc) => pc && pc.connectionState !== 'closed').length : 0;
    return this.mesh.peers.size + sfu;
  }
}

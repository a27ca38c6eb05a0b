/**
 * @module scripts/sfu-load/participant
 * A load participant without a browser: it joins a meeting over Foyer's
 * /ws as a page does, and on `sfu` `use` publishes the recorded stream
 * (replay.ts) on a werift connection with the reserved peer `sfu` (a
 * sendonly offer, audio and one VP8 layer, candidates in the description);
 * it answers the SFU's subscription offers on a second connection and asks
 * for at most `watches` videos (`sfu_want` low, the rest off), as a page's
 * grid does. What it receives is counted, not decrypted (unless `decrypt`),
 * so it sends no NACKs or receiver reports for it. Upload and download are the bytes its two connections' DTLS
 * transports sent and received (SRTP and SRTCP, UDP payload).
 */
// @ts-expect-error ws ships no typings; only send/on/close are used.
import WebSocketImpl from 'ws';
import { RTCPeerConnection, SrtpAuthenticationError, useOPUS, useVP8 } from 'werift';
import { gathered, type Recording } from './recording.ts';
import { Replay } from './replay.ts';
import { largeReceiveBuffers } from './udp.ts';

largeReceiveBuffers();

interface Socket {
  on(event: string, listener: (...args: any[]) => void): void;
  send(data: string): void;
  close(code?: number): void;
  terminate(): void;
}

type Message = { type: string; [key: string]: any };

const config = () => ({ codecs: { audio: [useOPUS()], video: [useVP8()] }, iceUseIpv6: false });

/** Thrown for every received media packet when only counting: werift counts it, then drops it as it drops a forged one. */
const DROP = new SrtpAuthenticationError('not decrypted: the load participant only counts what it receives');

/**
 * Received SRTP left undecrypted (its bytes still counted by the transport): decrypting 49 audio and 9 video streams
 * for each of 50 participants in JavaScript would take more CPU than the machine has, beside Janus.
 */
function countOnly(pc: RTCPeerConnection): void {
  for (const t of pc.dtlsTransports) {
    const srtp = (t as unknown as { srtp?: { decrypt: (data: Buffer) => Buffer; dropping?: boolean } }).srtp;
    if (!srtp || srtp.dropping) continue;
    srtp.dropping = true;
    srtp.decrypt = () => {
      throw DROP;
    };
  }
}

function bytesOf(pc: RTCPeerConnection | undefined): { sent: number; received: number } {
  let sent = 0;
  let received = 0;
  for (const t of pc?.dtlsTransports ?? []) {
    sent += t.bytesSent;
    received += t.bytesReceived;
  }
  return { sent, received };
}

/**
 * The load participants' SDP work (werift's, in JavaScript), one participant's at a time and each in a turn of the
 * event loop of its own. A newcomer publishing renegotiates everyone else's subscription at once (two m-lines per
 * person each): done back to back, the renegotiations of a large meeting held this process so long that no load
 * participant sent media or answered Janus's key frame requests meanwhile, as if every other person's browser had
 * stalled with each join (docs/video.md, "The join in two steps"). Between two turns the packets waiting are
 * handled; the work itself is the same. A turn that outlasts `TURN_MS` no longer holds up the next.
 */
const TURN_MS = 5000;
let sdpTurns: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const done = sdpTurns.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(work);
  sdpTurns = Promise.race([done, new Promise((resolve) => setTimeout(resolve, TURN_MS).unref())]).catch(() => {});
  return done;
}

export class LoadParticipant {
  id: string | undefined;
  private socket!: Socket;
  private pub: RTCPeerConnection | undefined;
  private sub: RTCPeerConnection | undefined;
  private subSession: string | undefined;
  private replays: Replay[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private wants = new Map<string, string>();
  /** Bytes of connections closed since (a replaced subscription). */
  private closedBytes = { sent: 0, received: 0 };
  errors: string[] = [];
  subscribed = 0;
  closed = false;
  /** The close code of its socket, once closed. */
  closeCode: number | undefined;

  constructor(
    readonly name: string,
    private readonly recording: Recording,
    private readonly watches: number,
    private readonly decrypt = false,
    /** False: their microphone is muted, sent as Opus DTX (replay.ts). */
    private readonly talking = true,
  ) {}

  async join(origin: string, meetingId: string): Promise<void> {
    this.socket = new WebSocketImpl(origin.replace(/^http/, 'ws') + '/ws') as Socket;
    const welcome = new Promise<void>((resolve, reject) => {
      this.socket.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as Message;
        if (m.type === 'welcome') {
          this.id = m.you?.id;
          resolve();
        } else if (m.type === 'error') {
          this.errors.push(`server: ${m.code} ${m.message}`);
          reject(new Error(`${this.name}: ${JSON.stringify(m)}`));
        }
        this.onMessage(m);
      });
      this.socket.on('close', (code: number) => {
        this.closed = true;
        this.closeCode = code;
        reject(new Error(`${this.name}: socket closed (${code})`));
      });
      this.socket.on('error', (e: Error) => reject(e));
      this.socket.on('open', () => this.send({ type: 'join', meetingId, name: this.name, audio: true, video: true }));
    });
    await welcome;
  }

  private send(m: unknown): void {
    this.socket.send(JSON.stringify(m));
  }

  /** Offers and answers one at a time, in the order they came. */
  private run(what: string, step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((e: Error) => this.errors.push(`${what}: ${e.message}`));
  }

  private onMessage(m: Message): void {
    if (m.type === 'sfu' && m.event === 'use') this.run('publish', () => this.publish());
    else if (m.type === 'answer' && m.from === 'sfu') this.run('answer', async () => this.pub?.setRemoteDescription({ type: 'answer', sdp: m.sdp }));
    else if (m.type === 'offer' && m.from === 'sfu') this.run('subscribe', () => this.subscribe(m.sdp, m.session));
    else if (m.type === 'sfu' && m.event === 'streams') this.want(m.streams as { mid: string; kind: string; from: string }[]);
  }

  private async publish(): Promise<void> {
    for (const r of this.replays) r.stop();
    if (this.pub) {
      this.addClosed(this.pub);
      await this.pub.close().catch(() => {});
    }
    const pc = (this.pub = new RTCPeerConnection(config()));
    const audio = pc.addTransceiver('audio', { direction: 'sendonly' });
    const video = pc.addTransceiver('video', { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    this.send({ type: 'offer', to: 'sfu', sdp: pc.localDescription!.sdp });
    this.replays = [new Replay(this.recording.audio, audio.sender, !this.talking), new Replay(this.recording.video, video.sender)];
  }

  private async subscribe(sdp: string, session: string | undefined): Promise<void> {
    if (!this.sub || session !== this.subSession) {
      if (this.sub) {
        this.addClosed(this.sub);
        await this.sub.close().catch(() => {});
      }
      const sub = (this.sub = new RTCPeerConnection(config()));
      this.subSession = session;
      if (!this.decrypt) sub.connectionStateChange.subscribe((state) => state === 'connected' && countOnly(sub));
    }
    const pc = this.sub;
    await inTurn(async () => {
      await pc.setRemoteDescription({ type: 'offer', sdp });
      await pc.setLocalDescription(await pc.createAnswer());
    });
    await gathered(pc);
    this.subscribed += 1;
    this.send({ type: 'answer', to: 'sfu', sdp: pc.localDescription!.sdp, ...(session ? { session } : {}) });
  }

  /** As a grid of `watches` tiles: the first videos low, the others off. */
  private want(streams: { kind: string; from: string }[]): void {
    const videos = [...new Set(streams.filter((s) => s.kind === 'video').map((s) => s.from))];
    videos.forEach((from, i) => {
      const video = i < this.watches ? 'low' : 'off';
      if (this.wants.get(from) === video) return;
      this.wants.set(from, video);
      this.send({ type: 'sfu_want', from, video });
    });
  }

  private addClosed(pc: RTCPeerConnection): void {
    const b = bytesOf(pc);
    this.closedBytes.sent += b.sent;
    this.closedBytes.received += b.received;
  }

  /** Bytes sent and received on both connections since the start. */
  bytes(): { sent: number; received: number } {
    const pub = bytesOf(this.pub);
    const sub = bytesOf(this.sub);
    return { sent: this.closedBytes.sent + pub.sent + sub.sent, received: this.closedBytes.received + pub.received + sub.received };
  }

  state(): string {
    return `pub ${this.pub?.connectionState ?? 'none'} (ice ${this.pub?.iceConnectionState ?? '-'}), sub ${this.sub?.connectionState ?? 'none'}`;
  }

  /** Publishing connected and, when anyone else publishes, the subscription connected. */
  connected(): boolean {
    return this.pub?.connectionState === 'connected' && (this.sub === undefined || this.sub.connectionState === 'connected');
  }

  async leave(): Promise<void> {
    for (const r of this.replays) r.stop();
    try {
      this.send({ type: 'leave' });
      this.socket.close(1000);
    } catch {
      // already closed
    }
    await Promise.all([this.pub?.close().catch(() => {}), this.sub?.close().catch(() => {})]);
  }
}

/**
 * @module scripts/sfu-load/replay
 * Plays a recorded track (recording.ts) in a loop on a werift sender, at
 * the pace of its RTP timestamps, with fresh sequence numbers and
 * timestamps from the wall clock. When Janus asks for a key frame (PLI or
 * FIR), the replay jumps to the recording's next key frame at once. One
 * timer drives every replay of the process.
 *
 * A muted microphone (`muted`) goes as a browser's does with Opus DTX,
 * which Foyer's SFU rooms ask for: about five packets a second (as
 * measured in Chromium), each holding only
 * the recorded packet's first byte (its TOC: a frame of no length, which
 * a decoder takes as silence), instead of fifty packets a second.
 */
import { RtpHeader, RtpPacket, type RTCRtpSender } from 'werift';
import type { Track } from './recording.ts';

/** A muted microphone with DTX sends one packet in this many of the recording's 20 ms frames (Chromium: 4.8 a second). */
const DTX_EVERY = 10;

const replays = new Set<Replay>();
let ticker: NodeJS.Timeout | undefined;

function tickAll(): void {
  const now = performance.now();
  for (const r of replays) r.tick(now);
}

export class Replay {
  private index = 0;
  private loopStart: number;
  private readonly t0: number;
  private readonly tsBase = Math.floor(Math.random() * 2 ** 31);
  private seq = Math.floor(Math.random() * 2 ** 15);
  private lastJump = -Infinity;
  /** A key frame asked for within 300 ms of the last jump: done at the end of those 300 ms. */
  private pending = false;
  keyframesAsked = 0;
  private stopRtcp: () => void;
  /** Frames played since the start: with `muted`, which of them still go out. */
  private played = 0;

  constructor(
    private readonly track: Track,
    private readonly sender: RTCRtpSender,
    private readonly muted = false,
  ) {
    this.t0 = this.loopStart = performance.now();
    const { unSubscribe } = sender.onRtcp.subscribe((packet) => {
      // Payload-specific feedback, told apart by its format (class names do not survive bundling): PLI 1, FIR 4.
      if (packet.type !== 206) return;
      const format = (packet as { feedback?: { count?: number } }).feedback?.count;
      if (format === 1 || format === 4) this.keyframe();
    });
    this.stopRtcp = unSubscribe;
    replays.add(this);
    ticker ??= setInterval(tickAll, 10);
  }

  /** Jumps to the next key frame (at most every 300 ms: Janus asks for each new subscriber). */
  keyframe(): void {
    if (this.track.kind !== 'video') return;
    this.keyframesAsked += 1;
    this.pending = true;
    this.jump(performance.now());
  }

  private jump(now: number): void {
    if (!this.pending || now - this.lastJump < 300) return;
    this.pending = false;
    this.lastJump = now;
    const frames = this.track.frames;
    let j = frames.findIndex((f, k) => k >= this.index && f.keyframe);
    if (j < 0) j = 0;
    this.index = j;
    this.loopStart = now - frames[j]!.atMs;
  }

  tick(now: number): void {
    this.jump(now);
    const frames = this.track.frames;
    // Far behind (a busy process): start from where the clock is.
    if (now - (this.loopStart + frames[this.index]!.atMs) > 500) this.loopStart = now - frames[this.index]!.atMs;
    for (;;) {
      const frame = frames[this.index]!;
      const due = this.loopStart + frame.atMs;
      if (due > now) return;
      const timestamp = (this.tsBase + Math.round(((due - this.t0) * this.track.clockRate) / 1000)) >>> 0;
      const dtx = this.muted && this.track.kind === 'audio';
      if (!dtx || this.played % DTX_EVERY === 0) {
        for (const p of frame.packets) {
          this.seq = (this.seq + 1) & 0xffff;
          const header = new RtpHeader({ sequenceNumber: this.seq, timestamp, marker: p.marker, payloadType: 96 });
          void this.sender.sendRtp(new RtpPacket(header, dtx ? p.payload.subarray(0, 1) : p.payload)).catch(() => {});
        }
      }
      this.played += 1;
      this.index += 1;
      if (this.index === frames.length) {
        this.index = 0;
        this.loopStart += this.track.loopMs;
      }
    }
  }

  stop(): void {
    this.stopRtcp();
    replays.delete(this);
    if (replays.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = undefined;
    }
  }
}

/**
 * @module scripts/sfu-load/recording
 * The pre-encoded stream the load participants publish: a few seconds of
 * VP8 and Opus RTP recorded once, at the start of a run, from one headless
 * Chromium page (its fake camera and microphone) sending to a werift peer
 * in this process over loopback. Nothing is downloaded; no browser is
 * needed afterwards. The recording starts at a key frame and asks for one
 * every second (PLI), so that a replay can jump to a key frame whenever
 * Janus asks for one.
 */
import type { Browser } from 'playwright-core';
import { RTCPeerConnection as WeriftPeer, useOPUS, useVP8, type RtpPacket } from 'werift';

/** Until a werift connection has gathered its candidates (they go in its description: no trickle here). */
export async function gathered(pc: WeriftPeer): Promise<void> {
  if (pc.iceGatheringState === 'complete') return;
  await new Promise<void>((resolve) => {
    const { unSubscribe } = pc.iceGatheringStateChange.subscribe((s) => {
      if (s === 'complete') {
        unSubscribe();
        resolve();
      }
    });
  });
}

export interface Frame {
  /** From the recording's first packet of this kind, in ms (from RTP timestamps). */
  atMs: number;
  keyframe: boolean;
  packets: { payload: Buffer; marker: boolean }[];
}

export interface Track {
  kind: 'audio' | 'video';
  clockRate: number;
  frames: Frame[];
  /** Length of one loop, in ms. */
  loopMs: number;
  /** Bytes of RTP payload in one loop, per second: the stream's bitrate before headers. */
  payloadBitsPerSecond: number;
}

export interface Recording {
  audio: Track;
  video: Track;
  width: number;
  height: number;
}

/** VP8 RTP payload (RFC 7741): the start of a key frame? */
export function isVp8Keyframe(payload: Buffer): boolean {
  const first = payload[0]!;
  const start = (first & 0x10) !== 0 && (first & 0x0f) === 0;
  if (!start) return false;
  let i = 1;
  if (first & 0x80) {
    const ext = payload[i++]!;
    if (ext & 0x80) i += payload[i]! & 0x80 ? 2 : 1;
    if (ext & 0x40) i += 1;
    if (ext & 0x30) i += 1;
  }
  return (payload[i]! & 0x01) === 0;
}

function track(kind: 'audio' | 'video', clockRate: number, packets: RtpPacket[]): Track {
  const frames: Frame[] = [];
  let first: number | undefined;
  let current: { ts: number; frame: Frame } | undefined;
  for (const p of packets) {
    const ts = p.header.timestamp;
    first ??= ts;
    if (!current || current.ts !== ts) {
      const atMs = (((ts - first) >>> 0) / clockRate) * 1000;
      current = { ts, frame: { atMs, keyframe: false, packets: [] } };
      frames.push(current.frame);
    }
    current.frame.packets.push({ payload: p.payload, marker: p.header.marker });
    if (kind === 'video' && isVp8Keyframe(p.payload)) current.frame.keyframe = true;
  }
  // Video from its first key frame only (a decoder can start nowhere else).
  const start = kind === 'video' ? frames.findIndex((f) => f.keyframe) : 0;
  if (start < 0) throw new Error('no VP8 key frame recorded');
  const kept = frames.slice(start);
  const base = kept[0]!.atMs;
  for (const f of kept) f.atMs -= base;
  const step = kept.length > 1 ? kept.at(-1)!.atMs / (kept.length - 1) : 20;
  const loopMs = kept.at(-1)!.atMs + step;
  const bytes = kept.reduce((n, f) => n + f.packets.reduce((m, p) => m + p.payload.length, 0), 0);
  return { kind, clockRate, frames: kept, loopMs, payloadBitsPerSecond: (bytes * 8) / (loopMs / 1000) };
}

/**
 * Records `seconds` of a Chromium page's camera (`width`×`height`, `fps`)
 * and microphone. `origin` is any http://127.0.0.1 page (a secure context
 * for getUserMedia).
 */
export async function record(browser: Browser, origin: string, options: { seconds: number; width: number; height: number; fps: number; videoBitrate: number }): Promise<Recording> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const pc = new WeriftPeer({ codecs: { audio: [useOPUS()], video: [useVP8()] }, iceUseIpv6: false });
  const packets = { audio: [] as RtpPacket[], video: [] as RtpPacket[] };
  let recording = false;
  let keyframeTimer: NodeJS.Timeout | undefined;
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/health`);
    const offer: string = await page.evaluate(async ({ width, height, fps }) => {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width, height, frameRate: fps } });
      const pc: RTCPeerConnection = new window.RTCPeerConnection();
      (window as any).recorderPc = pc;
      for (const t of stream.getTracks()) pc.addTransceiver(t, { direction: 'sendonly', streams: [stream] });
      await pc.setLocalDescription(await pc.createOffer());
      if (pc.iceGatheringState !== 'complete') await new Promise<void>((r) => pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && r()));
      return pc.localDescription!.sdp;
    }, options);
    pc.onTrack.subscribe((t) => {
      t.onReceiveRtp.subscribe((rtp) => {
        if (recording) packets[t.kind as 'audio' | 'video'].push(rtp.clone());
      });
    });
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
    await page.evaluate(async ({ sdp, bitrate }) => {
      const pc = (window as any).recorderPc as RTCPeerConnection;
      await pc.setRemoteDescription({ type: 'answer', sdp });
      const sender = pc.getSenders().find((s) => s.track?.kind === 'video')!;
      const params = sender.getParameters();
      params.encodings[0]!.maxBitrate = bitrate;
      await sender.setParameters(params);
    }, { sdp: pc.localDescription!.sdp, bitrate: options.videoBitrate });
    // A second for the encoder to settle, then the recording, with a key frame asked for every second.
    await new Promise((r) => setTimeout(r, 2000));
    const video = pc.getTransceivers().find((t) => t.kind === 'video')!;
    const askKeyframe = () => {
      const ssrc = video.receiver.track?.ssrc ?? video.receiver.tracks[0]?.ssrc;
      if (ssrc) void video.receiver.sendRtcpPLI(ssrc);
    };
    askKeyframe();
    recording = true;
    keyframeTimer = setInterval(askKeyframe, 1000);
    await new Promise((r) => setTimeout(r, options.seconds * 1000));
    recording = false;
    const size = await page.evaluate(async () => {
      const stats = await ((window as any).recorderPc as RTCPeerConnection).getStats();
      let out = { width: 0, height: 0 };
      stats.forEach((s: any) => {
        if (s.type === 'outbound-rtp' && s.kind === 'video') out = { width: s.frameWidth ?? 0, height: s.frameHeight ?? 0 };
      });
      return out;
    });
    return { audio: track('audio', 48000, packets.audio), video: track('video', 90000, packets.video), ...size };
  } finally {
    clearInterval(keyframeTimer);
    await pc.close().catch(() => {});
    await context.close().catch(() => {});
  }
}

/**
 * @module realtime/sessions/sfu-steps
 * What an SFU link's steps share: the rate of publishing offers, a link's
 * wait for a room again and how often it looks (`RoomWait`), how
 * long a detach may take, the SDP session of an offer, which of a
 * publishing offer's videos is the camera and which the screen, whom each
 * m-line of a subscription carries, which layer of each received video the
 * browser's tiles ask for, and whether Janus holds what was asked.
 */
import type { VideoRoomHandle, VideoRoomStream } from 'janode/plugins/videoroom';
import type { VideoWant } from '../protocol.ts';

/**
 * Publishing offers per participant. Each one on a new connection takes the participant out of the SFU room and in
 * again, so everyone else's subscription changes: a page that keeps offering would keep the whole meeting
 * renegotiating. A page needs a few at once (its first connections, an ICE restart, a screen shared and stopped);
 * beyond them the newest offer waits its turn, and the older ones are skipped.
 */
export const SFU_OFFER_RATE = Object.freeze({ burst: 6, everyMs: 2000 });

/** How often a link whose Janus went down asks for a room again. */
export const REPLACE_POLL_MS = 250;
/** The longest wait between two asks while no Janus can take the place (each link asks the database). */
export const REPLACE_POLL_MAX_MS = 2000;

/**
 * A link's wait for a room after its Janus went down (or a step outlived its deadline there): it asks for one (less
 * and less often) until a Janus can take the place, then calls `found`. One wait at a time; none once `stopped`.
 */
export class RoomWait {
  private waiting = false;

  constructor(
    private readonly roomFor: () => Promise<unknown>,
    /** The participant left. */
    private readonly stopped: () => boolean,
    private readonly found: () => void,
  ) {}

  start(): void {
    if (this.waiting || this.stopped()) return;
    this.waiting = true;
    const attempt = async (wait: number): Promise<void> => {
      if (this.stopped()) return;
      const placed = await this.roomFor().catch(() => undefined);
      if (this.stopped()) return;
      if (!placed) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        return attempt(Math.min(wait * 2, REPLACE_POLL_MAX_MS));
      }
      this.found();
    };
    void attempt(REPLACE_POLL_MS).finally(() => (this.waiting = false));
  }
}

/** Detaching from a Janus that went away must not hold the link up. */
const DETACH_DEADLINE_MS = 2000;

/** Detaches a handle, giving up after a short while (its Janus may be gone). */
export async function detachWithin(handle: VideoRoomHandle | undefined): Promise<void> {
  if (!handle) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, DETACH_DEADLINE_MS)));
  await Promise.race([handle.detach().catch(() => {}), deadline]);
  clearTimeout(timer);
}

/** The session id of an SDP's o= line: the same for every offer of one browser connection. */
export function sessionId(sdp: string): string | null {
  return /^o=\S+ (\S+)/m.exec(sdp)?.[1] ?? null;
}

/**
 * The publishing offer as Janus gets it, asking for Opus DTX (`usedtx=1`
 * on Opus's fmtp): Janus answers alike in a room made with `opus_dtx`
 * (rooms.ts), and the browser, reading the answer, sends a silent or
 * muted microphone as about 5 packets a second instead of 50. Only
 * a format parameter changes: the browser's own description, its ICE and
 * DTLS are untouched, and an offer saying `usedtx` already is left as it is.
 */
export function askingDtx(sdp: string): string {
  const opus = new Set([...sdp.matchAll(/^a=rtpmap:(\d+) opus\/48000/gim)].map((m) => m[1]));
  return sdp.replace(/^a=fmtp:(\d+) [^\r\n]*/gm, (line: string, pt: string) => (opus.has(pt) && !/(^|[ ;])usedtx=/.test(line) ? `${line};usedtx=1` : line));
}

/** A browser's candidate as Janus's trickle request takes it. */
export interface JanusCandidate {
  candidate: string;
  sdpMid?: string;
  sdpMLineIndex?: number;
}

export function janusCandidate(c: { candidate: string; sdpMid: string | null; sdpMLineIndex: number | null; usernameFragment?: string | null }): JanusCandidate {
  return { candidate: c.candidate, ...(c.sdpMid !== null ? { sdpMid: c.sdpMid } : {}), ...(c.sdpMLineIndex !== null ? { sdpMLineIndex: c.sdpMLineIndex } : {}) };
}

/** What a published video shows: Janus carries it to subscribers as the stream's description. */
export type VideoSource = 'camera' | 'screen';

/**
 * The publishing offer's videos described for Janus: the first video
 * m-line is the camera, any later one a shared screen (the browser adds
 * the screen's m-line after its camera's, docs/signalling.md).
 */
export function publishedDescriptions(sdp: string): Array<{ mid: string; description: VideoSource }> {
  const described: Array<{ mid: string; description: VideoSource }> = [];
  for (const section of sdp.split(/^(?=m=)/m)) {
    if (!section.startsWith('m=video')) continue;
    const mid = /^a=mid:(\S+)/m.exec(section)?.[1];
    if (mid) described.push({ mid, description: described.length === 0 ? 'camera' : 'screen' });
  }
  return described;
}

/** One m-line of the subscription as the browser is told (`sfu` `streams`). */
export type CarriedStream = { mid: string; kind: 'audio' | 'video'; from: string; source?: VideoSource };

/** The active audio and video m-lines of a subscriber's streams, each with its participant (`feeds`: by feed). */
export function carriedStreams(streams: VideoRoomStream[], feeds: ReadonlyMap<number, string>): CarriedStream[] {
  return streams.flatMap((s): CarriedStream[] => {
    const from = s.feed_id !== undefined ? (feeds.get(s.feed_id) ?? s.feed_display) : undefined;
    if (!from || s.active === false) return [];
    if (s.type === 'audio') return [{ mid: s.mid, kind: s.type, from }];
    if (s.type !== 'video') return [];
    return [{ mid: s.mid, kind: s.type, from, source: s.feed_description === 'screen' ? 'screen' : 'camera' }];
  });
}

export interface LayerSpec {
  mid: string;
  send: boolean;
  substream?: number;
}

/**
 * Each received video at the layer its tile needs (the highest for a large
 * tile, the lowest for a thumbnail), and none beyond `slots`: those m-lines
 * stay, paused, so a change needs no renegotiation. The latest wants win
 * the slots; only wants for people the subscription carries count (one who
 * left holds no slot). A video nobody asked about yet gets the highest layer.
 * Shared screens (`screenMids`) are always sent, whole: they are what
 * everyone looks at, sent in one layer, and take no slot.
 */
export function layerSpecs(
  wants: ReadonlyMap<string, VideoWant>,
  videoMids: ReadonlyMap<string, string>,
  slots: number,
  screenMids: Iterable<string> = [],
): LayerSpec[] {
  const wanted = [...wants].filter(([id, v]) => v !== 'off' && videoMids.has(id)).map(([id]) => id);
  const slotted = new Set(wanted.slice(-slots));
  const cameras = [...videoMids].map(([from, mid]) => {
    const want = wants.get(from) ?? 'high';
    const send = want !== 'off' && (!wants.has(from) || slotted.has(from));
    return { mid, send, ...(send ? { substream: want === 'low' ? 0 : 2 } : {}) };
  });
  return [...cameras, ...[...screenMids].map((mid) => ({ mid, send: true }))];
}

/**
 * Whether what Janus reports of a subscriber's m-line (in its offers' stream
 * lists) is what `spec` asked for: relayed or paused, and the layer asked for.
 * Janus sets an m-line back to relayed at the highest layer when it gives it to
 * another stream, which a request in between two offers can hide.
 */
export function janusHolds(spec: LayerSpec, stream: VideoRoomStream): boolean {
  if (stream.send !== undefined && stream.send !== spec.send) return false;
  const target = typeof stream.simulcast === 'object' ? stream.simulcast['substream-target'] : undefined;
  return !(spec.send && spec.substream !== undefined && target !== undefined && target !== spec.substream);
}

/** Whether two requests for one m-line ask the same (`a` undefined: none was made). */
export function sameSpec(a: LayerSpec | undefined, b: LayerSpec): boolean {
  return a !== undefined && a.mid === b.mid && a.send === b.send && a.substream === b.substream;
}

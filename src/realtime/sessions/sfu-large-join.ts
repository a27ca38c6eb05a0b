/**
 * @module realtime/sessions/sfu-large-join
 * Joining a meeting of more people than the page shows videos of, in two
 * steps. The first subscription offer carries only as many people as the
 * page shows videos of, `FIRST_FEEDS_AT_LEAST` at least (`firstFeeds`; the
 * subscription waits a moment for the page's wants before choosing them,
 * `WANTS_AWAITED_AT_MOST_MS`),
 * and the rest follows once its connection is up (`HeldBack`): the
 * browser answers, and Janus connects, an offer of a few m-lines much
 * sooner than one of the whole meeting (two per person), and the first
 * video comes through it meanwhile. The newcomer's publishing waits
 * meanwhile until that first subscription is up and its first frames are
 * on their way (`Gate`, `PUBLISH_AFTER_UP_MS`): a newcomer publishing sets
 * off a subscription update for every other person, which Janus's
 * VideoRoom handles one request at a time and every other browser answers,
 * and its own camera starts encoding; all of that would otherwise compete
 * with the newcomer's first frames. An offer for a few people costs little
 * either way: a meeting of up to `FIRST_FEEDS_AT_LEAST` others joins in
 * one step.
 */
import type { VideoRoomPublisher } from 'janode/plugins/videoroom';
import type { VideoWant } from '../protocol.ts';

export const FIRST_FEEDS_AT_LEAST = 6;
/** The rest joins the subscription this long after Janus reports its connection up… */
export const REST_AFTER_UP_MS = 500;
/** …or this long after the first answer at the latest. */
export const REST_AT_LATEST_MS = 3000;
/**
 * The newcomer publishes this long after Janus reports its first subscription up: by then the key frames Janus asks
 * the publishers for are mostly through (docs/video.md, "Publishing after the first subscription is up").
 */
export const PUBLISH_AFTER_UP_MS = 200;
/**
 * A first subscription taking some feeds first waits this long at most for the page to say which videos it shows
 * (its `sfu_want`s, sent as it lays out its tiles for `welcome`): taken without them, the first feeds may hold none
 * of the videos the page shows, and it shows none until the rest comes.
 */
export const WANTS_AWAITED_AT_MOST_MS = 400;
/** The page says it of every tile at once: the first of its wants is followed by the others this soon. */
export const WANTS_SETTLE_MS = 20;
/** The newcomer's publishing waits this long at most for the first subscription. */
export const PUBLISH_HELD_AT_MOST_MS = 3000;

/** How many feeds a first subscription takes at first. */
function firstCount(videoSlots: number): number {
  return Math.max(videoSlots, FIRST_FEEDS_AT_LEAST);
}

/** The audio and video streams a publisher sends now (a disabled one, such as a screen no longer shared, is not). */
export function liveStreams(p: VideoRoomPublisher): string[] {
  return (p.streams ?? []).filter((s) => (s.type === 'audio' || s.type === 'video') && !s.disabled).map((s) => s.mid);
}

/** Whether a first subscription to `publishers` (the room's list, the link's own feed `own` among them) takes all at once. */
export function takesAllAtFirst(publishers: VideoRoomPublisher[], own: number, videoSlots: number): boolean {
  const others = publishers.filter((p) => p.feed !== own && p.display && liveStreams(p).length > 0);
  return others.length <= firstCount(videoSlots);
}

/**
 * The feeds a first subscription takes first, `publishers` being each feed's participant: those whose video the
 * page shows (the latest wants among those present, as `layerSpecs` gives slots), then those talking, then those
 * the page said nothing of yet, then the others, each in the room's order; all of them where they are few.
 */
export function firstFeeds(publishers: ReadonlyMap<number, string>, wants: ReadonlyMap<string, VideoWant>, talking: ReadonlySet<number>, videoSlots: number): Set<number> {
  const present = new Set(publishers.values());
  const wanted = [...wants].filter(([id, v]) => v !== 'off' && present.has(id)).map(([id]) => id);
  const slotted = new Set(wanted.slice(-videoSlots));
  const rank = (feed: number, from: string) => (slotted.has(from) ? 0 : talking.has(feed) ? 1 : !wants.has(from) ? 2 : 3);
  const ranked = [...publishers].map(([feed, from], order) => ({ feed, order, rank: rank(feed, from) }));
  ranked.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return new Set(ranked.slice(0, firstCount(videoSlots)).map((r) => r.feed));
}

/** Work held back until released: in a given time, or sooner if asked for sooner already. */
export class HeldBack {
  held = false;
  private timer: NodeJS.Timeout | undefined;
  private at = Infinity;

  constructor(private readonly release: () => void) {}

  /** Held, and released in `atMostMs` unless sooner. */
  hold(atMostMs: number): void {
    this.held = true;
    this.releaseIn(atMostMs);
  }

  /** Released in `ms`, unless sooner already; nothing if not held. */
  releaseIn(ms: number): void {
    const at = Date.now() + ms;
    if (!this.held || at >= this.at) return;
    clearTimeout(this.timer);
    this.at = at;
    this.timer = setTimeout(() => {
      this.held = false;
      this.at = Infinity;
      this.release();
    }, ms);
  }

  /** Never released: the work is nobody's any more. */
  stop(): void {
    clearTimeout(this.timer);
    this.held = false;
    this.at = Infinity;
  }
}

/**
 * Steps held in the order they came while closed, run in that order when it opens (by itself after a while).
 * Each closing has its own key: opening with an older one (a closing since replaced) opens nothing.
 */
export class Gate {
  private waiting: Array<() => void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private key = 0;

  /** Holds what passes from now (and what is held already) until `open` with the key returned, or for `atMostMs`. */
  close(atMostMs: number): number {
    this.waiting ??= [];
    clearTimeout(this.timer);
    const key = ++this.key;
    this.timer = setTimeout(() => this.open(key), atMostMs);
    return key;
  }

  /** Runs what was held; `key` given, only if it is the latest closing's. */
  open(key?: number): void {
    if (key !== undefined && key !== this.key) return;
    clearTimeout(this.timer);
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    for (const step of waiting) step();
  }

  /** Drops what was held, and holds nothing more. */
  clear(): void {
    clearTimeout(this.timer);
    this.waiting = undefined;
    this.key += 1;
  }

  /** Runs `step` now if open (or `atOnce`), else once it opens. */
  pass(step: () => void, atOnce = false): void {
    if (this.waiting && !atOnce) this.waiting.push(step);
    else step();
  }
}

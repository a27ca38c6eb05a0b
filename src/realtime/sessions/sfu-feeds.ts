/**
 * @module realtime/sessions/sfu-feeds
 * The other publishers of the room as a participant's subscription knows
 * them (sfu-subscription.ts), kept apart from Janus: each feed's
 * participant, the audio and video streams it publishes now, whether it
 * was talking when last listed, and which of its streams the subscription
 * holds; from these, what to take in and what to let go of.
 */
import type { StreamSpec, VideoRoomPublisher } from 'janode/plugins/videoroom';
import { liveStreams } from './sfu-large-join.ts';

export class RoomFeeds {
  /** Other publishers of the room by feed: their participant id. */
  private readonly ids = new Map<number, string>();
  /** The audio and video streams (mids) each feed publishes now: a disabled one is not among them. */
  private readonly published = new Map<number, Set<string>>();
  /** Feeds talking when last listed. */
  private readonly talkers = new Set<number>();
  /** The publishers' streams in the subscription, by `feed mid`. */
  private readonly subscribed = new Map<string, { feed: number; mid: string }>();

  /** `ownFeed`: the link's own feed, never among them. */
  constructor(private readonly ownFeed: () => number) {}

  /** Each known feed's participant. */
  get participants(): ReadonlyMap<number, string> {
    return this.ids;
  }

  /** Feeds talking when last listed. */
  get talking(): ReadonlySet<number> {
    return this.talkers;
  }

  /** How many feeds publish now. */
  get count(): number {
    return this.published.size;
  }

  /** Publishers of the room as Janus lists them (all of them, or the ones that published or renegotiated). */
  listed(publishers: VideoRoomPublisher[]): void {
    for (const p of publishers) {
      if (p.feed === this.ownFeed() || !p.display) continue;
      this.ids.set(p.feed, p.display);
      if (p.talking || p.streams?.some((s) => s.talking)) this.talkers.add(p.feed);
      else this.talkers.delete(p.feed);
      if (!p.streams) continue; // Janus 1.x lists them always; without a list, what is subscribed stays
      this.published.set(p.feed, new Set(liveStreams(p)));
    }
  }

  /** Each feed that publishes now, and its participant. */
  publishing(): Map<number, string> {
    return new Map([...this.published.keys()].map((feed) => [feed, this.ids.get(feed) ?? '']));
  }

  /** A publisher unpublished or left (or went away meanwhile): forgotten until it publishes again. */
  gone(feed: number): void {
    this.ids.delete(feed);
    this.published.delete(feed);
    for (const [key, s] of this.subscribed) if (s.feed === feed) this.subscribed.delete(key);
  }

  /** The streams to take into the subscription and those to let go (of `feed` only, or of `feeds`, if given). */
  changes(feed?: number, feeds?: ReadonlySet<number>): { add: StreamSpec[]; drop: StreamSpec[] } {
    const add: Array<{ feed: number; mid: string }> = [];
    const drop: Array<{ feed: number; mid: string }> = [];
    for (const [f, mids] of this.published) {
      if ((feed !== undefined && f !== feed) || (feeds && !feeds.has(f))) continue;
      for (const mid of mids) if (!this.subscribed.has(`${f} ${mid}`)) add.push({ feed: f, mid });
    }
    for (const s of this.subscribed.values()) {
      if (feed !== undefined && s.feed !== feed) continue;
      if (this.published.get(s.feed)?.has(s.mid) === false) drop.push(s);
    }
    return { add, drop };
  }

  /** Streams taken into the subscription (`on`), or let go. */
  mark(list: StreamSpec[], on: boolean): void {
    for (const s of list) {
      if (on) this.subscribed.set(`${s.feed} ${s.mid}`, { feed: s.feed!, mid: s.mid! });
      else this.subscribed.delete(`${s.feed} ${s.mid}`);
    }
  }
}

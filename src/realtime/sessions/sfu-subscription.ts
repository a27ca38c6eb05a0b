/**
 * @module realtime/sessions/sfu-subscription
 * The receiving half of a participant's SFU link: one multistream
 * subscriber handle carrying everyone else's feeds to one browser
 * connection. Janus offers, the browser answers. The link's publisher
 * handle hears every publisher of the room come and go (on whatever
 * instance they are) and hands them here, so the subscription adds them
 * itself; Janus renegotiates by itself when one leaves (autoupdate).
 * Before each subscription offer the browser gets `sfu` `streams`: which
 * participant each m-line carries.
 *
 * Apart from the publishing half because the two live differently: the
 * publisher is one request per browser offer, while the subscription keeps
 * state across many offers (who is subscribed, which offer the browser
 * holds, which layer each video gets). Its steps run on the link's chain,
 * and each first checks that the link still uses this subscription.
 */
import { randomBytes } from 'node:crypto';
import VideoRoomPlugin, { type VideoRoomHandle, type VideoRoomPublisher, type VideoRoomStream } from 'janode/plugins/videoroom';
import type { JanusServer } from '../../sfu/janus-server.ts';
import { NO_SUCH_FEED, videoRoomErrorCode } from '../../sfu/rooms.ts';
import { SFU_PEER, type ServerMessage, type VideoWant } from '../protocol.ts';
import { layerSpecs } from './sfu-steps.ts';

/** VideoRoom's "Unexpected ANSWER (did we offer?)". */
const UNEXPECTED_ANSWER = 469;
/** A subscription offer not answered within this is given up (the browser rebuilds its connections by then). */
const ANSWER_DEADLINE_MS = 15_000;

/** What the subscription needs of its link. */
export interface SubscriptionLink {
  readonly server: JanusServer;
  readonly room: number;
  send(message: ServerMessage): void;
  /** Queues a step on the link's chain (its failures are the link's). */
  run(what: string, step: () => Promise<void>): void;
  /** False once the link has moved on (new connections, a Janus down, the participant gone): late work stops. */
  current(): boolean;
  /** How much of each participant's video the browser wants. */
  readonly wants: ReadonlyMap<string, VideoWant>;
  readonly videoSlots: number;
}

export class SfuSubscription {
  handle: VideoRoomHandle | undefined;
  /**
   * Names the subscription handle to the browser: one browser connection per
   * handle. Janus's offers cannot say it themselves (each has a new o=
   * session), and a new browser connection answering an old handle never
   * gets through DTLS (the handle keeps its first peer's handshake).
   */
  private id: string | undefined;
  /** Other publishers of the room by feed: their participant id. */
  private readonly feeds = new Map<number, string>();
  private readonly subscribed = new Set<number>();
  /** A subscription offer is with the browser; the next change waits for its answer. */
  private awaitingAnswer: NodeJS.Timeout | undefined;
  /** The last subscription offer sent: Janus may report one offer both as the update's result and as an event. */
  private lastOffer: string | undefined;
  /** The subscription's video m-line of each participant, as of the last offer. */
  private videoMids = new Map<string, string>();
  /** What was last asked of Janus per video m-line. */
  private readonly applied = new Map<string, string>();

  constructor(
    private readonly link: SubscriptionLink,
    /** The link's own feed: never subscribed to. */
    private readonly ownFeed: () => number,
  ) {}

  /** The participant publishing `feed`, if known. */
  participantOf(feed: number): string | undefined {
    return this.feeds.get(feed);
  }

  /** Publishers of the room (all of them, or the ones just published): each is subscribed to. */
  publishers(publishers: VideoRoomPublisher[]): void {
    for (const p of publishers) {
      if (p.feed !== this.ownFeed() && p.display) this.feeds.set(p.feed, p.display);
    }
    this.link.run('subscribe', () => this.subscribe());
  }

  /** A publisher unpublished or left: Janus takes its m-lines out by itself. */
  gone(feed: number): void {
    this.feeds.delete(feed);
    this.subscribed.delete(feed);
  }

  /** The link is done with this subscription: nothing more waits for the browser. */
  stop(): void {
    clearTimeout(this.awaitingAnswer);
    this.awaitingAnswer = undefined;
  }

  /** Adds every publisher not yet subscribed to the one subscription (joining it the first time). */
  async subscribe(): Promise<void> {
    if (!this.link.current() || this.awaitingAnswer) return;
    const wanted = [...this.feeds.keys()].filter((feed) => !this.subscribed.has(feed));
    if (wanted.length === 0) return;
    for (const feed of wanted) this.subscribed.add(feed);
    try {
      await this.request(wanted);
    } catch (error) {
      for (const feed of wanted) this.subscribed.delete(feed);
      if (videoRoomErrorCode(error) !== NO_SUCH_FEED || wanted.length === 1) {
        // A feed that went away meanwhile: forgotten until it publishes again, when the room announces it.
        for (const feed of wanted) this.feeds.delete(feed);
        throw error;
      }
      // One of several went away (a publisher starting over): the others are still wanted, each on its own,
      // the first of them joining the subscription if this was to be its start.
      for (const feed of wanted) this.link.run('subscribe', () => this.subscribeOne(feed));
    }
  }

  /** After a failed batch: one feed at a time, so one that went away cannot keep the others out. */
  private async subscribeOne(feed: number): Promise<void> {
    if (!this.link.current() || !this.feeds.has(feed) || this.subscribed.has(feed)) return;
    if (this.awaitingAnswer) return; // the answer's step subscribes everyone still missing
    this.subscribed.add(feed);
    try {
      await this.request([feed]);
    } catch (error) {
      this.subscribed.delete(feed);
      this.feeds.delete(feed);
      throw error;
    }
  }

  /** Asks Janus to carry `feeds` too: joining the room as a subscriber the first time, updating the subscription after. */
  private async request(feeds: number[]): Promise<void> {
    const streams = feeds.map((feed) => ({ feed }));
    if (this.handle) {
      const result = await this.handle.update({ subscribe: streams });
      if (result.jsep) this.offer(result.streams ?? this.handle.streams ?? [], result.jsep.sdp);
      return;
    }
    const sub = await this.link.server.attach();
    // Janus offers again by itself when a publisher leaves (autoupdate).
    sub.on(VideoRoomPlugin.EVENT.VIDEOROOM_UPDATED, (e: { streams?: VideoRoomStream[]; jsep?: { type: 'offer'; sdp: string } }) => {
      if (e.jsep && this.link.current() && this.handle === sub) this.offer(e.streams ?? sub.streams ?? [], e.jsep.sdp);
    });
    const result = await sub.joinSubscriber({ room: this.link.room, streams, autoupdate: true }).catch(async (error: unknown) => {
      await sub.detach().catch(() => {});
      throw error;
    });
    if (!this.link.current()) {
      // The link moved on while Janus answered: this handle is nobody's.
      await sub.detach().catch(() => {});
      return;
    }
    this.handle = sub;
    this.id = randomBytes(9).toString('base64url');
    if (result.jsep) this.offer(result.streams, result.jsep.sdp);
  }

  private offer(streams: VideoRoomStream[], sdp: string): void {
    if (sdp === this.lastOffer) return;
    this.lastOffer = sdp;
    const carried = streams.flatMap((s) => {
      const from = s.feed_id !== undefined ? (this.feeds.get(s.feed_id) ?? s.feed_display) : undefined;
      return (s.type === 'audio' || s.type === 'video') && s.active !== false && from ? [{ mid: s.mid, kind: s.type, from }] : [];
    });
    clearTimeout(this.awaitingAnswer);
    this.awaitingAnswer = setTimeout(() => {
      this.awaitingAnswer = undefined;
      // Publishers that arrived meanwhile are not left out for good.
      this.link.run('subscribe', () => this.subscribe());
    }, ANSWER_DEADLINE_MS);
    this.videoMids = new Map(carried.filter((c) => c.kind === 'video').map((c) => [c.from, c.mid]));
    // m-lines may carry someone else now: ask again.
    this.applied.clear();
    this.link.send({ type: 'sfu', event: 'streams', streams: carried });
    this.link.send({ type: 'offer', from: SFU_PEER, sdp, ...(this.id ? { session: this.id } : {}) });
  }

  /** The browser's answer to the last offer (`subscription`: the one the offer named). */
  async answered(sdp: string, subscription: string | undefined): Promise<void> {
    if (!this.handle || !this.link.current()) return;
    // The answer of a browser connection made for a subscription replaced since: Janus's handle would take it for an ICE restart.
    if (subscription !== undefined && subscription !== this.id) return;
    try {
      await this.handle.start({ jsep: { type: 'answer', sdp } });
    } catch (error) {
      // An answer to an offer Janus replaced meanwhile (a publisher left while one arrived): its newer offer is on the way.
      if (videoRoomErrorCode(error) !== UNEXPECTED_ANSWER) throw error;
    } finally {
      if (this.link.current()) this.stop();
    }
    // Publishers that arrived meanwhile.
    await this.subscribe();
    await this.applyWants();
  }

  /** Each video of the subscription at the layer its tile needs, none beyond the video slots (sfu-steps.ts, layerSpecs). */
  async applyWants(): Promise<void> {
    const sub = this.handle;
    if (!sub || !this.link.current()) return;
    for (const spec of layerSpecs(this.link.wants, this.videoMids, this.link.videoSlots)) {
      const key = JSON.stringify(spec);
      if (this.applied.get(spec.mid) === key) continue;
      this.applied.set(spec.mid, key);
      // One m-line at a time: one that Janus no longer has (its publisher just left) must not hold up the others.
      await sub.configure({ streams: [spec] }).catch(() => this.applied.delete(spec.mid));
    }
  }
}

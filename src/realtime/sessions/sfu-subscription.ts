/**
 * @module realtime/sessions/sfu-subscription
 * The receiving half of a participant's SFU link: one multistream
 * subscriber handle carrying everyone else's feeds to one browser
 * connection. Janus offers, the browser answers. The link's publisher
 * handle hears every publisher of the room come and go (on whatever
 * instance they are), and each publisher's streams as they change (a
 * screen shared, then no longer), and hands them here: the subscription
 * takes each stream itself, by feed and mid, and lets go of the ones a
 * publisher disabled, which Janus keeps otherwise. Janus renegotiates by
 * itself when a publisher leaves (autoupdate). Before each subscription
 * offer the browser gets `sfu` `streams`: which participant each m-line
 * carries, and whether a video is their camera or their screen. Joining a
 * meeting of more people than the page shows videos of, it waits a moment
 * for the page to say which, takes that many first (six at least) and the
 * rest once its connection is up (sfu-large-join.ts).
 *
 * Apart from the publishing half because the two live differently: the
 * publisher is one request per browser offer, while the subscription keeps
 * state across many offers (who is subscribed, in sfu-feeds.ts; which offer
 * the browser holds, which layer each video gets). Its steps run on the
 * link's chain, and each first checks that the link still uses this
 * subscription.
 */
import { randomBytes } from 'node:crypto';
import Janode from 'janode';
import VideoRoomPlugin, { type StreamSpec, type VideoRoomHandle, type VideoRoomPublisher, type VideoRoomStream } from 'janode/plugins/videoroom';
import type { JanusServer } from '../../sfu/janus-server.ts';
import { NO_SUCH_FEED, videoRoomErrorCode } from '../../sfu/rooms.ts';
import { SFU_PEER, type ServerMessage, type VideoWant } from '../protocol.ts';
import { carriedStreams, janusHolds, layerSpecs, sameSpec, type JanusCandidate, type LayerSpec } from './sfu-steps.ts';
import { firstFeeds, HeldBack, PUBLISH_AFTER_UP_MS, REST_AFTER_UP_MS, REST_AT_LATEST_MS, WANTS_AWAITED_AT_MOST_MS, WANTS_SETTLE_MS } from './sfu-large-join.ts';
import { RoomFeeds } from './sfu-feeds.ts';

/** VideoRoom's "Unexpected ANSWER (did we offer?)". */
const UNEXPECTED_ANSWER = 469;
/** A subscription offer not answered within this is given up, and publishers that arrived meanwhile are asked for. */
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
  /** The room's other publishers, their streams, and which of them the subscription holds (sfu-feeds.ts). */
  private readonly feeds: RoomFeeds;
  /** Joined with the first feeds only: the rest waits for the connection. */
  private readonly rest = new HeldBack(() => this.link.run('subscribe', () => this.subscribe()));
  /** The first feeds wait for the page's wants; once only, so that a first subscription tried again does not wait again. */
  private readonly untilWants = new HeldBack(() => this.link.run('subscribe', () => this.subscribe()));
  private waitedForWants = false;
  /**
   * Resolves `PUBLISH_AFTER_UP_MS` after Janus reports up a first subscription taking some feeds first; at once for
   * any other, and when the subscription fails, its connection fails or it stops. An answer Janus takes for one to
   * an older offer (a publisher left meanwhile) waits for the newer offer's connection. The link's publishing waits
   * for it (sfu-large-join.ts).
   */
  readonly firstUp: Promise<void>;
  private firstUpDone!: () => void;
  /** A subscription offer is with the browser; the next change waits for its answer. */
  private awaitingAnswer: NodeJS.Timeout | undefined;
  /** The last subscription offer sent: Janus may report one offer both as the update's result and as an event. */
  private lastOffer: string | undefined;
  /** How many offers went to the browser. */
  private offers = 0;
  /** How many of the browser's answers went to Janus: never more than the offers made. */
  private answers = 0;
  /** The subscription's camera m-line of each participant, as of the last offer. */
  private videoMids = new Map<string, string>();
  /** The subscription's m-lines of shared screens, as of the last offer. */
  private screenMids: string[] = [];
  /** What was last asked of Janus per video m-line. */
  private readonly applied = new Map<string, LayerSpec>();
  /** The publisher's stream each m-line carries (`feed mid`; '' once inactive), as of the last offer. */
  private carriers = new Map<string, string>();

  constructor(
    private readonly link: SubscriptionLink,
    /** The link's own feed: never subscribed to. */
    ownFeed: () => number,
  ) {
    this.feeds = new RoomFeeds(ownFeed);
    this.firstUp = new Promise((resolve) => (this.firstUpDone = resolve));
  }

  /** Whether `id` names this subscription (its offers went to the browser as `session` `id`). */
  named(id: string): boolean {
    return this.id === id;
  }

  /** The participant publishing `feed`, if known. */
  participantOf(feed: number): string | undefined {
    return this.feeds.participants.get(feed);
  }

  /** Publishers of the room (all of them, or the ones that published or renegotiated): their streams are subscribed to. */
  publishers(publishers: VideoRoomPublisher[]): void {
    this.feeds.listed(publishers);
    this.link.run('subscribe', () => this.subscribe());
  }

  /** A publisher unpublished or left: Janus takes its m-lines out by itself. */
  gone(feed: number): void {
    this.feeds.gone(feed);
  }

  /** The page said how much of someone's video it wants: a first subscription waiting for that goes on. */
  wanted(): void {
    this.untilWants.releaseIn(WANTS_SETTLE_MS);
  }

  /** The link is done with this subscription: nothing more waits for the browser. */
  stop(): void {
    this.stopAwaitingAnswer();
    this.rest.stop();
    this.untilWants.stop();
    this.firstUpDone();
  }

  private stopAwaitingAnswer(): void {
    clearTimeout(this.awaitingAnswer);
    this.awaitingAnswer = undefined;
  }

  /**
   * Brings the one subscription in step with what the publishers publish
   * (joining it the first time): their new streams in, their disabled ones
   * out. With `feed`, that publisher's only.
   */
  async subscribe(feed?: number): Promise<void> {
    if (!this.link.current() || this.awaitingAnswer || this.rest.held || this.untilWants.held) return;
    const firsts = !this.handle && feed === undefined ? firstFeeds(this.feeds.publishing(), this.link.wants, this.feeds.talking, this.link.videoSlots) : undefined;
    const first = firsts !== undefined && firsts.size < this.feeds.count;
    if (first && this.link.wants.size === 0 && !this.waitedForWants) {
      this.waitedForWants = true;
      this.untilWants.hold(WANTS_AWAITED_AT_MOST_MS);
      return;
    }
    if (!first) this.firstUpDone();
    const { add, drop } = this.feeds.changes(feed, first ? firsts : undefined);
    if (add.length === 0 && (drop.length === 0 || !this.handle)) return;
    this.feeds.mark(add, true);
    this.feeds.mark(drop, false);
    try {
      await this.request(add, drop);
      // The rest waits for the connection, or for as long as the answer may take at most.
      if (first && this.handle) this.rest.hold(ANSWER_DEADLINE_MS);
    } catch (error) {
      this.firstUpDone();
      this.feeds.mark(add, false);
      this.feeds.mark(drop, true);
      const feeds = [...new Set(add.map((s) => s.feed!))];
      if (videoRoomErrorCode(error) !== NO_SUCH_FEED) throw error;
      if (feeds.length <= 1) {
        // A feed that went away meanwhile: forgotten until it publishes again, when the room announces it.
        for (const f of feeds) this.feeds.gone(f);
        throw error;
      }
      // One of several went away (a publisher starting over): the others are still wanted, each on its own, the
      // first of them joining the subscription if this was to be its start.
      for (const f of feeds) this.link.run('subscribe', () => this.subscribe(f));
    }
  }

  /** Asks Janus for `add` and to let go of `drop`: joining the room as a subscriber the first time, updating the subscription after. */
  private async request(add: StreamSpec[], drop: StreamSpec[]): Promise<void> {
    if (this.handle) {
      const result = await this.handle.update({ ...(add.length ? { subscribe: add } : {}), ...(drop.length ? { unsubscribe: drop } : {}) });
      if (result.jsep) this.offer(result.streams ?? this.handle.streams ?? [], result.jsep.sdp);
      return;
    }
    const sub = await this.link.server.attach();
    // Janus offers again by itself when a publisher leaves (autoupdate).
    sub.on(VideoRoomPlugin.EVENT.VIDEOROOM_UPDATED, (e: { streams?: VideoRoomStream[]; jsep?: { type: 'offer'; sdp: string } }) => {
      if (e.jsep && this.link.current() && this.handle === sub) this.offer(e.streams ?? sub.streams ?? [], e.jsep.sdp);
    });
    sub.once(Janode.EVENT.HANDLE_WEBRTCUP, () => {
      this.rest.releaseIn(REST_AFTER_UP_MS);
      setTimeout(this.firstUpDone, PUBLISH_AFTER_UP_MS);
    });
    // A connection that failed keeps the newcomer's publishing waiting for nothing.
    sub.once(Janode.EVENT.HANDLE_ICE_FAILED, this.firstUpDone);
    sub.once(Janode.EVENT.HANDLE_HANGUP, this.firstUpDone);
    const result = await sub.joinSubscriber({ room: this.link.room, streams: add, autoupdate: true }).catch(async (error: unknown) => {
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
    if (sdp === this.lastOffer || !this.link.current()) return;
    this.lastOffer = sdp;
    this.offers += 1;
    const carried = carriedStreams(streams, this.feeds.participants);
    clearTimeout(this.awaitingAnswer);
    this.awaitingAnswer = setTimeout(() => {
      this.awaitingAnswer = undefined;
      // Publishers that arrived meanwhile are not left out for good.
      this.link.run('subscribe', () => this.subscribe());
    }, ANSWER_DEADLINE_MS);
    this.videoMids = new Map(carried.filter((c) => c.source === 'camera').map((c) => [c.from, c.mid]));
    this.screenMids = carried.filter((c) => c.source === 'screen').map((c) => c.mid);
    // Only an m-line that carries another stream now (Janus reuses those of publishers gone), or of which Janus
    // reports other than was asked, is asked for again: Janus handles its requests one at a time, and everyone's
    // subscription asking again for all its m-lines whenever someone joins queues them before the newcomer's answer.
    const carriers = new Map(streams.map((s) => [s.mid, s.active === false ? '' : `${s.feed_id} ${s.feed_mid ?? ''}`]));
    const reported = new Map(streams.map((s) => [s.mid, s]));
    for (const [mid, asked] of [...this.applied]) {
      const stream = reported.get(mid);
      if (!stream || carriers.get(mid) !== this.carriers.get(mid) || !janusHolds(asked, stream)) this.applied.delete(mid);
    }
    this.carriers = carriers;
    this.link.send({ type: 'sfu', event: 'streams', streams: carried });
    this.link.send({ type: 'offer', from: SFU_PEER, sdp, ...(this.id ? { session: this.id } : {}) });
    // Layers and pauses set while the browser answers, so that its media starts as its tiles want it: otherwise
    // Janus sends every video of the offer at the highest layer until then (48 at once to a newcomer in a meeting
    // of 50, for the page to decode on arrival).
    this.link.run('choose layers', () => this.applyWants());
  }

  /** The browser's answer to the last offer (`subscription`: the one the offer named). */
  async answered(sdp: string, subscription: string | undefined): Promise<void> {
    if (!this.handle || !this.link.current()) return;
    // The answer of a browser connection made for a subscription replaced since: Janus's handle would take it for an ICE restart.
    if (subscription !== undefined && subscription !== this.id) return;
    // Never more answers than offers: beyond them an answer answers nothing, and each would cost Janus a round and the
    // link a resubscription. A running total, not a reckoning per offer: an answer to an offer Janus replaced meanwhile
    // still counts, and the answer to the newer offer, right behind it, must reach Janus too.
    if (this.answers >= this.offers) return;
    this.answers += 1;
    const offers = this.offers;
    try {
      await this.handle.start({ jsep: { type: 'answer', sdp } });
    } catch (error) {
      // An answer to an offer Janus replaced meanwhile (a publisher left while one arrived): its newer offer is on the way.
      if (videoRoomErrorCode(error) !== UNEXPECTED_ANSWER) {
        this.firstUpDone();
        throw error;
      }
    } finally {
      // Unless Janus offered again meanwhile (by itself, a publisher leaving): the browser holds that offer now.
      if (this.link.current() && this.offers === offers) this.stopAwaitingAnswer();
      this.rest.releaseIn(REST_AT_LATEST_MS);
    }
    // Publishers that arrived meanwhile.
    await this.subscribe();
    await this.applyWants();
  }

  /** A candidate of the browser's connection for subscription `session`; one for a subscription replaced since is dropped. */
  async trickle(candidate: JanusCandidate | null, session: string): Promise<void> {
    if (!this.handle || session !== this.id || !this.link.current()) return;
    await this.handle.trickle(candidate);
  }

  /**
   * Each camera of the subscription at the layer its tile needs, none beyond the video slots, every screen whole
   * (sfu-steps.ts, layerSpecs): what changed, in one request.
   */
  async applyWants(): Promise<void> {
    const sub = this.handle;
    if (!sub || !this.link.current()) return;
    const changed = layerSpecs(this.link.wants, this.videoMids, this.link.videoSlots, this.screenMids).filter((spec) => !sameSpec(this.applied.get(spec.mid), spec));
    if (changed.length === 0) return;
    for (const spec of changed) this.applied.set(spec.mid, spec);
    const refused = await sub.configure({ streams: changed }).then(() => false, () => true);
    if (!refused || changed.length === 1) {
      if (refused) this.applied.delete(changed[0]!.mid);
      return;
    }
    // Refused whole (an m-line Janus no longer has: its publisher just left): one at a time, so that one cannot hold up the others.
    for (const spec of changed) await sub.configure({ streams: [spec] }).catch(() => this.applied.delete(spec.mid));
  }
}

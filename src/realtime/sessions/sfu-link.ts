/**
 * @module realtime/sessions/sfu-link
 * The SFU's peer for one participant: what stands at the other end of the
 * browser's messages to the reserved peer `sfu`. It holds two VideoRoom
 * handles on the place's Janus (the placement says which):
 * - a publisher: the browser's `offer` (its sending connection, one camera
 *   and one microphone, simulcast where the browser does it) is joined to
 *   the SFU room, and Janus's `answer` goes back;
 * - one subscriber for everyone else's feeds (multistream): Janus offers,
 *   the browser answers. The publisher's handle hears every publisher of
 *   the room come and go (on whatever instance they are), so the link adds
 *   them to the subscription itself; Janus renegotiates by itself when one
 *   leaves (autoupdate). Before each subscription offer the browser gets
 *   `sfu` `streams`: which participant each m-line carries.
 * Descriptions carry their candidates (no trickle, in either direction):
 * the browser sends its description once gathered, Janus answers with its
 * own candidates in it.
 *
 * A new publishing offer (a new SDP session: the browser rebuilt its
 * connections) starts the link over; the same session renegotiates (an ICE
 * restart). When the link's Janus goes down the link waits for the place to
 * have a room again (on another Janus, or the same one restarted) and tells
 * the browser to publish again (`sfu` `use` with `restart`).
 *
 * Janus's own work is serialized per link, and never holds up the
 * participant's other messages.
 */
import { randomBytes } from 'node:crypto';
import VideoRoomPlugin, { type VideoRoomHandle, type VideoRoomPublisher, type VideoRoomStream } from 'janode/plugins/videoroom';
import type { PlaceRef } from '../../domain/presence.ts';
import type { JanusServer } from '../../sfu/janus-server.ts';
import { NO_SUCH_FEED, videoRoomErrorCode } from '../../sfu/rooms.ts';
import { SFU_PEER, type ServerMessage, type VideoWant } from '../protocol.ts';
import type { RealtimeLogger, SfuLinkRole, SfuRouting } from '../session.ts';
import { detachWithin, layerSpecs, sessionId, SfuStepTimeout, withDeadline } from './sfu-steps.ts';

/** VideoRoom's "Unexpected ANSWER (did we offer?)". */
const UNEXPECTED_ANSWER = 469;
/** How often a link whose Janus went down asks for a room again. */
const REPLACE_POLL_MS = 250;
/** The longest wait between two asks while no Janus can take the place (each link asks the database). */
const REPLACE_POLL_MAX_MS = 2000;
/** A subscription offer not answered within this is given up (the browser rebuilds its connections by then). */
const ANSWER_DEADLINE_MS = 15_000;

export interface SfuLinkOwner {
  /** The participant's id (the display of their feed in the SFU room). */
  readonly id: string;
  readonly place: PlaceRef;
  send(message: ServerMessage): void;
  /** Keeps work the instance should wait for when it stops. */
  track<T>(promise: Promise<T>): Promise<T>;
}

interface Joined {
  server: JanusServer;
  room: number;
  pub: VideoRoomHandle;
  feed: number;
  sdpSession: string | null;
  stopWatching: () => void;
  sub?: VideoRoomHandle;
  /**
   * Names the subscription handle to the browser: one browser connection per
   * handle. Janus's offers cannot say it themselves (each has a new o=
   * session), and a new browser connection answering an old handle never
   * gets through DTLS (the handle keeps its first peer's handshake).
   */
  subId?: string;
  /** Other publishers of the room by feed: their participant id. */
  feeds: Map<number, string>;
  subscribed: Set<number>;
  /** A subscription offer is with the browser; the next change waits for its answer. */
  awaitingAnswer: NodeJS.Timeout | undefined;
  /** The last subscription offer sent: Janus may report one offer both as the update's result and as an event. */
  lastOffer: string | undefined;
  /** The subscription's video m-line of each participant, as of the last offer. */
  videoMids: Map<string, string>;
  /** What was last asked of Janus per video m-line. */
  applied: Map<string, string>;
}

export class SfuLink implements SfuLinkRole {
  private joined: Joined | undefined;
  /** How much of each participant's video the browser wants (its tiles); unknown: the highest layer. */
  private readonly wants = new Map<string, VideoWant>();
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  private replacing = false;
  /** The browser's newest publishing offer: older ones still queued are skipped. */
  private latestOffer: string | undefined;

  constructor(
    private readonly owner: SfuLinkOwner,
    private readonly sfu: SfuRouting,
    private readonly log: RealtimeLogger,
  ) {}

  offer(sdp: string): void {
    this.latestOffer = sdp;
    this.run('publish', () => this.publish(sdp));
  }

  answer(sdp: string, subscription?: string): void {
    this.run('answer the subscription', () => this.answered(sdp, subscription));
  }

  want(from: string, video: VideoWant): void {
    this.wants.delete(from);
    this.wants.set(from, video);
    const joined = this.joined;
    if (joined) this.run('choose layers', () => this.applyWants(joined));
  }

  /** Each video of the subscription at the layer its tile needs, none beyond the video slots (sfu-steps.ts, layerSpecs). */
  private async applyWants(joined: Joined): Promise<void> {
    if (!joined.sub || this.joined !== joined) return;
    for (const spec of layerSpecs(this.wants, joined.videoMids, this.sfu.videoSlots)) {
      const key = JSON.stringify(spec);
      if (joined.applied.get(spec.mid) === key) continue;
      joined.applied.set(spec.mid, key);
      // One m-line at a time: one that Janus no longer has (its publisher just left) must not hold up the others.
      await joined.sub.configure({ streams: [spec] }).catch(() => joined.applied.delete(spec.mid));
    }
  }

  /** The participant left: their feed and subscription end (Janus stops their media at once). */
  close(): Promise<void> {
    this.closed = true;
    return this.run('leave', () => this.leave());
  }

  /** Runs `step` after every step before it; a failure is logged, and the browser's connection health takes over. */
  private run(what: string, step: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(() => withDeadline(step(), what)).catch((error: Error) => {
      if (this.closed) return;
      this.log.warn({ err: error, janus: videoRoomErrorCode(error), participant: this.owner.id }, `sfu: could not ${what}`);
      if (error instanceof SfuStepTimeout) this.abandon();
    });
    return this.owner.track(this.chain);
  }

  private async publish(sdp: string): Promise<void> {
    if (this.closed || sdp !== this.latestOffer) return;
    const session = sessionId(sdp);
    const current = this.joined;
    if (current && current.sdpSession === session && current.server.up) {
      const configured = await current.pub.configure({ jsep: { type: 'offer', sdp } });
      if (configured.jsep) this.owner.send({ type: 'answer', from: SFU_PEER, sdp: configured.jsep.sdp, ...(session ? { session } : {}) });
      return;
    }
    await this.leave();
    const placed = await this.sfu.roomFor(this.owner.place);
    if (!placed) {
      // No Janus answers now: publish again once one does.
      this.awaitRoom();
      return;
    }
    const { server, room } = placed;
    const pub = await server.attach();
    const onDown = () => this.serverDown(joined);
    const joined: Joined = {
      server,
      room,
      pub,
      feed: 0,
      sdpSession: session,
      stopWatching: () => server.off('down', onDown),
      feeds: new Map(),
      subscribed: new Set(),
      awaitingAnswer: undefined,
      lastOffer: undefined,
      videoMids: new Map(),
      applied: new Map(),
    };
    this.joined = joined;
    server.once('down', onDown);
    pub.on(VideoRoomPlugin.EVENT.VIDEOROOM_PUB_LIST, (e: { publishers: VideoRoomPublisher[] }) => this.publishers(joined, e.publishers));
    const gone = (e: { feed?: number }) => {
      if (e.feed === undefined || e.feed === joined.feed) return;
      joined.feeds.delete(e.feed);
      joined.subscribed.delete(e.feed);
    };
    pub.on(VideoRoomPlugin.EVENT.VIDEOROOM_UNPUBLISHED, gone);
    pub.on(VideoRoomPlugin.EVENT.VIDEOROOM_LEAVING, gone);
    pub.on(VideoRoomPlugin.EVENT.VIDEOROOM_TALKING, (e: { feed: number; talking: boolean }) => {
      const from = e.feed === joined.feed ? this.owner.id : joined.feeds.get(e.feed);
      if (from && this.joined === joined) this.owner.send({ type: 'sfu', event: 'talking', from, talking: e.talking });
    });
    const result = await pub.joinConfigurePublisher({ room, display: this.owner.id, jsep: { type: 'offer', sdp } });
    joined.feed = result.feed;
    if (!result.jsep) throw new Error('Janus did not answer the publishing offer');
    if (this.joined !== joined) return;
    this.owner.send({ type: 'answer', from: SFU_PEER, sdp: result.jsep.sdp, ...(session ? { session } : {}) });
    this.publishers(joined, result.publishers ?? []);
  }

  /** Publishers of the room (all of them, or the ones just published): each is subscribed to. */
  private publishers(joined: Joined, publishers: VideoRoomPublisher[]): void {
    for (const p of publishers) {
      if (p.feed !== joined.feed && p.display) joined.feeds.set(p.feed, p.display);
    }
    this.run('subscribe', () => this.subscribe(joined));
  }

  /** Adds every publisher not yet subscribed to the one subscription (joining it the first time). */
  private async subscribe(joined: Joined): Promise<void> {
    if (this.joined !== joined || joined.awaitingAnswer || this.closed) return;
    const wanted = [...joined.feeds.keys()].filter((feed) => !joined.subscribed.has(feed));
    if (wanted.length === 0) return;
    for (const feed of wanted) joined.subscribed.add(feed);
    const streams = wanted.map((feed) => ({ feed }));
    try {
      if (!joined.sub) {
        const sub = await joined.server.attach();
        // Janus offers again by itself when a publisher leaves (autoupdate).
        sub.on(VideoRoomPlugin.EVENT.VIDEOROOM_UPDATED, (e: { streams?: VideoRoomStream[]; jsep?: { type: 'offer'; sdp: string } }) => {
          if (e.jsep && this.joined === joined && joined.sub === sub) this.offerSubscription(joined, e.streams ?? sub.streams ?? [], e.jsep.sdp);
        });
        const result = await sub.joinSubscriber({ room: joined.room, streams, autoupdate: true }).catch(async (error: unknown) => {
          await sub.detach().catch(() => {});
          throw error;
        });
        joined.sub = sub;
        joined.subId = randomBytes(9).toString('base64url');
        if (result.jsep) this.offerSubscription(joined, result.streams, result.jsep.sdp);
      } else {
        const result = await joined.sub.update({ subscribe: streams });
        if (result.jsep) this.offerSubscription(joined, result.streams ?? joined.sub.streams ?? [], result.jsep.sdp);
      }
    } catch (error) {
      for (const feed of wanted) joined.subscribed.delete(feed);
      if (videoRoomErrorCode(error) !== NO_SUCH_FEED || wanted.length === 1) {
        // A feed that went away meanwhile: forgotten until it publishes again, when the room announces it.
        for (const feed of wanted) joined.feeds.delete(feed);
        throw error;
      }
      // One of several went away (a publisher starting over): the others are still wanted, each on its own.
      if (!joined.sub) throw error;
      for (const feed of wanted) this.run('subscribe', () => this.subscribeOne(joined, feed));
    }
  }

  /** After a failed batch: one feed at a time, so one that went away cannot keep the others out. */
  private async subscribeOne(joined: Joined, feed: number): Promise<void> {
    if (this.joined !== joined || !joined.sub || !joined.feeds.has(feed) || joined.subscribed.has(feed)) return;
    if (joined.awaitingAnswer) return; // the answer's step subscribes everyone still missing
    joined.subscribed.add(feed);
    try {
      const result = await joined.sub.update({ subscribe: [{ feed }] });
      if (result.jsep) this.offerSubscription(joined, result.streams ?? joined.sub.streams ?? [], result.jsep.sdp);
    } catch (error) {
      joined.subscribed.delete(feed);
      joined.feeds.delete(feed);
      throw error;
    }
  }

  private offerSubscription(joined: Joined, streams: VideoRoomStream[], sdp: string): void {
    if (sdp === joined.lastOffer) return;
    joined.lastOffer = sdp;
    const carried = streams.flatMap((s) => {
      const from = s.feed_id !== undefined ? (joined.feeds.get(s.feed_id) ?? s.feed_display) : undefined;
      return (s.type === 'audio' || s.type === 'video') && s.active !== false && from ? [{ mid: s.mid, kind: s.type, from }] : [];
    });
    clearTimeout(joined.awaitingAnswer);
    joined.awaitingAnswer = setTimeout(() => {
      joined.awaitingAnswer = undefined;
      // Publishers that arrived meanwhile are not left out for good.
      this.run('subscribe', () => this.subscribe(joined));
    }, ANSWER_DEADLINE_MS);
    joined.videoMids = new Map(carried.filter((c) => c.kind === 'video').map((c) => [c.from, c.mid]));
    // m-lines may carry someone else now: ask again.
    joined.applied.clear();
    this.owner.send({ type: 'sfu', event: 'streams', streams: carried });
    this.owner.send({ type: 'offer', from: SFU_PEER, sdp, ...(joined.subId ? { session: joined.subId } : {}) });
  }

  private async answered(sdp: string, subscription: string | undefined): Promise<void> {
    const joined = this.joined;
    if (!joined?.sub || this.closed) return;
    // The answer of a browser connection made for a subscription replaced since: Janus's handle would take it for an ICE restart.
    if (subscription !== undefined && subscription !== joined.subId) return;
    try {
      await joined.sub.start({ jsep: { type: 'answer', sdp } });
    } catch (error) {
      // An answer to an offer Janus replaced meanwhile (a publisher left while one arrived): its newer offer is on the way.
      if (videoRoomErrorCode(error) !== UNEXPECTED_ANSWER) throw error;
    } finally {
      if (this.joined === joined) {
        clearTimeout(joined.awaitingAnswer);
        joined.awaitingAnswer = undefined;
      }
    }
    // Publishers that arrived meanwhile.
    await this.subscribe(joined);
    await this.applyWants(joined);
  }

  private async leave(): Promise<void> {
    const joined = this.joined;
    if (!joined) return;
    this.joined = undefined;
    joined.stopWatching();
    clearTimeout(joined.awaitingAnswer);
    if (!joined.server.up) return;
    await Promise.all([detachWithin(joined.sub), detachWithin(joined.pub)]);
  }

  /**
   * A step outlived its deadline: it cannot be stopped, but what it does
   * late lands on handles the link no longer uses (each step checks that
   * its `joined` is still the link's). The handles go, and the browser
   * publishes again on new connections.
   */
  private abandon(): void {
    const joined = this.joined;
    if (!joined) return;
    this.joined = undefined;
    joined.stopWatching();
    clearTimeout(joined.awaitingAnswer);
    if (joined.server.up) void this.owner.track(Promise.all([detachWithin(joined.sub), detachWithin(joined.pub)]));
    this.awaitRoom();
  }

  /** The link's Janus stopped answering: its media is gone; publish again once the place has a room. */
  private serverDown(joined: Joined): void {
    if (this.joined !== joined) return;
    this.joined = undefined;
    clearTimeout(joined.awaitingAnswer);
    // A step waiting on the dead Janus would hold the next ones until its deadline: they go ahead without it.
    this.chain = Promise.resolve();
    this.awaitRoom();
  }

  /** Waits until a Janus can take the place, then asks the browser to publish again. */
  private awaitRoom(): void {
    if (this.replacing || this.closed) return;
    this.replacing = true;
    const attempt = async (wait: number): Promise<void> => {
      if (this.closed) return;
      const placed = await this.sfu.roomFor(this.owner.place).catch(() => undefined);
      if (this.closed) return;
      if (!placed) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        return attempt(Math.min(wait * 2, REPLACE_POLL_MAX_MS));
      }
      this.owner.send({ type: 'sfu', event: 'use', restart: true });
    };
    void attempt(REPLACE_POLL_MS).finally(() => (this.replacing = false));
  }
}

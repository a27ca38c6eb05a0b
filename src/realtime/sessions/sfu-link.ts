/**
 * @module realtime/sessions/sfu-link
 * The SFU's peer for one participant: what stands at the other end of the
 * browser's messages to the reserved peer `sfu`. It holds two VideoRoom
 * handles on the place's Janus (the placement says which):
 * - a publisher: the browser's `offer` (its sending connection, one camera
 *   and one microphone, simulcast where the browser does it, and a shared
 *   screen while there is one) is joined to the SFU room, and Janus's
 *   `answer` goes back. Janus is told which video is the screen (the
 *   stream's description), so that every subscriber learns it too;
 * - one subscriber for everyone else's feeds (sfu-subscription.ts), fed
 *   by what the publisher's handle hears of the room's publishers.
 * The publisher joins the room as soon as the page is told to use the SFU
 * (`prepare`), without media, so that the subscription is offered while
 * the page still makes its publishing offer; that offer then publishes on
 * the same handle, unless the page says it closed the subscription's
 * connection meanwhile (`discarded`): then the link starts over. In a
 * meeting larger than the page shows videos of, that offer (and its
 * candidates) waits until the first subscription is up, and
 * `PUBLISH_AFTER_UP_MS` more (sfu-large-join.ts).
 * The browser sends a new connection's description at once and trickles
 * its candidates after it (`ice`, naming the connection by `session`):
 * they go to that connection's handle. Janus's descriptions carry its own
 * candidates.
 *
 * A new publishing offer (a new SDP session: the browser rebuilt its
 * connections) starts the link over; the same session renegotiates (an ICE
 * restart, or a screen shared or no longer). When the link's Janus goes down the link waits for the place to
 * have a room again (on another Janus, or the same one restarted; `RoomWait`,
 * sfu-steps.ts) and tells the browser to publish again (`sfu` `use` with `restart`).
 *
 * Janus's own work is serialized per link, and never holds up the
 * participant's other messages (sfu-chain.ts).
 */
import type { VideoRoomPublisher } from 'janode/plugins/videoroom';
import type { PlaceRef } from '../../domain/presence.ts';
import { videoRoomErrorCode } from '../../sfu/rooms.ts';
import { SFU_PEER, type IceCandidate, type ServerMessage, type VideoWant } from '../protocol.ts';
import type { RealtimeLogger, SfuLinkRole, SfuRouting } from '../session.ts';
import { askingDtx, detachWithin, janusCandidate, publishedDescriptions, sessionId, RoomWait, SFU_OFFER_RATE } from './sfu-steps.ts';
import { StepChain } from './sfu-chain.ts';
import { Gate, PUBLISH_HELD_AT_MOST_MS, takesAllAtFirst } from './sfu-large-join.ts';
import { joinedOn, leaveRoom, type Joined, type JoinedLink } from './sfu-joined.ts';
import { TokenBucket } from '../rate-limit.ts';

export interface SfuLinkOwner {
  /** The participant's id (the display of their feed in the SFU room). */
  readonly id: string;
  readonly place: PlaceRef;
  send(message: ServerMessage): void;
  /** Keeps work the instance should wait for when it stops. */
  track<T>(promise: Promise<T>): Promise<T>;
}

export class SfuLink implements SfuLinkRole {
  private joined: Joined | undefined;
  /** How much of each participant's video the browser wants (its tiles); unknown: the highest layer. */
  private readonly wants = new Map<string, VideoWant>();
  private readonly steps: StepChain;
  private closed = false;
  /** Waits until a Janus can take the place, then asks the browser to publish again (sfu-steps.ts). */
  private readonly awaitingRoom = new RoomWait(
    () => this.sfu.roomFor(this.owner.place),
    () => this.closed,
    () => {
      this.owner.send({ type: 'sfu', event: 'use', restart: true });
      this.prepare(true);
    },
  );
  /**
   * The browser's newest publishing offer and subscription answer, until a step takes them: older ones still queued
   * are skipped, and only these are held (an answer in a large meeting is a few hundred kB).
   */
  private pendingOffer: { sdp: string; discarded: string | undefined } | undefined;
  private pendingAnswer: { sdp: string; subscription: string | undefined } | undefined;
  private readonly offers = new TokenBucket(SFU_OFFER_RATE);
  /** The publishing connection's offer and candidates, held while a first subscription goes first (`prepare`). */
  private readonly publishing = new Gate();
  /** What each `Joined` the link builds calls back. */
  private readonly joinedLink: JoinedLink;

  constructor(
    private readonly owner: SfuLinkOwner,
    private readonly sfu: SfuRouting,
    private readonly log: RealtimeLogger,
  ) {
    this.steps = new StepChain(owner, log, () => this.closed, () => this.abandon());
    this.joinedLink = {
      id: owner.id,
      send: (m) => owner.send(m),
      run: (what, step) => void this.steps.run(what, step),
      holds: (joined) => this.holds(joined),
      down: (joined) => this.serverDown(joined),
      wants: this.wants,
      videoSlots: sfu.videoSlots,
    };
  }

  offer(sdp: string, discarded?: string): void {
    const pending = (this.pendingOffer = { sdp, discarded });
    // An offer starting over from the subscription offered ahead waits for no answer to it: none will come.
    const startsOver = discarded !== undefined && this.joined?.subscription.named(discarded) === true;
    this.publishing.pass(() => void this.steps.run('publish', async () => {
      if (this.pendingOffer !== pending) return;
      // Waited for on the chain, so that the candidates trickled after the offer still come after it. A Janus gone
      // meanwhile asks the page for a new offer: this one is not published then.
      const era = this.steps.era;
      await this.offers.wait(this.steps.signal);
      if (this.pendingOffer !== pending || this.closed || era !== this.steps.era) return;
      this.offers.take();
      this.pendingOffer = undefined;
      await this.publish(pending.sdp, pending.discarded);
    }), startsOver);
  }

  /**
   * The page is told to use the SFU: the link joins the room now, without media (the module's comment says why).
   * `afresh`: the page starts over and may have missed the subscription offered ahead (its socket was away), so a
   * handle joined ahead and not yet published on goes, and the room is joined again.
   */
  prepare(afresh = false): void {
    if (this.closed) return;
    // The page's publishing offer comes right behind: it waits until the room's publishers are known, and in a large
    // meeting until the first subscription is up, and a moment more (sfu-large-join.ts).
    const key = this.publishing.close(PUBLISH_HELD_AT_MOST_MS);
    let opens: Promise<void> | undefined;
    this.steps.run('join the room', async () => {
      if (afresh && this.joined && !this.joined.published) await this.leave();
      if (this.joined || this.closed) return;
      const joined = await this.enter(null);
      if (!joined) return;
      let publishers: VideoRoomPublisher[];
      try {
        const result = await joined.pub.joinPublisher({ room: joined.room, display: this.owner.id });
        joined.feed = result.feed;
        publishers = result.publishers ?? [];
      } catch (error) {
        // Not in the room: the page's offer joins afresh.
        if (this.holds(joined)) await this.leave();
        throw error;
      }
      if (!this.holds(joined)) return;
      // Joining in one step, the offer is published first, as it came; otherwise once the first subscription is up.
      if (takesAllAtFirst(publishers, joined.feed, this.sfu.videoSlots)) this.publishing.open(key);
      else opens = joined.subscription.firstUp;
      joined.subscription.publishers(publishers);
    }).finally(() => (opens ?? Promise.resolve()).then(() => this.publishing.open(key)));
  }

  /** Compared through a method: a check before an await has narrowed `this.joined` for the compiler. */
  private holds(joined: Joined): boolean {
    return this.joined === joined && !this.closed;
  }

  answer(sdp: string, subscription?: string): void {
    const pending = (this.pendingAnswer = { sdp, subscription });
    this.steps.run('answer the subscription', async () => {
      if (this.pendingAnswer !== pending) return;
      this.pendingAnswer = undefined;
      if (!this.closed) await this.joined?.subscription.answered(pending.sdp, pending.subscription);
    });
  }

  /**
   * A candidate the browser trickled after its description: for the publishing connection (`session`, its offer's
   * o= session) or the subscription (its name). One for connections the link no longer holds is dropped.
   */
  ice(candidate: IceCandidate | null, session?: string): void {
    // Janus cannot place a candidate that names no m-line.
    if (!session || (candidate && candidate.sdpMid === null && candidate.sdpMLineIndex === null)) return;
    const passed = candidate && janusCandidate(candidate);
    // The subscription's go on at once, the publishing connection's after its offer.
    const subscriptions = this.joined?.subscription.named(session) === true;
    this.publishing.pass(() => void this.steps.run('pass a candidate on', async () => {
      const joined = this.joined;
      if (this.closed || !joined) return;
      // Not waited for: in order on Janus's socket, and the link's next step need not wait a round trip per candidate.
      const sent = session === joined.sdpSession ? joined.pub.trickle(passed) : joined.subscription.trickle(passed, session);
      sent.catch((error: Error) => {
        if (this.joined === joined) this.log.warn({ err: error, janus: videoRoomErrorCode(error), participant: this.owner.id }, 'sfu: could not pass a candidate on');
      });
    }), subscriptions);
  }

  want(from: string, video: VideoWant): void {
    this.wants.delete(from);
    this.wants.set(from, video);
    const joined = this.joined;
    if (!joined) return;
    joined.subscription.wanted();
    this.steps.run('choose layers', () => joined.subscription.applyWants());
  }

  /** The participant left: their feed and subscription end (Janus stops their media at once). */
  close(): Promise<void> {
    this.closed = true;
    this.steps.endWaits();
    this.publishing.clear();
    return this.steps.run('leave', () => this.leave());
  }

  private async publish(sdp: string, discarded: string | undefined): Promise<void> {
    if (this.closed) return;
    const session = sessionId(sdp);
    const descriptions = publishedDescriptions(sdp);
    const jsep = { type: 'offer' as const, sdp: askingDtx(sdp) };
    const current = this.joined;
    if (current?.server.up && current.published && current.sdpSession === session) {
      const configured = await current.pub.configure({ jsep, descriptions });
      if (configured.jsep) this.owner.send({ type: 'answer', from: SFU_PEER, sdp: configured.jsep.sdp, ...(session ? { session } : {}) });
      return;
    }
    // Joined ahead of this first offer (prepare), and the page still holds the subscription offered meanwhile (if it
    // took one): it publishes on the same handle, the subscription goes on.
    if (current?.server.up && !current.published && current.feed && (discarded === undefined || !current.subscription.named(discarded))) {
      current.published = true;
      current.sdpSession = session;
      const published = await current.pub.publish({ jsep, descriptions });
      if (!published.jsep) throw new Error('Janus did not answer the publishing offer');
      if (this.holds(current)) this.owner.send({ type: 'answer', from: SFU_PEER, sdp: published.jsep.sdp, ...(session ? { session } : {}) });
      return;
    }
    await this.leave();
    const era = this.steps.era;
    const joined = await this.enter(session);
    if (!joined) {
      // No Janus answers now: publish again once one does (unless the link moved on meanwhile).
      if (!this.closed && !this.joined && era === this.steps.era) this.awaitingRoom.start();
      return;
    }
    joined.published = true;
    const result = await joined.pub.joinConfigurePublisher({ room: joined.room, display: this.owner.id, descriptions, jsep });
    joined.feed = result.feed;
    if (!result.jsep) throw new Error('Janus did not answer the publishing offer');
    if (!this.holds(joined)) return;
    this.owner.send({ type: 'answer', from: SFU_PEER, sdp: result.jsep.sdp, ...(session ? { session } : {}) });
    joined.subscription.publishers(result.publishers ?? []);
  }

  /**
   * A publisher handle on the place's room, listening to the room (not in
   * it yet), which the link now holds; undefined while no Janus can take
   * the place, or once the link moved on meanwhile (its Janus went down,
   * the participant left).
   */
  private async enter(session: string | null): Promise<Joined | undefined> {
    const era = this.steps.era;
    const placed = await this.sfu.roomFor(this.owner.place);
    if (!placed || this.closed || era !== this.steps.era) return undefined;
    const { server, room } = placed;
    const pub = await server.attach();
    if (this.closed || era !== this.steps.era || !server.up || this.joined) {
      await detachWithin(pub);
      return undefined;
    }
    const joined = joinedOn(server, room, pub, session, this.joinedLink);
    this.joined = joined;
    return joined;
  }

  private async leave(): Promise<void> {
    const joined = this.joined;
    if (!joined) return;
    this.joined = undefined;
    await leaveRoom(joined);
  }

  /**
   * A step outlived its deadline: it cannot be stopped, but what it does
   * late lands on handles the link no longer uses (each step checks that
   * its `joined` is still the link's). The handles go, and the browser
   * publishes again on new connections.
   */
  private abandon(): void {
    if (!this.joined) return;
    // What the page sent for the handles left behind goes too: it publishes again when asked.
    this.publishing.clear();
    void this.owner.track(this.leave());
    this.awaitingRoom.start();
  }

  /** The link's Janus stopped answering: its media is gone; publish again once the place has a room. */
  private serverDown(joined: Joined): void {
    if (this.joined !== joined) return;
    this.joined = undefined;
    joined.subscription.stop();
    this.publishing.clear();
    // A step waiting on the dead Janus would hold the next ones until its deadline: they go ahead without it.
    this.steps.nextEra();
    this.awaitingRoom.start();
  }
}

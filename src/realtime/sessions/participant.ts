/**
 * @module realtime/sessions/participant
 * A participant in a meeting place. Entering registers them with the place
 * on this instance and holds the place's participant list here (from
 * their join's read, when they are the first here); they relay WebRTC
 * negotiation, announce their media and their hand at a bounded rate,
 * chat and react (relayed to everyone in the place, never stored), and,
 * as the meeting's host, run it (until their member rights end: then they
 * stay as a guest). Leaving (or being closed by the server) leaves the
 * place (the other instances learn it from the `participant.left` delta);
 * a socket that drops without `leave` keeps the participant, away, for the
 * resume grace, so that the page can come back as the same participant on
 * any instance (domain/resuming.ts).
 */
import type { Entered } from '../../domain/joining.ts';
import { dropHost, leavePlace } from '../../domain/places.ts';
import { detachParticipant } from '../../domain/resuming.ts';
import type { MediaState, PlaceRef } from '../../domain/presence.ts';
import { handleAdmit, handleAskMute, handleEnd, handleLock, handleLowerHand, handleRemove, handleSetChat, handleTurnAway, handleUnlock } from '../handlers/host.ts';
import { CALL_FEATURES, CHAT_RATE, REACTION_RATE } from '../../../public/js/shared/call-extras.js';
import { handleChat } from '../handlers/chat.ts';
import { refuseSecondJoin, handleHangUp } from '../handlers/control.ts';
import { handleHand } from '../handlers/hand.ts';
import { handleMedia } from '../handlers/media.ts';
import { handleReaction } from '../handlers/reaction.ts';
import { handleRelay, handleSfuWant } from '../handlers/relay.ts';
import { CloseCode, knockView, participantView, type ServerMessage } from '../protocol.ts';
import { TokenBucket } from '../rate-limit.ts';
import type { Participating } from '../registry.ts';
import type { ClosedHow, HandlerTable, ParticipantRole, Session, SessionHost, SfuLinkRole } from '../session.ts';
import { LinkRelay, type HeldLink } from '../sfu-link-role.ts';
import { Announcements } from './announcements.ts';
import { SfuLink } from './sfu-link.ts';

const HANDLERS: HandlerTable<ParticipantSession> = {
  join: refuseSecondJoin,
  offer: handleRelay,
  answer: handleRelay,
  ice: handleRelay,
  media: handleMedia,
  leave: handleHangUp,
  end: handleEnd,
  remove: handleRemove,
  ask_mute: handleAskMute,
  lower_hand: handleLowerHand,
  set_chat: handleSetChat,
  lock: handleLock,
  unlock: handleUnlock,
  admit: handleAdmit,
  turn_away: handleTurnAway,
  chat: handleChat,
  hand: handleHand,
  reaction: handleReaction,
  sfu_want: handleSfuWant,
};

export class ParticipantSession implements Session, Participating, ParticipantRole {
  readonly role = 'participant';
  readonly handlers = HANDLERS;
  private left = false;
  /** Their media state and hand, to everyone in the place at a bounded rate. */
  private readonly announcements: Announcements;
  private readonly rates = { chat: new TokenBucket(CHAT_RATE), reaction: new TokenBucket(REACTION_RATE) };
  /** The host turned the chat off (from the welcome, then from every instance's `chat_state`). */
  chatOff = false;
  /** Told that the place uses the SFU. */
  private onSfu = false;
  private link: HeldLink | undefined;
  /** The SFU link came over from the participant's previous socket with nothing missed: the page's connections go on. */
  private linkKept = false;

  /** Another socket took this participant over (a resume): closing this one leaves nothing. */
  private superseded = false;

  private constructor(
    readonly connection: SessionHost,
    /** The participant's id: their first socket's, kept across resumes. */
    readonly id: string,
    readonly place: PlaceRef,
    public host: boolean,
    readonly name: string,
  ) {
    this.announcements = new Announcements(connection, id, place);
  }

  /**
   * The join (or a resume, `resumed`) went through: the connection becomes
   * this participant, is welcomed with who is there and the resume token
   * the command issued, and (the host) with who knocks. `since` is the
   * participant lists' mark taken before the command ran.
   */
  static async enter(connection: SessionHost, entered: Entered & { token: string }, since: number, resumed = false): Promise<ParticipantSession> {
    const { registry, participantLists } = connection.services;
    const token = entered.token;
    const session = new ParticipantSession(connection, entered.you.id, entered.place, entered.host, entered.you.displayName);
    session.chatOff = entered.chatOff;
    connection.become(session);
    const before = registry.member(entered.place, session.id);
    // Their SFU link goes on with them: from a socket of theirs not yet seen dropped, or parked here when one dropped.
    const link = before?.role === 'participant' ? before.handOverLink() : resumed ? connection.services.sfuParking.take(session.id) : undefined;
    if (before?.role === 'participant') before.takenOver();
    if (link) session.adopt(link);
    registry.enter(session);
    if (resumed) {
      // Any older socket of theirs (one the server has not seen drop yet) is closed; everyone sees them connected again.
      connection.services.publish({ t: 'resumed', place: entered.place, participantId: session.id, socketId: connection.id });
      connection.services.publish({ t: 'presence', place: entered.place, change: { kind: 'connection', participantId: session.id, reconnecting: false } });
      // Host powers that did not come back (another member's socket, a sign-out meanwhile) leave everyone's lists too.
      if (!entered.host) connection.services.publish({ t: 'presence', place: entered.place, change: { kind: 'unhosted', participantId: session.id } });
    }
    // The join's read with whatever changed while it ran (someone arriving at the same moment), hands included
    // (known only to the lists held from deltas; a list not held here yet learns them as they are announced again).
    const participants = participantLists.caughtUp(entered.place, entered.participants, since).map(participantView);
    // Already on the SFU: the page goes there at once, without mesh offers to everyone first (the `use` that follows says it again).
    const sfu = connection.services.sfu;
    const onSfu = sfu !== undefined && (connection.services.sfuPlaces.uses(entered.place) || participants.length >= sfu.fromParticipants);
    connection.send({
      type: 'welcome',
      you: participantView(entered.you),
      place: { kind: entered.place.kind === 'meeting' ? 'meeting' : 'room', title: entered.title },
      participants,
      host: entered.host,
      locked: entered.locked,
      chatOff: entered.chatOff,
      iceServers: connection.services.iceServers(),
      iceTransportPolicy: connection.services.iceTransportPolicy,
      features: [...CALL_FEATURES],
      resume: token,
      resumed,
      ...(sfu ? { videoSlots: sfu.videoSlots } : {}),
      ...(onSfu ? { sfu: true } : {}),
    });
    if (entered.host) connection.send({ type: 'knocks', knocks: entered.knocks.map(knockView) });
    participantLists.hold(entered.place, entered.participants, since);
    connection.services.sfuPlaces.counted(entered.place, participantLists.entries(entered.place)?.length ?? entered.participants.length);
    return session;
  }

  get member() {
    return this.connection.member;
  }

  send(message: ServerMessage): void {
    this.connection.send(message);
  }

  refuse(code: number, errorCode: string, message: string): void {
    this.connection.refuse(code, errorCode, message);
  }

  end(reason: 'closed' | 'deleted', byHost: boolean): void {
    this.send(byHost ? { type: 'ended', reason, by: 'host' } : { type: 'ended', reason });
    this.connection.close(CloseCode.gone, reason === 'deleted' ? 'Meeting deleted.' : 'Meeting closed.');
  }

  useSfu(): void {
    if (this.onSfu || this.left) return;
    this.onSfu = true;
    // Resumed, the page may hold SFU connections whose server-side link went with the old socket (or missed a
    // renegotiation while parked): it publishes anew.
    const restart = this.connection.id !== this.id && !this.linkKept;
    this.send({ type: 'sfu', event: 'use', restart });
    // The link joins the room meanwhile: the subscription is offered while the page makes its publishing offer.
    this.sfuLink()?.prepare(restart);
  }

  private adopt(held: HeldLink): void {
    this.link = held;
    this.linkKept = !held.relay.missed;
    held.relay.attach((m) => this.send(m));
  }

  handOverLink(): HeldLink | undefined {
    const held = this.link;
    this.link = undefined;
    return held;
  }

  /** The participant came back on another socket: this one closes without leaving. */
  takenOver(): void {
    this.superseded = true;
    this.connection.close(CloseCode.replaced, 'Continued on another connection.');
  }

  sfuLink(): SfuLinkRole | undefined {
    const { sfu, log, track } = this.connection.services;
    // Only once the server moved the place to the SFU: a page cannot place a meeting on Janus by itself.
    if (!sfu || this.left || !this.onSfu) return undefined;
    if (!this.link) {
      const relay = new LinkRelay(this.id, this.place, (m) => this.send(m), track);
      this.link = { link: new SfuLink(relay, sfu, log), relay };
    }
    return this.link.link;
  }

  /**
   * Their member rights ended (signed out, removed): they stay in the call,
   * no longer the host. Told at once; everyone's list shows it after the
   * write.
   */
  signedOut(): void {
    if (!this.host) return;
    this.host = false;
    this.send({ type: 'host', host: false });
    this.connection.enqueue(async () => {
      if (this.left) return;
      const { services } = this.connection;
      await dropHost(services.ctx, this.id);
      services.publish({ t: 'presence', place: this.place, change: { kind: 'unhosted', participantId: this.id } });
    });
  }

  announceMedia(media: MediaState): void {
    this.announcements.media(media);
  }

  get hand(): boolean {
    return this.announcements.hand;
  }

  allow(kind: 'chat' | 'reaction'): boolean {
    return this.rates[kind].take();
  }

  raiseHand(raised: boolean): void {
    this.announcements.raiseHand(raised);
  }

  chatTurned(off: boolean): void {
    this.chatOff = off;
  }

  lowerHand(): void {
    this.announcements.raiseHand(false);
  }

  reannounceHand(): void {
    this.announcements.reannounceHand();
  }

  async closed(how: ClosedHow): Promise<void> {
    this.left = true;
    this.announcements.stop();
    const { registry, participantLists, sfuPlaces, sfuParking, ctx, resumeGraceMs, publish } = this.connection.services;
    if (!registry.leave(this)) {
      participantLists.release(this.place);
      sfuPlaces.released(this.place);
    }
    const held = this.link;
    const mayResume = how.dropped && resumeGraceMs > 0 && !this.superseded;
    // Leaving: their media through the SFU stops at once.
    const closing = mayResume ? undefined : held?.link.close();
    if (this.superseded) return void (await closing);
    // Dropped without leaving: kept, away, for the grace (unless another socket holds them already); their media
    // through the SFU goes on meanwhile.
    const away = mayResume && (await detachParticipant(ctx, this.id, this.connection.id, resumeGraceMs));
    if (away) {
      publish({ t: 'presence', place: away, change: { kind: 'connection', participantId: this.id, reconnecting: true } });
      if (held) sfuParking.park(this.id, held, resumeGraceMs);
      return;
    }
    if (mayResume) await held?.link.close();
    await leavePlace(ctx, this.id, this.connection.id);
    await closing;
  }
}

/**
 * @module realtime/sessions/participant
 * A participant in a meeting place. Entering registers them with the place
 * on this instance and holds the place's participant list here (from
 * their join's read, when they are the first here); they relay WebRTC
 * negotiation, announce their media at a bounded rate, and, as the
 * meeting's host, run it (until their member rights end: then they stay
 * as a guest). Closing leaves the place (the other instances learn it from
 * the `participant.left` delta).
 */
import type { JoinOutcome } from '../../domain/joining.ts';
import { dropHost, leavePlace, updateMedia } from '../../domain/places.ts';
import type { MediaState, PlaceRef } from '../../domain/presence.ts';
import { handleAdmit, handleAskMute, handleEnd, handleLock, handleRemove, handleTurnAway, handleUnlock } from '../handlers/host.ts';
import { refuseSecondJoin, handleHangUp } from '../handlers/control.ts';
import { handleMedia } from '../handlers/media.ts';
import { handleRelay } from '../handlers/relay.ts';
import { CloseCode, knockView, participantView, type ServerMessage } from '../protocol.ts';
import type { Participating } from '../registry.ts';
import type { HandlerTable, ParticipantRole, Session, SessionHost } from '../session.ts';

/**
 * At most one media-state write (and delta to every instance) per
 * participant per this interval: a client toggling as fast as it may send
 * would otherwise cost a database write and a fan-out per message. The
 * latest state always lands, at most this much later.
 */
export const MEDIA_UPDATE_INTERVAL_MS = 250;

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
  lock: handleLock,
  unlock: handleUnlock,
  admit: handleAdmit,
  turn_away: handleTurnAway,
};

type Entered = Extract<JoinOutcome, { kind: 'entered' }>;

export class ParticipantSession implements Session, Participating, ParticipantRole {
  readonly role = 'participant';
  readonly handlers = HANDLERS;
  /** The newest media state not yet written, and the timer that will write it. */
  private pendingMedia: MediaState | null = null;
  private mediaTimer: NodeJS.Timeout | undefined;
  private lastMediaAt = 0;
  private left = false;

  private constructor(
    readonly connection: SessionHost,
    readonly place: PlaceRef,
    public host: boolean,
  ) {}

  /**
   * The join went through: the connection becomes this participant, is
   * welcomed with who is there, and (the host) with who knocks. `since`
   * is the participant lists' mark taken before the join's command ran.
   */
  static enter(connection: SessionHost, entered: Entered, since: number): ParticipantSession {
    const { registry, participantLists } = connection.services;
    const session = new ParticipantSession(connection, entered.place, entered.host);
    connection.become(session);
    registry.enter(session);
    connection.send({
      type: 'welcome',
      you: participantView(entered.you),
      place: { kind: entered.place.kind === 'meeting' ? 'meeting' : 'room', title: entered.title },
      participants: entered.participants.map(participantView),
      host: entered.host,
      locked: entered.locked,
    });
    if (entered.host) connection.send({ type: 'knocks', knocks: entered.knocks.map(knockView) });
    participantLists.hold(entered.place, entered.participants, since);
    return session;
  }

  get id(): string {
    return this.connection.id;
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
    this.pendingMedia = media;
    this.scheduleMedia();
  }

  private scheduleMedia(): void {
    if (this.mediaTimer || !this.pendingMedia || this.left) return;
    const wait = Math.max(0, this.lastMediaAt + MEDIA_UPDATE_INTERVAL_MS - Date.now());
    this.mediaTimer = setTimeout(() => {
      this.mediaTimer = undefined;
      this.connection.enqueue(() => this.writeMedia());
    }, wait);
  }

  private async writeMedia(): Promise<void> {
    const media = this.pendingMedia;
    if (!media || this.left) return;
    this.pendingMedia = null;
    this.lastMediaAt = Date.now();
    const { services } = this.connection;
    await updateMedia(services.ctx, this.id, media);
    services.publish({ t: 'presence', place: this.place, change: { kind: 'media', participantId: this.id, media } });
    // A state that arrived during the write goes out in the next slot.
    this.scheduleMedia();
  }

  async closed(): Promise<void> {
    this.left = true;
    clearTimeout(this.mediaTimer);
    const { registry, participantLists, ctx } = this.connection.services;
    if (!registry.leave(this)) participantLists.release(this.place);
    await leavePlace(ctx, this.id);
  }
}

/**
 * @module realtime/sessions/knocker
 * Someone knocking at a meeting, waiting for its host: they may only
 * leave. Let in, they join again through the join command (their knock,
 * decided `admitted`, is their admission) and become a participant, with
 * what they asked for when they knocked. Turned away, they are told and
 * closed. Closing withdraws the knock.
 */
import { DomainError } from '../../domain/errors.ts';
import { joinPlace, type Arrival, type JoinOutcome } from '../../domain/joining.ts';
import { withdrawKnock } from '../../domain/hosting.ts';
import type { PlaceRef } from '../../domain/presence.ts';
import { handleLeave } from '../handlers/control.ts';
import { CloseCode } from '../protocol.ts';
import { JOIN_REFUSALS } from '../refusals.ts';
import type { Knocking } from '../registry.ts';
import type { HandlerTable, Session, SessionHost } from '../session.ts';
import { ParticipantSession } from './participant.ts';

const HANDLERS: HandlerTable<KnockerSession> = {
  leave: handleLeave,
};

type Knocked = Extract<JoinOutcome, { kind: 'knocking' }>;

export class KnockerSession implements Session, Knocking {
  readonly role = 'knocker';
  readonly handlers = HANDLERS;
  /** Once let in, the participant they became. */
  private entered = false;

  private constructor(
    readonly connection: SessionHost,
    readonly place: PlaceRef,
    private arrival: Arrival,
  ) {}

  /** The join ended in a knock: the connection becomes this knocker, registered with the meeting for its host's decision and its end. */
  static knock(connection: SessionHost, knocked: Knocked, arrival: Arrival): KnockerSession {
    const session = new KnockerSession(connection, knocked.place, arrival);
    connection.become(session);
    connection.services.registry.enter(session);
    connection.send({ type: 'knocking', wasRemoved: knocked.knock.wasRemoved });
    return session;
  }

  get id(): string {
    return this.connection.id;
  }

  admitted(): void {
    this.connection.enqueue(async () => {
      if (this.connection.gone || this.entered) return;
      const { services } = this.connection;
      const since = services.participantLists.mark();
      let outcome: JoinOutcome;
      try {
        outcome = await joinPlace(services.ctx, this.arrival, { admittedKnock: this.id });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        // The knock went away meanwhile: the page joins again from the start.
        return this.connection.close(CloseCode.rejoin, 'Please rejoin.');
      }
      if (outcome.kind === 'refused') {
        const refusal = outcome.reason === 'bad_name' ? JOIN_REFUSALS.not_found : JOIN_REFUSALS[outcome.reason];
        return this.connection.refuse(refusal.code, outcome.reason, refusal.message);
      }
      if (outcome.kind !== 'entered') return;
      this.entered = true;
      services.registry.leave(this);
      await ParticipantSession.enter(this.connection, outcome, since);
    });
  }

  /** Their member rights ended: let in, they enter as a guest. */
  signedOut(): void {
    this.arrival = { ...this.arrival, actor: null };
  }

  turnedAway(): void {
    this.connection.refuse(CloseCode.turnedAway, 'turned_away', 'The host did not let you in.');
  }

  end(reason: 'closed' | 'deleted', byHost: boolean): void {
    this.connection.send(byHost ? { type: 'ended', reason, by: 'host' } : { type: 'ended', reason });
    this.connection.close(CloseCode.gone, reason === 'deleted' ? 'Meeting deleted.' : 'Meeting closed.');
  }

  async closed(): Promise<void> {
    const { registry, ctx } = this.connection.services;
    registry.leave(this);
    await withdrawKnock(ctx, this.id);
  }
}

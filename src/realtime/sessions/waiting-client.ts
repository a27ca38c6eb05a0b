/**
 * @module realtime/sessions/waiting-client
 * A client in a board's or queue's waiting list. They follow the line on
 * this instance (every change sends them their view) and may leave it.
 * Their page answers its first view with `here`; from then on closing
 * starts their grace period (a reload within it takes the place back),
 * before it closing ends the place (see domain/waiting/arrival.ts). It may
 * report its device and network check again (`readiness`).
 */
import { clientAnswered, clientDisconnected } from '../../domain/waiting/arrival.ts';
import { handleLeaveLine, handleReadiness } from '../handlers/control.ts';
import type { Watched } from '../waiting-lists.ts';
import type { HandlerTable, SessionHost, WaitingRole } from '../session.ts';
import { FollowingSession } from './following.ts';

const HANDLERS: HandlerTable<WaitingClientSession> = {
  leave: handleLeaveLine,
  readiness: handleReadiness,
  here: (session) => clientAnswered(session.connection.services.ctx, session.connection.id),
};

export class WaitingClientSession extends FollowingSession implements WaitingRole {
  readonly role = 'waiting';
  readonly handlers = HANDLERS;

  private constructor(
    connection: SessionHost,
    readonly entryId: string,
    watched: Watched,
  ) {
    super(connection, watched);
  }

  /** The client is in line with `entryId`: the connection becomes theirs and follows the line. */
  static wait(connection: SessionHost, entryId: string, watched: Watched): WaitingClientSession {
    const session = new WaitingClientSession(connection, entryId, watched);
    session.start();
    return session;
  }

  protected away(): Promise<void> {
    return clientDisconnected(this.connection.services.ctx, this.connection.id);
  }
}

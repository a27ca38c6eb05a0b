/**
 * @module realtime/handlers/control
 * `leave`, as each role takes it: a participant hangs up (in a
 * waiting-list call that ends the call for both), a knocker stops
 * knocking (the knock is withdrawn as the socket closes), a waiting
 * client gives up their place; a waiting client's page reports its device
 * and network check again (`readiness`). A second `join` from a participant is
 * refused. (`ping` is answered by the connection, whatever the role.)
 */
import { clientLeaves, clientReadiness } from '../../domain/waiting/arrival.ts';
import { hangUp } from '../../domain/waiting/calls.ts';
import { CloseCode } from '../protocol.ts';
import type { MessageOf, ParticipantRole, SessionHost, WaitingRole } from '../session.ts';

export async function handleHangUp(session: ParticipantRole): Promise<void> {
  if (session.place.kind === 'meeting') await hangUp(session.connection.services.ctx, session.place.id);
  session.connection.close(CloseCode.normal, 'Left.');
}

export function handleLeave(session: { connection: SessionHost }): void {
  session.connection.close(CloseCode.normal, 'Left.');
}

export async function handleLeaveLine(session: WaitingRole): Promise<void> {
  await clientLeaves(session.connection.services.ctx, session.connection.id);
  session.connection.close(CloseCode.normal, 'Left.');
}

/** A waiting client's page checked their devices and network again: their members' consoles show it. */
export async function handleReadiness(session: WaitingRole, message: MessageOf<'readiness'>): Promise<void> {
  await clientReadiness(session.connection.services.ctx, session.connection.id, message.readiness);
}

export function refuseSecondJoin(session: ParticipantRole): void {
  session.connection.refuse(CloseCode.badMessage, 'already_joined', 'Already joined.');
}

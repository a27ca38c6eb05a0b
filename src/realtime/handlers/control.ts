/**
 * @module realtime/handlers/control
 * `ping` (an application keepalive, answered with `pong`) and `leave`: from
 * a meeting place (in a waiting-list call, hanging up ends the call for
 * both), from a meeting's knock (the knock is withdrawn when the socket
 * closes), or from a waiting list (the client gives up their place).
 */
import { clientLeaves } from '../../domain/waiting/arrival.ts';
import { hangUp } from '../../domain/waiting/calls.ts';
import type { ClientConnection } from '../contracts.ts';
import { CloseCode } from '../protocol.ts';

export function handlePing(connection: ClientConnection): void {
  connection.send({ type: 'pong' });
}

export async function handleLeave(connection: ClientConnection): Promise<void> {
  if (connection.state === 'waiting') await clientLeaves(connection.hub.ctx, connection.id);
  else if (connection.state === 'joined' && connection.place?.kind === 'meeting') await hangUp(connection.hub.ctx, connection.place.id);
  connection.close(CloseCode.normal, 'Left.');
}

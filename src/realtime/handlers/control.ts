/**
 * @module realtime/handlers/control
 * `ping` (an application keepalive, answered with `pong`) and `leave`.
 */
import type { ClientConnection } from '../contracts.ts';
import { CloseCode } from '../protocol.ts';

export function handlePing(connection: ClientConnection): void {
  connection.send({ type: 'pong' });
}

export function handleLeave(connection: ClientConnection): void {
  connection.close(CloseCode.normal, 'Left.');
}

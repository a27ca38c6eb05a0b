/**
 * @module realtime/handlers/control
 * `ping` (an application keepalive, answered with `pong`) and `leave`.
 */
import type { Connection } from '../connection.ts';
import { CloseCode } from '../protocol.ts';

export function handlePing(connection: Connection): void {
  connection.send({ type: 'pong' });
}

export function handleLeave(connection: Connection): void {
  connection.close(CloseCode.normal, 'Left.');
}

/**
 * @module realtime/handlers/relay
 * `offer`, `answer`, `ice`: passed to the named participant of the same
 * place, on whatever instance holds them, rebuilt from known fields.
 */
import type { ClientConnection } from '../contracts.ts';
import type { ClientMessage } from '../protocol.ts';

export function handleRelay(connection: ClientConnection, message: Extract<ClientMessage, { type: 'offer' | 'answer' | 'ice' }>): void {
  const place = connection.place!;
  const relayed =
    message.type === 'ice'
      ? { type: 'ice' as const, from: connection.id, candidate: message.candidate }
      : { type: message.type, from: connection.id, sdp: message.sdp };
  connection.hub.publish({ t: 'signal', place, to: message.to, message: relayed });
}

/**
 * @module realtime/handlers/relay
 * `offer`, `answer`, `ice`: passed to the named participant of the same
 * place, on whatever instance holds them, rebuilt from known fields.
 */
import type { MessageOf, ParticipantRole } from '../session.ts';

export function handleRelay(session: ParticipantRole, message: MessageOf<'offer' | 'answer' | 'ice'>): void {
  const { connection, place } = session;
  const relayed =
    message.type === 'ice'
      ? { type: 'ice' as const, from: connection.id, candidate: message.candidate }
      : { type: message.type, from: connection.id, sdp: message.sdp };
  connection.services.publish({ t: 'signal', place, to: message.to, message: relayed });
}

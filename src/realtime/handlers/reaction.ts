/**
 * @module realtime/handlers/reaction
 * `reaction`: one of the offered reactions (public/js/shared/call-extras.js),
 * shown to everyone in the place on every instance; relayed, never stored,
 * and limited per participant like the chat.
 */
import { REACTIONS } from '../../../public/js/shared/call-extras.js';
import type { MessageOf, ParticipantRole } from '../session.ts';

export function handleReaction(session: ParticipantRole, message: MessageOf<'reaction'>): void {
  const { connection, place } = session;
  if (!REACTIONS.includes(message.emoji)) {
    connection.send({ type: 'error', code: 'validation_failed', message: `A reaction is one of ${REACTIONS.join(' ')}.`, about: 'reaction' });
    return;
  }
  if (!session.allow('reaction')) {
    connection.send({ type: 'error', code: 'slow_down', message: 'Too many reactions at once: wait a moment.', about: 'reaction' });
    return;
  }
  connection.services.publish({ t: 'broadcast', place, message: { type: 'reaction', from: session.id, emoji: message.emoji } });
}

/**
 * @module realtime/handlers/hand
 * `hand`: the participant raises or lowers their hand. Everyone sees it as
 * `hand` on the participant in `participants`; it travels between
 * instances as a presence delta at a bounded rate and is never stored.
 */
import type { MessageOf, ParticipantRole } from '../session.ts';

export function handleHand(session: ParticipantRole, message: MessageOf<'hand'>): void {
  session.raiseHand(message.raised);
}

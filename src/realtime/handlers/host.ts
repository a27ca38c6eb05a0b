/**
 * @module realtime/handlers/host
 * The host's messages, one handler each: `end` (for everyone),
 * `remove`, `ask_mute`, `lower_hand`, `set_chat`, `lock`, `unlock`, `admit` and `turn_away`. The
 * domain checks that the connection's member (from their session) is the
 * meeting's host; anyone else is answered with an `error` (`forbidden`),
 * nothing changes and their connection stays. What an action changes
 * reaches every instance through the domain's events (host-delivery.ts).
 */
import type { Actor } from '../../domain/actors.ts';
import { DomainError } from '../../domain/errors.ts';
import { askToMute, endForEveryone, letIn, lowerHand, removeParticipant, setChatOff, setLocked, turnAway } from '../../domain/hosting.ts';
import type { LiveContext } from '../../domain/lifecycle.ts';
import type { MessageOf, ParticipantRole } from '../session.ts';

type Message<T extends 'remove' | 'ask_mute' | 'lower_hand' | 'admit' | 'turn_away'> = MessageOf<T>;

/** Runs a host action on the participant's meeting; the domain's refusals go back as an error. */
async function act(session: ParticipantRole, action: (ctx: LiveContext, actor: Actor | null, meetingId: string) => Promise<unknown>): Promise<void> {
  const { connection, place } = session;
  if (place.kind !== 'meeting') {
    connection.send({ type: 'error', code: 'forbidden', message: 'A room has no host.' });
    return;
  }
  try {
    await action(connection.services.ctx, connection.member, place.id);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    connection.send({ type: 'error', code: error.code, message: error.message });
  }
}

export const handleEnd = (session: ParticipantRole) => act(session, endForEveryone);

export const handleRemove = (session: ParticipantRole, message: Message<'remove'>) =>
  act(session, (ctx, actor, meetingId) => removeParticipant(ctx, actor, meetingId, message.participantId));

export const handleAskMute = (session: ParticipantRole, message: Message<'ask_mute'>) =>
  act(session, (ctx, actor, meetingId) => askToMute(ctx, actor, meetingId, message.participantId));

export const handleLowerHand = (session: ParticipantRole, message: Message<'lower_hand'>) =>
  act(session, (ctx, actor, meetingId) => lowerHand(ctx, actor, meetingId, message.participantId));

export const handleSetChat = (session: ParticipantRole, message: MessageOf<'set_chat'>) =>
  act(session, (ctx, actor, meetingId) => setChatOff(ctx, actor, meetingId, message.off));

export const handleLock = (session: ParticipantRole) => act(session, (ctx, actor, meetingId) => setLocked(ctx, actor, meetingId, true));

export const handleUnlock = (session: ParticipantRole) => act(session, (ctx, actor, meetingId) => setLocked(ctx, actor, meetingId, false));

export const handleAdmit = (session: ParticipantRole, message: Message<'admit'>) =>
  act(session, (ctx, actor, meetingId) => letIn(ctx, actor, meetingId, message.knockId));

export const handleTurnAway = (session: ParticipantRole, message: Message<'turn_away'>) =>
  act(session, (ctx, actor, meetingId) => turnAway(ctx, actor, meetingId, message.knockId));

/**
 * @module realtime/handlers/admin
 * The meeting admin's messages, one handler each: `end` (for everyone),
 * `remove`, `ask_mute`, `lock`, `unlock`, `admit` and `turn_away`. The
 * domain checks that the connection's member (from their session) is the
 * meeting's admin; anyone else is answered with an `error` (`forbidden`),
 * nothing changes and their connection stays. What an action changes
 * reaches every instance through the domain's events (admin-fanout.ts).
 */
import type { Actor } from '../../domain/actors.ts';
import { DomainError } from '../../domain/errors.ts';
import { askToMute, endForEveryone, letIn, removeParticipant, setLocked, turnAway } from '../../domain/meeting-admin.ts';
import type { LiveContext } from '../../domain/lifecycle.ts';
import type { ClientConnection } from '../contracts.ts';
import type { ClientMessage } from '../protocol.ts';

type Message<T extends ClientMessage['type']> = Extract<ClientMessage, { type: T }>;

/** Runs an admin action on the connection's meeting; the domain's refusals go back as an error. */
async function act(connection: ClientConnection, action: (ctx: LiveContext, actor: Actor | null, meetingId: string) => Promise<unknown>): Promise<void> {
  const place = connection.place;
  if (place?.kind !== 'meeting') {
    connection.send({ type: 'error', code: 'forbidden', message: 'A room has no host.' });
    return;
  }
  try {
    await action(connection.hub.ctx, connection.member, place.id);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    connection.send({ type: 'error', code: error.code, message: error.message });
  }
}

export const handleEnd = (connection: ClientConnection) => act(connection, endForEveryone);

export const handleRemove = (connection: ClientConnection, message: Message<'remove'>) =>
  act(connection, (ctx, actor, meetingId) => removeParticipant(ctx, actor, meetingId, message.participantId));

export const handleAskMute = (connection: ClientConnection, message: Message<'ask_mute'>) =>
  act(connection, (ctx, actor, meetingId) => askToMute(ctx, actor, meetingId, message.participantId));

export const handleLock = (connection: ClientConnection) => act(connection, (ctx, actor, meetingId) => setLocked(ctx, actor, meetingId, true));

export const handleUnlock = (connection: ClientConnection) => act(connection, (ctx, actor, meetingId) => setLocked(ctx, actor, meetingId, false));

export const handleAdmit = (connection: ClientConnection, message: Message<'admit'>) =>
  act(connection, (ctx, actor, meetingId) => letIn(ctx, actor, meetingId, message.knockId));

export const handleTurnAway = (connection: ClientConnection, message: Message<'turn_away'>) =>
  act(connection, (ctx, actor, meetingId) => turnAway(ctx, actor, meetingId, message.knockId));

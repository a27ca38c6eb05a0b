/**
 * @module realtime/sessions/opening
 * A connection's first message, and the session it opens (decode →
 * command → session → send):
 * - `join`: the join command decides; entered, the connection becomes a
 *   participant and is welcomed; knocking, it becomes a knocker and is
 *   told so; refused, the client is told why and closed;
 * - `wait`: the client gets in line (or takes their place back) and the
 *   connection becomes their waiting session, sent their view of the line;
 * - `console`: a member (only with their session) opens their console of
 *   a board or queue they are on, and is sent its view.
 * A role opened by another first message is one more handler and entry
 * here, and one more session type beside this file.
 */
import { DomainError } from '../../domain/errors.ts';
import { joinPlace } from '../../domain/joining.ts';
import { memberOfPass } from '../../domain/member-pass.ts';
import { resumePlace } from '../../domain/resuming.ts';
import { checkDisplayName } from '../../domain/places.ts';
import { arrive } from '../../domain/waiting/arrival.ts';
import { openConsole } from '../../domain/waiting/consoles.ts';
import { clientSnapshot, memberSnapshot } from '../../domain/waiting/views.ts';
import { CloseCode } from '../protocol.ts';
import { JOIN_REFUSALS, WAIT_REFUSALS } from '../refusals.ts';
import type { HandlerTable, MessageOf, SessionHost } from '../session.ts';
import { ConsoleSession } from './console.ts';
import { KnockerSession } from './knocker.ts';
import { ParticipantSession } from './participant.ts';
import { WaitingClientSession } from './waiting-client.ts';

export async function handleJoin(connection: SessionHost, message: MessageOf<'join'>): Promise<void> {
  const { ctx, participantLists } = connection.services;
  const { target, name, audio, video } = message;
  // A member's pass to this meeting makes the connection that member for this join (their link, opened without a sign-in session).
  const passed = message.pass && 'meetingId' in target ? await memberOfPass(ctx, message.pass, target.meetingId) : null;
  const actor = passed ?? connection.member;
  const guestKey = passed?.kind === 'member' ? `member:${passed.user.id}` : connection.guestKey;
  const arrival = { connectionId: connection.id, actor, guestKey, target, name, audio, video };
  const since = participantLists.mark();
  if (message.resume !== null) {
    // Coming back after a dropped socket: the same participant, if the token still holds; else a new one.
    const resumed = await resumePlace(ctx, { token: message.resume, target, socketId: connection.id, actor });
    if (resumed.kind === 'resumed') {
      actAsPassed(connection, passed);
      await ParticipantSession.enter(connection, resumed, since, true);
      return;
    }
    connection.send({ type: 'error', code: 'resume_refused', message: 'This participant cannot be resumed (unknown or spent token, or too late): joining anew.' });
  }
  const outcome = await joinPlace(ctx, arrival);
  if (outcome.kind !== 'refused') actAsPassed(connection, passed);
  switch (outcome.kind) {
    case 'refused':
      if (outcome.reason === 'bad_name') return connection.refuse(CloseCode.badMessage, 'bad_name', outcome.message ?? 'Invalid name.');
      return connection.refuse(JOIN_REFUSALS[outcome.reason].code, outcome.reason, JOIN_REFUSALS[outcome.reason].message);
    case 'knocking':
      KnockerSession.knock(connection, outcome, arrival);
      return;
    case 'entered':
      await ParticipantSession.enter(connection, outcome, since);
  }
}

/** The pass's member rights last while the member does (sign-in-watch.ts). */
function actAsPassed(connection: SessionHost, passed: Awaited<ReturnType<typeof memberOfPass>>): void {
  if (passed?.kind !== 'member') return;
  connection.actAs(passed);
  connection.services.signIns.watch(connection, { userId: passed.user.id, organizationId: passed.organization.id, sessionHash: null });
}

export async function handleWait(connection: SessionHost, message: MessageOf<'wait'>): Promise<void> {
  const { ctx } = connection.services;
  let displayName: string;
  try {
    displayName = checkDisplayName(message.name);
  } catch (error) {
    return connection.refuse(CloseCode.badMessage, 'bad_name', error instanceof DomainError ? error.message : 'Invalid name.');
  }
  const result = await arrive(ctx, { slug: message.slug, displayName, connectionId: connection.id, token: message.token ?? undefined, readiness: message.readiness, address: connection.address });
  if (!result.ok) {
    const refusal = WAIT_REFUSALS[result.reason];
    return connection.refuse(refusal.code, result.reason, refusal.message);
  }
  WaitingClientSession.wait(connection, result.entry.id, { organizationId: result.entry.organizationId, spaceId: result.entry.spaceId, kind: result.space.kind });
  const snapshot = await clientSnapshot(ctx, result.entry.id);
  if (snapshot) connection.send({ type: 'waiting', token: result.token, view: snapshot.view });
}

export async function handleConsole(connection: SessionHost, message: MessageOf<'console'>): Promise<void> {
  const actor = connection.member;
  if (actor?.kind !== 'member') return connection.refuse(CloseCode.notJoinable, 'not_signed_in', 'Sign in to the dashboard to open a console.');
  const { ctx } = connection.services;
  try {
    const space = await openConsole(ctx, actor, message.kind, message.spaceId, connection.id);
    ConsoleSession.open(connection, actor, { organizationId: space.organizationId, spaceId: space.id, kind: space.kind });
    const view = await memberSnapshot(ctx, actor, space.id);
    if (view) connection.send({ type: 'console', view });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return connection.refuse(CloseCode.notFound, 'not_found', 'There is no such board or queue of yours.');
    throw error;
  }
}

export const OPENING: HandlerTable<SessionHost> = {
  join: handleJoin,
  wait: handleWait,
  console: handleConsole,
};

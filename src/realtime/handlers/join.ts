/**
 * @module realtime/handlers/join
 * `join`: enter a meeting or a room's session (the domain decides whether
 * one may), then welcome the participant with who is there and tell the
 * others. At a locked meeting (or for a participant the admin removed)
 * the participant knocks instead: they are told `knocking`, the admin sees
 * them, and once let in they enter with what they asked for
 * (`enterAdmitted`).
 */
import { DomainError } from '../../domain/errors.ts';
import { admissionOf, hostEntered, knock, knocksOf, withdrawKnock } from '../../domain/meeting-admin.ts';
import {
  checkDisplayName,
  enterPlace,
  leavePlace,
  meetingAtLink,
  participantsOf,
  type JoinRefusal,
  type JoinResult,
  type JoinTarget,
} from '../../domain/places.ts';
import { memberJoinedCall } from '../../domain/waiting/calls.ts';
import type { ClientConnection } from '../contracts.ts';
import { CloseCode, knockView, participantView, type ClientMessage } from '../protocol.ts';

const REFUSALS: Record<JoinRefusal, { code: number; message: string }> = {
  not_found: { code: CloseCode.notFound, message: 'There is no such meeting or room.' },
  closed: { code: CloseCode.gone, message: 'This meeting has ended.' },
  deleted: { code: CloseCode.gone, message: 'This meeting has ended.' },
  inactive: { code: CloseCode.notJoinable, message: 'This place is not active.' },
  waiting_list: { code: CloseCode.notJoinable, message: 'This place has a waiting list: get in its line with `wait`.' },
};

export async function handleJoin(connection: ClientConnection, message: Extract<ClientMessage, { type: 'join' }>): Promise<void> {
  const { hub } = connection;
  let displayName: string;
  try {
    displayName = checkDisplayName(message.name);
  } catch (error) {
    return connection.refuse(CloseCode.badMessage, 'bad_name', error instanceof DomainError ? error.message : 'Invalid name.');
  }
  let host = false;
  if ('meetingId' in message.target) {
    const found = await meetingAtLink(hub.ctx, { id: message.target.meetingId });
    if (found?.state === 'open') {
      const admission = await admissionOf(hub.ctx, found.meeting, { actor: connection.member, guestKey: connection.guestKey });
      if (admission.kind === 'knock') {
        await knock(hub.ctx, found.meeting, { id: connection.id, displayName, guestKey: connection.guestKey }, admission.wasRemoved);
        if (connection.state === 'gone') return withdrawKnock(hub.ctx, connection.id);
        connection.knocks({ kind: 'meeting', id: found.meeting.id }, { meetingId: found.meeting.id, displayName, audio: message.audio, video: message.video });
        connection.send({ type: 'knocking', wasRemoved: admission.wasRemoved });
        return;
      }
      host = admission.host;
      if (host) await hostEntered(hub.ctx, connection.member, found.meeting);
    }
  }
  await enter(connection, message.target, { displayName, audio: message.audio, video: message.video }, host);
}

/** A knocking participant was let in: they enter with what they asked for when they knocked. */
export async function enterAdmitted(connection: ClientConnection): Promise<void> {
  const pending = connection.pendingJoin;
  if (connection.state !== 'knocking' || !pending) return;
  await withdrawKnock(connection.hub.ctx, connection.id);
  await enter(connection, { meetingId: pending.meetingId }, pending, false);
}

async function enter(connection: ClientConnection, target: JoinTarget, asked: { displayName: string; audio: boolean; video: boolean }, host: boolean): Promise<void> {
  const { hub } = connection;
  const result = await enterPlace(hub.ctx, target, { id: connection.id, ...asked, screen: false, host, guestKey: connection.guestKey });
  if (!result.ok) {
    const refusal = REFUSALS[result.reason];
    return connection.refuse(refusal.code, result.reason, refusal.message);
  }
  if (connection.state === 'gone') {
    // The socket closed while joining: undo at once.
    await leavePlace(hub.ctx, connection.id);
    hub.publish({ t: 'presence', place: result.place });
    return;
  }
  connection.joined(result.place, host);
  // The member who took a waiting client joining their call starts it.
  if (connection.member && result.place.kind === 'meeting') await memberJoinedCall(hub.ctx, connection.member, result.place.id);
  await welcome(connection, result);
  hub.publish({ t: 'presence', place: result.place });
}

async function welcome(connection: ClientConnection, result: Extract<JoinResult, { ok: true }>): Promise<void> {
  const { hub } = connection;
  const participants = (await participantsOf(hub.ctx, result.place)).map(participantView);
  const meeting = result.place.kind === 'meeting' ? await meetingAtLink(hub.ctx, { id: result.place.id }) : undefined;
  connection.send({
    type: 'welcome',
    you: participantView(result.participant),
    place: { kind: result.place.kind === 'meeting' ? 'meeting' : 'room', title: result.title },
    participants,
    host: connection.host,
    locked: meeting !== undefined && meeting.meeting.lock !== 'open',
  });
  if (connection.host && meeting) {
    connection.send({ type: 'knocks', knocks: (await knocksOf(hub.ctx, connection.member, meeting.meeting.id)).map(knockView) });
  }
}

/**
 * @module realtime/handlers/join
 * `join`: enter a meeting or a room's session (the domain decides whether
 * one may), then welcome the participant with who is there and tell the
 * others.
 */
import { DomainError } from '../../domain/errors.ts';
import { enterPlace, leavePlace, participantsOf, type JoinRefusal } from '../../domain/places.ts';
import type { ClientConnection } from '../contracts.ts';
import { CloseCode, participantView, type ClientMessage } from '../protocol.ts';
import { checkDisplayName } from '../../domain/places.ts';
import { memberJoinedCall } from '../../domain/waiting/calls.ts';

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
  const result = await enterPlace(hub.ctx, message.target, {
    id: connection.id,
    displayName,
    audio: message.audio,
    video: message.video,
    screen: false,
  });
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
  connection.joined(result.place);
  // The member who took a waiting client joining their call starts it.
  if (connection.member && result.place.kind === 'meeting') await memberJoinedCall(hub.ctx, connection.member, result.place.id);
  const participants = (await participantsOf(hub.ctx, result.place)).map(participantView);
  connection.send({
    type: 'welcome',
    you: participantView(result.participant),
    place: { kind: result.place.kind === 'meeting' ? 'meeting' : 'room', title: result.title },
    participants,
  });
  hub.publish({ t: 'presence', place: result.place });
}

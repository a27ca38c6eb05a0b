/**
 * @module realtime/handlers/wait
 * `wait`: a client asks to be seen at a board or queue (by its slug), or
 * comes back with the token of the place they had. They are answered with
 * their view of the line (place, estimate, whether anyone is available);
 * every change of the line sends them a new one.
 */
import { DomainError } from '../../domain/errors.ts';
import { checkDisplayName } from '../../domain/places.ts';
import { arrive } from '../../domain/waiting/arrival.ts';
import { clientSnapshot } from '../../domain/waiting/views.ts';
import type { ClientConnection } from '../contracts.ts';
import { CloseCode, type ClientMessage } from '../protocol.ts';

const REFUSALS = {
  not_found: { code: CloseCode.notFound, message: 'There is no such board or queue.' },
  inactive: { code: CloseCode.notJoinable, message: 'This place is not active.' },
  no_waiting_list: { code: CloseCode.notJoinable, message: 'This board has no waiting list: join it directly.' },
} as const;

export async function handleWait(connection: ClientConnection, message: Extract<ClientMessage, { type: 'wait' }>): Promise<void> {
  const { hub } = connection;
  let displayName: string;
  try {
    displayName = checkDisplayName(message.name);
  } catch (error) {
    return connection.refuse(CloseCode.badMessage, 'bad_name', error instanceof DomainError ? error.message : 'Invalid name.');
  }
  const result = await arrive(hub.ctx, { slug: message.slug, displayName, connectionId: connection.id, token: message.token ?? undefined });
  if (!result.ok) {
    const refusal = REFUSALS[result.reason];
    return connection.refuse(refusal.code, result.reason, refusal.message);
  }
  if (connection.state === 'gone') return;
  connection.waits(result.entry.id, { organizationId: result.entry.organizationId, spaceId: result.entry.spaceId });
  const snapshot = await clientSnapshot(hub.ctx, result.entry.id);
  if (snapshot) connection.send({ type: 'waiting', token: result.token, view: snapshot.view });
}

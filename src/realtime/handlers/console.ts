/**
 * @module realtime/handlers/console
 * A member's console for a board or queue they are on: `console` opens it
 * (only with the member's session; anyone else is refused), then
 * `accept`, `decline`, `take_next` and `status` act on its line. A refused
 * action (the client was taken by someone else a moment before, the member
 * is busy) is answered with an `error` and the console stays open; the
 * line's next view shows what happened.
 */
import { DomainError } from '../../domain/errors.ts';
import { openConsole } from '../../domain/waiting/consoles.ts';
import { acceptClient, declineClient, setMemberStatus, takeNext } from '../../domain/waiting/serving.ts';
import { memberSnapshot } from '../../domain/waiting/views.ts';
import type { ClientConnection } from '../contracts.ts';
import { CloseCode, type ClientMessage } from '../protocol.ts';

type Message<T extends ClientMessage['type']> = Extract<ClientMessage, { type: T }>;

export async function handleConsole(connection: ClientConnection, message: Message<'console'>): Promise<void> {
  const actor = connection.member;
  if (!actor) return connection.refuse(CloseCode.notJoinable, 'not_signed_in', 'Sign in to the dashboard to open a console.');
  try {
    const space = await openConsole(connection.hub.ctx, actor, message.kind, message.spaceId, connection.id);
    if (connection.state === 'gone') return;
    connection.watches({ organizationId: space.organizationId, spaceId: space.id });
    const view = await memberSnapshot(connection.hub.ctx, actor, space.id);
    if (view) connection.send({ type: 'console', view });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not_found') return connection.refuse(CloseCode.notFound, 'not_found', 'There is no such board or queue of yours.');
    throw error;
  }
}

/** Runs a console action; the domain's refusals go back to the member as an error, the console stays. */
async function act(connection: ClientConnection, action: (spaceId: string) => Promise<unknown>): Promise<void> {
  const actor = connection.member;
  const watched = connection.watched;
  if (!actor || !watched) return;
  try {
    await action(watched.spaceId);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    connection.send({ type: 'error', code: error.code, message: error.message });
  }
}

export function handleAccept(connection: ClientConnection, message: Message<'accept'>): Promise<void> {
  return act(connection, (spaceId) => acceptClient(connection.hub.ctx, connection.member!, spaceId, message.entryId));
}

export function handleDecline(connection: ClientConnection, message: Message<'decline'>): Promise<void> {
  return act(connection, (spaceId) => declineClient(connection.hub.ctx, connection.member!, spaceId, message.entryId, message.message ?? undefined));
}

export async function handleTakeNext(connection: ClientConnection): Promise<void> {
  const kind = (await spaceKind(connection)) ?? 'queue';
  return act(connection, async (spaceId) => {
    if (!(await takeNext(connection.hub.ctx, connection.member!, kind, spaceId))) {
      connection.send({ type: 'error', code: 'nobody_waiting', message: 'Nobody is waiting.' });
    }
  });
}

export async function handleStatus(connection: ClientConnection, message: Message<'status'>): Promise<void> {
  const kind = (await spaceKind(connection)) ?? 'queue';
  return act(connection, (spaceId) =>
    setMemberStatus(connection.hub.ctx, connection.member!, kind, spaceId, { isActive: message.isActive, isAutoAccepting: message.isAutoAccepting }),
  );
}

async function spaceKind(connection: ClientConnection): Promise<'board' | 'queue' | undefined> {
  const watched = connection.watched;
  return watched && (await connection.hub.ctx.store.findSpaceById(watched.organizationId, watched.spaceId))?.kind;
}

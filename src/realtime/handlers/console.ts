/**
 * @module realtime/handlers/console
 * What a member does in their console of a board or queue: `accept`,
 * `decline`, `take_next`, `remove_client` and `status` act on its line. A refused action
 * (the client was taken by someone else a moment before, the member is
 * busy) is answered with an `error` and the console stays open; the
 * line's next view shows what happened.
 */
import { DomainError } from '../../domain/errors.ts';
import { acceptClient, declineClient, removeClient, setMemberStatus, takeNext } from '../../domain/waiting/serving.ts';
import type { ConsoleRole, MessageOf } from '../session.ts';

/** Runs a console action; the domain's refusals go back to the member as an error, the console stays. */
async function act(session: ConsoleRole, action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    session.connection.send({ type: 'error', code: error.code, message: error.message });
  }
}

export function handleAccept(session: ConsoleRole, message: MessageOf<'accept'>): Promise<void> {
  return act(session, () => acceptClient(session.connection.services.ctx, session.actor, session.watched.spaceId, message.entryId));
}

export function handleDecline(session: ConsoleRole, message: MessageOf<'decline'>): Promise<void> {
  return act(session, () => declineClient(session.connection.services.ctx, session.actor, session.watched.spaceId, message.entryId, message.message ?? undefined));
}

export function handleRemoveClient(session: ConsoleRole, message: MessageOf<'remove_client'>): Promise<void> {
  const { watched, connection } = session;
  return act(session, () => removeClient(connection.services.ctx, session.actor, watched.kind, watched.spaceId, message.entryId));
}

export function handleTakeNext(session: ConsoleRole): Promise<void> {
  const { watched, connection } = session;
  return act(session, async () => {
    if (!(await takeNext(connection.services.ctx, session.actor, watched.kind, watched.spaceId))) {
      connection.send({ type: 'error', code: 'nobody_waiting', message: 'Nobody is waiting.' });
    }
  });
}

export function handleStatus(session: ConsoleRole, message: MessageOf<'status'>): Promise<void> {
  const { watched, connection } = session;
  return act(session, () =>
    setMemberStatus(connection.services.ctx, session.actor, watched.kind, watched.spaceId, { isActive: message.isActive, isAutoAccepting: message.isAutoAccepting }),
  );
}

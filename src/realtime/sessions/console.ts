/**
 * @module realtime/sessions/console
 * A member's console of a board or queue they are on: they follow its
 * line on this instance, accept, decline, take the next client, remove
 * one from the line and set
 * their own status. Closing closes the console: with none left open and a
 * client in a call, the member's grace period starts. The member's session
 * ending closes it too (4401).
 */
import type { Actor } from '../../domain/actors.ts';
import { closeConsole } from '../../domain/waiting/consoles.ts';
import { handleAccept, handleDecline, handleRemoveClient, handleStatus, handleTakeNext } from '../handlers/console.ts';
import type { Watched } from '../waiting-lists.ts';
import { CloseCode } from '../protocol.ts';
import type { ConsoleRole, HandlerTable, SessionHost } from '../session.ts';
import { FollowingSession } from './following.ts';

const HANDLERS: HandlerTable<ConsoleSession> = {
  accept: handleAccept,
  decline: handleDecline,
  take_next: handleTakeNext,
  remove_client: handleRemoveClient,
  status: handleStatus,
};

type Member = Extract<Actor, { kind: 'member' }>;

export class ConsoleSession extends FollowingSession implements ConsoleRole {
  readonly role = 'console';
  private signedIn = true;

  private constructor(
    connection: SessionHost,
    readonly actor: Member,
    watched: Watched,
  ) {
    super(connection, watched);
  }

  /** The member's console is open: the connection becomes it and follows the line. */
  static open(connection: SessionHost, actor: Member, watched: Watched): ConsoleSession {
    const session = new ConsoleSession(connection, actor, watched);
    session.start();
    return session;
  }

  /** Nothing more once the member's session ended: messages queued before the close are refused. */
  get handlers(): HandlerTable<ConsoleSession> {
    return this.signedIn ? HANDLERS : {};
  }

  /** The member's session ended: the console closes (the page offers to sign in again). */
  signedOut(): void {
    this.signedIn = false;
    this.refuse(CloseCode.signedOut, 'signed_out', 'Your sign-in has ended. Sign in again to open the console.');
  }

  get userId(): string {
    return this.actor.user.id;
  }

  protected async away(): Promise<void> {
    await closeConsole(this.connection.services.ctx, this.connection.id);
  }
}

/**
 * @module realtime/sessions/following
 * What the two roles that follow a waiting line share (a waiting client, a
 * member's console): they are sent each new view of the board's or
 * queue's line while their connection is open here, and stop following
 * when it closes, before their own close behaviour.
 */
import type { Follower, Watched } from '../waiting-lists.ts';
import type { ServerMessage } from '../protocol.ts';
import type { HandlerTable, Session, SessionHost } from '../session.ts';

export abstract class FollowingSession implements Session {
  abstract readonly role: 'waiting' | 'console';
  abstract get handlers(): HandlerTable<never>;

  constructor(
    readonly connection: SessionHost,
    readonly watched: Watched,
  ) {}

  /** The connection becomes this session, which follows its line from now on. */
  protected start(): void {
    this.connection.become(this);
    this.connection.services.waitingLists.follow(this as unknown as Follower);
  }

  send(message: ServerMessage): void {
    this.connection.send(message);
  }

  refuse(code: number, errorCode: string, message: string): void {
    this.connection.refuse(code, errorCode, message);
  }

  async closed(): Promise<void> {
    this.connection.services.waitingLists.forget(this as unknown as Follower);
    await this.away();
  }

  /** What the role's absence means in the domain. */
  protected abstract away(): Promise<void>;
}

/**
 * @module realtime/contracts
 * The seams between the hub, a connection, the message handlers and the
 * sweeper, as interfaces, so each depends on what it uses rather than on
 * the others' classes (and no module imports one that imports it back).
 */
import type { Actor } from '../domain/actors.ts';
import type { LiveContext } from '../domain/lifecycle.ts';
import type { MediaState, PlaceRef } from '../domain/presence.ts';
import type { BusMessage } from './bus.ts';
import type { ClientMessage, ServerMessage } from './protocol.ts';

export interface RealtimeLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** What every part of the hub shares: the live domain context, the log, the bus. */
export interface HubServices {
  readonly ctx: LiveContext;
  readonly log: RealtimeLogger;
  publish(message: BusMessage): void;
  /** Keeps `promise` in the set the hub waits for when it stops. */
  track<T>(promise: Promise<T>): Promise<T>;
}

/**
 * new: opened, nothing asked yet; joined: in a meeting place; knocking:
 * waiting for a meeting's admin to let them in; waiting: a client in a
 * waiting list; console: a member watching a board or queue.
 */
export type ConnectionState = 'new' | 'joined' | 'knocking' | 'waiting' | 'console' | 'gone';

/** What a knocking participant asked for, to enter with once let in. */
export interface PendingJoin {
  meetingId: string;
  displayName: string;
  audio: boolean;
  video: boolean;
}

/** What a waiting client or a console watches. */
export interface Watched {
  organizationId: string;
  spaceId: string;
}

/** What a handler sees of the connection whose message it handles. */
export interface ClientConnection {
  readonly id: string;
  readonly hub: HubServices;
  readonly state: ConnectionState;
  readonly place: PlaceRef | undefined;
  /** The signed-in member whose browser opened this connection (its session cookie), if any. */
  readonly member: Actor | null;
  /** Who this is across reconnects: the member, or the browser's participant cookie (hashed); null when unknown. */
  readonly guestKey: string | null;
  /** In a meeting as its admin. */
  readonly host: boolean;
  /** A knocking participant's join, to enter with once let in. */
  readonly pendingJoin: PendingJoin | undefined;
  /** A waiting client's entry, once they wait. */
  readonly entryId: string | undefined;
  /** The space a waiting client or a console follows. */
  readonly watched: Watched | undefined;
  send(message: ServerMessage): void;
  /** Tells the client why (an `error` message), then closes with `code`. */
  refuse(code: number, errorCode: string, message: string): void;
  close(code: number, reason: string): void;
  /** The join went through: the connection is now in `place` (as its admin, with `host`). */
  joined(place: PlaceRef, host?: boolean): void;
  /** The participant knocks at the meeting `place`, waiting for its admin. */
  knocks(place: PlaceRef, pending: PendingJoin): void;
  /** The client is in a waiting list, with this entry. */
  waits(entryId: string, watched: Watched): void;
  /** The member's console follows this space. */
  watches(watched: Watched): void;
  announceMedia(media: MediaState): void;
}

/** One client message type's handling, and in which state of the connection it is accepted. */
export interface Handler<T extends ClientMessage['type']> {
  /** The connection states in which the message is accepted. */
  when: 'any' | readonly ConnectionState[];
  handle(connection: ClientConnection, message: Extract<ClientMessage, { type: T }>): Promise<void> | void;
}

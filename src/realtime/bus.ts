/**
 * @module realtime/bus
 * How instances tell each other about a meeting place: a participant
 * joined, left, changed their media or raised their hand (a delta: the
 * changed participant, never the whole list), a signalling message for a
 * participant, a chat message or reaction for everyone in it, a place
 * ended, a host's decision, a waiting list changed. In one process the
 * local bus delivers in process; with REDIS_URL the Redis bus fans out to
 * every instance (see redis-bus.ts). Every instance receives every message
 * and each subscriber keeps only what concerns it.
 */
import type { MediaState, PlaceRef } from '../domain/presence.ts';
import type { ChatMessage, ReactionMessage, ServerMessage } from './protocol.ts';

export type RelayedMessage = Extract<ServerMessage, { type: 'offer' | 'answer' | 'ice' }>;

/** A participant as the bus carries them: what others see, and their order in the list. */
export interface ListedParticipant extends MediaState {
  id: string;
  displayName: string;
  host: boolean;
  /** Milliseconds since the epoch; the list is ordered by it, then by id. */
  joinedAt: number;
  /** Their hand is raised: known from the deltas only, never stored (a list read from the database has none). */
  hand?: boolean;
  /** Their socket dropped and they may come back (set only while true). */
  reconnecting?: boolean;
}

/** One change of a place's participants. */
export type PresenceChange =
  | { kind: 'joined'; participant: ListedParticipant }
  | { kind: 'left'; participantId: string }
  | { kind: 'media'; participantId: string; media: MediaState }
  | { kind: 'hand'; participantId: string; raised: boolean }
  /** Their socket dropped (they are kept for the grace period), or they came back on a new one. */
  | { kind: 'connection'; participantId: string; reconnecting: boolean }

  /** No longer the host (their member rights ended). */
  | { kind: 'unhosted'; participantId: string };

export type BusMessage =
  | { t: 'presence'; place: PlaceRef; change: PresenceChange }
  | { t: 'signal'; place: PlaceRef; to: string; message: RelayedMessage }
  /** The participant came back on socket `socketId`: any other socket of theirs is closed, without leaving. */
  | { t: 'resumed'; place: PlaceRef; participantId: string; socketId: string }
  /** An instance caught up from the database: the others announce their participants' hands in the place again. */
  | { t: 'hands'; place: PlaceRef }
  /** For every participant of the place (chat, reactions): relayed, never stored. */
  | { t: 'broadcast'; place: PlaceRef; message: ChatMessage | ReactionMessage }
  | { t: 'ended'; place: PlaceRef; reason: 'closed' | 'deleted'; byHost?: boolean }
  /** The host's decisions (see host-delivery.ts). */
  | { t: 'lock'; place: PlaceRef; locked: boolean }
  | { t: 'knocks'; place: PlaceRef }
  | { t: 'admission'; place: PlaceRef; knockId: string; admitted: boolean }
  | { t: 'removed'; place: PlaceRef; participantId: string }
  | { t: 'mute'; place: PlaceRef; to: string }
  | { t: 'lower_hand'; place: PlaceRef; to: string }
  | { t: 'chat_state'; place: PlaceRef; off: boolean }
  /** A board's or queue's waiting list changed: its followers are sent their view. */
  | { t: 'waiting_list'; organizationId: string; spaceId: string }
  /** The same, as instances of the previous release name it: heard during a rolling upgrade, never sent. */
  | { t: 'line'; organizationId: string; spaceId: string }
  /** A member's sign-in session (or all of them) ended: sockets check theirs now (sign-in-watch.ts). */
  | { t: 'signed_out'; userId: string };

export type BusHandler = (message: BusMessage) => void;

export interface Bus {
  /** Delivers to this instance's subscribers and to every other instance. */
  publish(message: BusMessage): void;
  /** Adds a subscriber; returns the way to remove it. */
  subscribe(handler: BusHandler): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
  /** Whether the connection to other instances is up (for metrics); absent for the local bus. */
  isUp?(): boolean;
  /**
   * Calls `listener` whenever messages of other instances may have been
   * lost: the connection came back after a loss, or an instance's
   * sequence of messages skipped a number. Listeners catch up from the
   * database.
   */
  onLost?(listener: (why: 'reconnected' | 'missed') => void): void;
}

/** The subscribers of one instance; both buses deliver through it. */
export class Subscribers {
  private readonly handlers = new Set<BusHandler>();

  add(handler: BusHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  deliver(message: BusMessage): void {
    for (const handler of this.handlers) handler(message);
  }
}

/** A single instance: delivery stays in process. */
export class LocalBus implements Bus {
  private readonly subscribers = new Subscribers();

  publish(message: BusMessage): void {
    // Asynchronous like the Redis bus, so callers never depend on re-entrancy.
    queueMicrotask(() => this.subscribers.deliver(message));
  }

  subscribe(handler: BusHandler): () => void {
    return this.subscribers.add(handler);
  }

  async start(): Promise<void> {}
  async close(): Promise<void> {}
}

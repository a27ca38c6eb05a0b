/**
 * @module realtime/bus
 * How instances tell each other about a meeting place: presence changed,
 * a signalling message for a participant, a place ended. In one process
 * the local bus delivers in process; with REDIS_URL the Redis bus fans out
 * to every instance (see redis-bus.ts). Every instance receives every
 * message and keeps only what concerns its own connections.
 */
import type { PlaceRef } from '../domain/presence.ts';
import type { ServerMessage } from './protocol.ts';

export type RelayedMessage = Extract<ServerMessage, { type: 'offer' | 'answer' | 'ice' }>;

export type BusMessage =
  | { t: 'presence'; place: PlaceRef }
  | { t: 'signal'; place: PlaceRef; to: string; message: RelayedMessage }
  | { t: 'ended'; place: PlaceRef; reason: 'closed' | 'deleted' };

export interface Bus {
  /** Delivers to this instance's handler and to every other instance. */
  publish(message: BusMessage): void;
  onMessage(handler: (message: BusMessage) => void): void;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** A single instance: delivery stays in process. */
export class LocalBus implements Bus {
  private handler: (message: BusMessage) => void = () => {};

  publish(message: BusMessage): void {
    // Asynchronous like the Redis bus, so callers never depend on re-entrancy.
    queueMicrotask(() => this.handler(message));
  }

  onMessage(handler: (message: BusMessage) => void): void {
    this.handler = handler;
  }

  async start(): Promise<void> {}
  async close(): Promise<void> {}
}

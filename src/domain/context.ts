/**
 * @module domain/context
 * What a domain command needs from the outside world, passed in explicitly so
 * tests can fix the clock and the edges can swap storage.
 */
import type { Store } from '../store/store.ts';

export interface DomainContext {
  store: Store;
  /** The clock; injectable so lifecycle rules can be tested without waiting. */
  now(): Date;
  /** The spec's `{redirect_host}`, without a trailing slash. */
  publicUrl: string;
  /** The spec's 15 minutes: how long an unattended meeting stays open. */
  idleCloseSeconds: number;
  /** Key for the API-secret hash (see keys.ts). */
  secretPepper: string;
  /** Told when a command ends a meeting, so the realtime layer can disconnect its participants at once. */
  events?: DomainEvents | undefined;
}

export interface DomainEvents {
  meetingEnded(meetingId: string, reason: 'deleted'): void;
}

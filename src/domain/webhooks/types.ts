/**
 * @module domain/webhooks/types
 * Webhook endpoints, the events they can ask for, and the deliveries the
 * outbox holds. Plain data; the rules are in the sibling modules.
 */

/** Every event type an endpoint can subscribe to, in catalogue order. */
export const WEBHOOK_EVENT_TYPES = [
  'meeting.created',
  'meeting.started',
  'meeting.ended',
  'participant.joined',
  'participant.left',
  'participant.removed',
  'participant.admitted',
  'participant.turned_away',
  'participant.mute_requested',
  'meeting.locked',
  'meeting.unlocked',
  'room.session.started',
  'room.session.ended',
  'waiting.client.joined',
  'waiting.client.accepted',
  'waiting.client.left',
  'member.status.changed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** A signing secret as stored: sealed (encrypted), valid until `expiresAt` (null: until rotated). */
export interface StoredSecret {
  sealed: string;
  createdAt: Date;
  expiresAt: Date | null;
}

export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  /** Why the endpoint was disabled (by an administrator or for failing), shown beside it. */
  disabledReason: string | null;
  /** Newest first; more than one during a rotation's overlap. */
  secrets: StoredSecret[];
  /** When the current run of failed attempts began; null after a success. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one endpoint: an outbox row while pending, its log entry afterwards. */
export interface WebhookDelivery {
  id: string;
  /** The `webhook-id`: the same for every attempt (and every endpoint) of one event. */
  eventId: string;
  organizationId: string;
  endpointId: string;
  eventType: WebhookEventType;
  /** Deliveries with the same key reach an endpoint in the order they were written. */
  orderingKey: string | null;
  /** The exact JSON body, signed as is on every attempt. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastStatus: number | null;
  lastError: string | null;
  lastLatencyMs: number | null;
  lastAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

/** A delivery a worker holds the lease of, with the endpoint it goes to. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
  leaseToken: string;
}

/** What one attempt came to, as the sender saw it. */
export type AttemptResult =
  | { ok: true; status: number; latencyMs: number }
  | { ok: false; retryable: boolean; status: number | null; error: string; latencyMs: number };

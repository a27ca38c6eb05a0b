/**
 * @module domain/webhooks/ports
 * The webhooks' port (`WebhookPorts`): endpoints per organization, and
 * the outbox of deliveries that workers claim with a lease.
 */
import type { Transactional } from '../ports/transactional.ts';
import type { DeliveryStatus, StoredSecret, WebhookDelivery, WebhookEndpoint, WebhookEventType } from './types.ts';

/** A change to an endpoint; absent fields stay as they are. */
export interface WebhookEndpointPatch {
  url?: string;
  events?: WebhookEventType[];
  description?: string;
  enabled?: boolean;
  disabledReason?: string | null;
  secrets?: StoredSecret[];
}

/** A delivery's state after an attempt. */
export interface DeliveryOutcome {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastStatus: number | null;
  lastError: string | null;
  lastLatencyMs: number;
  lastAttemptAt: Date;
  deliveredAt: Date | null;
}

export interface WebhookStore {
  insertWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void>;
  findWebhookEndpoint(organizationId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** Oldest first. */
  listWebhookEndpoints(organizationId: string): Promise<WebhookEndpoint[]>;
  updateWebhookEndpoint(organizationId: string, id: string, patch: WebhookEndpointPatch, at: Date): Promise<WebhookEndpoint | undefined>;
  /** Deletes the endpoint and its deliveries; returns it as it was. */
  deleteWebhookEndpoint(organizationId: string, id: string): Promise<WebhookEndpoint | undefined>;

  /** Appends to the outbox, in this order. */
  insertWebhookDeliveries(deliveries: WebhookDelivery[]): Promise<void>;
  /**
   * Leases up to `limit` due deliveries (pending, `nextAttemptAt` reached,
   * no live lease) of enabled endpoints, skipping any with an earlier
   * pending delivery of the same endpoint and ordering key. One atomic
   * conditional update per row, so concurrent workers never hold the same
   * delivery. Oldest first.
   */
  claimWebhookDeliveries(claim: { now: Date; leaseUntil: Date; leaseToken: string; limit: number }): Promise<Array<{ delivery: WebhookDelivery; endpoint: WebhookEndpoint }>>;
  /** Records an attempt's outcome and ends the lease, if the lease is still `leaseToken`'s; returns whether it was. */
  finishWebhookDelivery(id: string, leaseToken: string, outcome: DeliveryOutcome): Promise<boolean>;
  /** Marks an endpoint healthy (failingSince null) or failing since `at` (kept when already failing); returns the endpoint. */
  recordEndpointHealth(endpointId: string, healthy: boolean, at: Date): Promise<WebhookEndpoint | undefined>;
  /** An endpoint's deliveries, newest first. */
  listWebhookDeliveries(organizationId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  /** Makes a finished (or pending) delivery due again now, attempts from zero; undefined when not found. */
  resendWebhookDelivery(organizationId: string, id: string, at: Date): Promise<WebhookDelivery | undefined>;
  /** Forgets finished (delivered or failed) deliveries created before `before`; returns how many. */
  pruneWebhookDeliveries(before: Date): Promise<number>;
}

/** Webhook endpoints and the outbox of deliveries (webhooks/). */
export interface WebhookPorts extends WebhookStore, Transactional {}

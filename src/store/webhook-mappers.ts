/**
 * @module store/webhook-mappers
 * Rows of the webhook tables <-> domain objects (see mappers.ts for the
 * conventions).
 */
import type { StoredSecret, WebhookDelivery, WebhookEndpoint, WebhookEventType, DeliveryStatus } from '../domain/webhooks/types.ts';
import { toBool, toDate, toDateOrNull, toInt, toMillis, toMillisOrNull } from './mappers.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from './schema.ts';

interface SecretJson {
  sealed: string;
  createdAt: number;
  expiresAt: number | null;
}

export function secretsToJson(secrets: StoredSecret[]): string {
  return JSON.stringify(
    secrets.map((s): SecretJson => ({ sealed: s.sealed, createdAt: toMillis(s.createdAt), expiresAt: toMillisOrNull(s.expiresAt) })),
  );
}

export function endpointToRow(e: WebhookEndpoint): WebhookEndpointsTable {
  return {
    id: e.id,
    organization_id: e.organizationId,
    url: e.url,
    events: JSON.stringify(e.events),
    description: e.description,
    enabled: toInt(e.enabled),
    disabled_reason: e.disabledReason,
    secrets: secretsToJson(e.secrets),
    failing_since: toMillisOrNull(e.failingSince),
    created_at: toMillis(e.createdAt),
    updated_at: toMillis(e.updatedAt),
  };
}

export function rowToEndpoint(r: WebhookEndpointsTable): WebhookEndpoint {
  const secrets = (JSON.parse(r.secrets) as SecretJson[]).map((s) => ({
    sealed: s.sealed,
    createdAt: toDate(s.createdAt),
    expiresAt: toDateOrNull(s.expiresAt),
  }));
  return {
    id: r.id,
    organizationId: r.organization_id,
    url: r.url,
    events: JSON.parse(r.events) as WebhookEventType[],
    description: r.description,
    enabled: toBool(r.enabled),
    disabledReason: r.disabled_reason,
    secrets,
    failingSince: toDateOrNull(r.failing_since),
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

export function deliveryToRow(d: WebhookDelivery): Omit<WebhookDeliveriesTable, 'seq'> {
  return {
    id: d.id,
    event_id: d.eventId,
    organization_id: d.organizationId,
    endpoint_id: d.endpointId,
    event_type: d.eventType,
    ordering_key: d.orderingKey,
    payload: d.payload,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: toMillis(d.nextAttemptAt),
    lease_token: null,
    lease_until: null,
    last_status: d.lastStatus,
    last_error: d.lastError,
    last_latency_ms: d.lastLatencyMs,
    last_attempt_at: toMillisOrNull(d.lastAttemptAt),
    delivered_at: toMillisOrNull(d.deliveredAt),
    created_at: toMillis(d.createdAt),
  };
}

export function rowToDelivery(r: Omit<WebhookDeliveriesTable, 'seq'>): WebhookDelivery {
  return {
    id: r.id,
    eventId: r.event_id,
    organizationId: r.organization_id,
    endpointId: r.endpoint_id,
    eventType: r.event_type as WebhookEventType,
    orderingKey: r.ordering_key,
    payload: r.payload,
    status: r.status as DeliveryStatus,
    attempts: Number(r.attempts),
    nextAttemptAt: toDate(r.next_attempt_at),
    lastStatus: r.last_status === null ? null : Number(r.last_status),
    lastError: r.last_error,
    lastLatencyMs: r.last_latency_ms === null ? null : Number(r.last_latency_ms),
    lastAttemptAt: toDateOrNull(r.last_attempt_at),
    deliveredAt: toDateOrNull(r.delivered_at),
    createdAt: toDate(r.created_at),
  };
}

/**
 * @module http/presenters/webhook
 * Webhook endpoints and their deliveries on the wire (v3 extension). The
 * signing secret appears only in the answers that issue one (creation and
 * rotation), never when an endpoint is read.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint } from '../../domain/webhooks/types.ts';
import { named } from '../openapi-document.ts';
import { presentWebhook as presentWebhookEndpoint } from './webhook-endpoint.ts';
import { responseId } from '../route-schemas.ts';

const eventTypes = Type.Array(Type.String({ enum: [...WEBHOOK_EVENT_TYPES] }), {
  description: `Event types the endpoint receives: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
});

export const WebhookSchema = named('Webhook', Type.Object({
  id: responseId('UUID v4 generated at creation.'),
  url: Type.String(),
  events: eventTypes,
  description: Type.String(),
  enabled: Type.Boolean(),
  disabledReason: Type.Union([Type.String(), Type.Null()], { description: 'Why the endpoint is disabled (by hand, or after failing for long); null while enabled.' }),
  createdAt: Type.String({ format: 'date-time' }),
}));

export const IssuedWebhookSchema = named('IssuedWebhook', Type.Object({
  id: WebhookSchema.properties.id,
  url: WebhookSchema.properties.url,
  events: eventTypes,
  enabled: Type.Boolean(),
  secret: Type.String({ description: 'Signing secret, `whsec_` + base64, in the Standard Webhooks form. Shown only in this answer.' }),
}));

export const WebhookListSchema = named('WebhookList', Type.Object({ webhooks: Type.Array(WebhookSchema) }));

export const DeliverySchema = named('Delivery', Type.Object({
  id: responseId(),
  eventId: Type.String({ description: 'The `webhook-id` header: the same on every attempt; use it to drop duplicates.' }),
  eventType: Type.String({ enum: [...WEBHOOK_EVENT_TYPES] }),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When a pending delivery is tried next.' }),
  lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last answer; null when none came.' }),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastLatencyMs: Type.Union([Type.Integer(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}));

export const DeliveryListSchema = named('DeliveryList', Type.Object({ deliveries: Type.Array(DeliverySchema) }));

/** The shape shared with the CLI, held to this schema here: a field it lacks fails the type check (one it adds, the serializer drops). */
export const presentWebhook: (e: WebhookEndpoint) => Static<typeof WebhookSchema> = presentWebhookEndpoint;

export function presentIssuedWebhook(e: WebhookEndpoint, secret: string): Static<typeof IssuedWebhookSchema> {
  return { id: e.id, url: e.url, events: e.events, enabled: e.enabled, secret };
}

export function presentDelivery(d: WebhookDelivery): Static<typeof DeliverySchema> {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    lastLatencyMs: d.lastLatencyMs,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt ? d.deliveredAt.toISOString() : null,
  };
}

/**
 * @module domain/webhooks/outbox
 * What an organization's servers are told, and when it is written down:
 * the transactional listener turns each domain event worth telling into
 * one message (a stable id, type, timestamp and data carrying the ids the
 * API returns; never a secret, never an email) and writes it to the outbox
 * once per enabled endpoint that wants it, inside the transaction of the
 * change. So a message exists exactly when its change committed, and a
 * crash after the commit loses nothing: the worker sends what the outbox
 * holds.
 */
import type { DomainEvent, EventPublisher } from '../events.ts';
import { newId } from '../ids.ts';
import type { WebhookPorts } from './ports.ts';
import { isWebhookEventType, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from './types.ts';

export interface WebhookMessage {
  type: WebhookEventType;
  /** Messages with the same key reach an endpoint in order: a meeting, a session, a board or queue. */
  orderingKey: string;
  data: Record<string, unknown>;
}

/** The message a domain event becomes, or undefined for events not in the catalogue. */
export function webhookMessage(event: DomainEvent): WebhookMessage | undefined {
  if (!isWebhookEventType(event.type)) return undefined;
  switch (event.type) {
    case 'meeting.created':
    case 'meeting.started':
      return { type: event.type, orderingKey: `meeting:${event.meetingId}`, data: { meetingId: event.meetingId } };
    case 'meeting.ended': {
      // The host's End names them; an idle close, a delete and the organization's own API call name nobody.
      const data: Record<string, unknown> = { meetingId: event.meetingId, reason: event.reason };
      if (event.byUserId !== undefined) data.byUserId = event.byUserId;
      return { type: event.type, orderingKey: `meeting:${event.meetingId}`, data };
    }
    case 'participant.joined':
    case 'participant.left': {
      const where = event.place.kind === 'meeting' ? { meetingId: event.place.id } : { sessionId: event.place.id };
      const data: Record<string, unknown> = { ...where, participantId: event.participantId };
      if (event.type === 'participant.joined') data.displayName = event.displayName;
      return { type: event.type, orderingKey: `${event.place.kind}:${event.place.id}`, data };
    }
    case 'participant.removed':
      return {
        type: event.type,
        orderingKey: `meeting:${event.meetingId}`,
        data: { meetingId: event.meetingId, participantId: event.participantId, byUserId: event.byUserId },
      };
    case 'participant.admitted':
    case 'participant.turned_away':
      // A knock has no other name the API could give: its display name says who it was.
      return {
        type: event.type,
        orderingKey: `meeting:${event.meetingId}`,
        data: { meetingId: event.meetingId, knockId: event.knockId, displayName: event.displayName, byUserId: event.byUserId },
      };
    case 'participant.mute_requested':
      return {
        type: event.type,
        orderingKey: `meeting:${event.meetingId}`,
        data: { meetingId: event.meetingId, participantId: event.participantId, byUserId: event.byUserId },
      };
    case 'meeting.locked':
    case 'meeting.unlocked':
      return { type: event.type, orderingKey: `meeting:${event.meetingId}`, data: { meetingId: event.meetingId, byUserId: event.byUserId } };
    case 'room.session.started': {
      const owner = event.ownerKind === 'room' ? { roomId: event.ownerId } : { boardId: event.ownerId };
      return { type: event.type, orderingKey: `session:${event.sessionId}`, data: { sessionId: event.sessionId, ...owner } };
    }
    case 'room.session.ended':
      return { type: event.type, orderingKey: `session:${event.sessionId}`, data: { sessionId: event.sessionId } };
    case 'waiting.client.joined':
      return { type: event.type, orderingKey: `space:${event.spaceId}`, data: { spaceId: event.spaceId, entryId: event.entryId, displayName: event.displayName, readiness: event.readiness } };
    case 'waiting.client.accepted':
      return {
        type: event.type,
        orderingKey: `space:${event.spaceId}`,
        data: { spaceId: event.spaceId, entryId: event.entryId, userId: event.userId, meetingId: event.meetingId },
      };
    case 'waiting.client.left':
      return { type: event.type, orderingKey: `space:${event.spaceId}`, data: { spaceId: event.spaceId, entryId: event.entryId, state: event.state, outcome: event.outcome } };
    case 'member.status.changed':
      return {
        type: event.type,
        orderingKey: `space:${event.spaceId}`,
        data: { spaceId: event.spaceId, userId: event.userId, isActive: event.isActive, isAutoAccepting: event.isAutoAccepting },
      };
    default:
      return undefined;
  }
}

/** The body sent (and signed): the Standard Webhooks envelope of `type`, `timestamp` and `data`, plus the id. */
export function webhookBody(eventId: string, organizationId: string, message: WebhookMessage, at: Date): string {
  return JSON.stringify({ id: eventId, type: message.type, timestamp: at.toISOString(), organizationId, data: message.data });
}

/** Writes the transaction's events to the outbox of every enabled endpoint that wants them. */
export async function recordWebhookMessages(tx: WebhookPorts, events: readonly DomainEvent[]): Promise<void> {
  const endpointsOf = new Map<string, WebhookEndpoint[]>();
  const rows: WebhookDelivery[] = [];
  for (const event of events) {
    const message = webhookMessage(event);
    if (!message) continue;
    let endpoints = endpointsOf.get(event.organizationId);
    if (!endpoints) {
      endpoints = (await tx.listWebhookEndpoints(event.organizationId)).filter((e) => e.enabled);
      endpointsOf.set(event.organizationId, endpoints);
    }
    const wanting = endpoints.filter((e) => e.events.includes(message.type));
    if (wanting.length === 0) continue;
    const eventId = `msg_${newId().replaceAll('-', '')}`;
    const payload = webhookBody(eventId, event.organizationId, message, event.at);
    for (const endpoint of wanting) {
      rows.push({
        id: newId(),
        eventId,
        organizationId: event.organizationId,
        endpointId: endpoint.id,
        eventType: message.type,
        orderingKey: message.orderingKey,
        payload,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: event.at,
        lastStatus: null,
        lastError: null,
        lastLatencyMs: null,
        lastAttemptAt: null,
        deliveredAt: null,
        createdAt: event.at,
      });
    }
  }
  await tx.insertWebhookDeliveries(rows);
}

/** Subscribes the outbox to the publisher's transactions; returns the way to stop. */
export function recordWebhooksOf(events: EventPublisher): () => void {
  return events.subscribeInTransaction(recordWebhookMessages);
}

/**
 * @module domain/webhooks/endpoints
 * An organization's webhook endpoints: create (the signing secret is
 * returned once, then kept only sealed), read, change, disable, delete,
 * rotate the secret with an overlap in which old and new both sign, and
 * the per-endpoint delivery log with "resend".
 */
import type { Actor } from '../actors.ts';
import type { DomainContext } from '../context.ts';
import { NotFoundError, ValidationError, type FieldError } from '../errors.ts';
import { newId } from '../ids.ts';
import { authorize } from '../policies.ts';
import { checkText } from '../text.ts';
import { webhookUrlProblem } from './addresses.ts';
import type { WebhookEndpointPatch, WebhookPorts } from './ports.ts';
import { newSigningSecret, sealSecret, signingSecrets } from './secrets.ts';
import { WEBHOOK_EVENT_TYPES, isWebhookEventType, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from './types.ts';

export const WEBHOOK_DESCRIPTION_MAX = 500;
export const WEBHOOK_ENDPOINTS_MAX = 20;
export const DISABLED_REASON_MAX = 300;
/** How long a replaced secret keeps signing by default, so receivers can switch without losing a message. */
export const DEFAULT_ROTATION_OVERLAP_HOURS = 24;
export const ROTATION_OVERLAP_MAX_HOURS = 7 * 24;

export interface WebhookInput {
  url?: string;
  events?: string[];
  description?: string;
}

export interface IssuedEndpoint {
  endpoint: WebhookEndpoint;
  /** The only time the signing secret leaves the server. */
  secret: string;
}

function allowPrivate(ctx: DomainContext<WebhookPorts>): boolean {
  return ctx.webhooks?.allowPrivate ?? false;
}

function checkEvents(errors: FieldError[], events: string[] | undefined, required: boolean): WebhookEventType[] | undefined {
  if (events === undefined) {
    if (required) errors.push({ field: 'events', message: 'events is required.' });
    return undefined;
  }
  const unknown = events.filter((e) => !isWebhookEventType(e));
  if (unknown.length > 0) {
    errors.push({ field: 'events', message: `Unknown event type ${JSON.stringify(unknown[0])}; known: ${WEBHOOK_EVENT_TYPES.join(', ')}.` });
    return undefined;
  }
  if (events.length === 0) errors.push({ field: 'events', message: 'events names at least one event type.' });
  // Catalogue order, each once.
  return WEBHOOK_EVENT_TYPES.filter((t) => events.includes(t));
}

function checkInput(ctx: DomainContext<WebhookPorts>, input: WebhookInput, creating: boolean): { errors: FieldError[]; events: WebhookEventType[] | undefined } {
  const errors: FieldError[] = [];
  if (input.url === undefined) {
    if (creating) errors.push({ field: 'url', message: 'url is required.' });
  } else {
    const problem = webhookUrlProblem(input.url.trim(), allowPrivate(ctx));
    if (problem) errors.push({ field: 'url', message: problem });
  }
  const events = checkEvents(errors, input.events, creating);
  checkText(errors, 'description', input.description, { max: WEBHOOK_DESCRIPTION_MAX });
  return { errors, events };
}

export async function createWebhookEndpoint(ctx: DomainContext<WebhookPorts>, actor: Actor, input: WebhookInput): Promise<IssuedEndpoint> {
  authorize(actor, 'webhook.manage');
  const { errors, events } = checkInput(ctx, input, true);
  if (errors.length) throw new ValidationError(errors);
  const existing = await ctx.store.listWebhookEndpoints(actor.organization.id);
  if (existing.length >= WEBHOOK_ENDPOINTS_MAX) {
    throw ValidationError.field('url', `An organization has at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints.`);
  }
  const now = ctx.now();
  const secret = newSigningSecret();
  const endpoint: WebhookEndpoint = {
    id: newId(),
    organizationId: actor.organization.id,
    url: input.url!.trim(),
    events: events!,
    description: input.description?.trim() ?? '',
    enabled: true,
    disabledReason: null,
    secrets: [{ sealed: sealSecret(ctx.secretPepper, secret), createdAt: now, expiresAt: null }],
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.store.insertWebhookEndpoint(endpoint);
  return { endpoint, secret };
}

export async function listWebhookEndpoints(ctx: DomainContext<WebhookPorts>, actor: Actor): Promise<WebhookEndpoint[]> {
  authorize(actor, 'webhook.manage');
  return ctx.store.listWebhookEndpoints(actor.organization.id);
}

export async function getWebhookEndpoint(ctx: DomainContext<WebhookPorts>, actor: Actor, id: string): Promise<WebhookEndpoint> {
  authorize(actor, 'webhook.manage');
  const endpoint = await ctx.store.findWebhookEndpoint(actor.organization.id, id);
  if (!endpoint) throw new NotFoundError('webhook endpoint');
  return endpoint;
}

export interface WebhookChange extends WebhookInput {
  enabled?: boolean;
}

/** Changes URL, events, description or enabled; disabling by hand records who did it as the reason. */
export async function updateWebhookEndpoint(ctx: DomainContext<WebhookPorts>, actor: Actor, id: string, change: WebhookChange): Promise<WebhookEndpoint> {
  authorize(actor, 'webhook.manage');
  await getWebhookEndpoint(ctx, actor, id);
  const { errors, events } = checkInput(ctx, change, false);
  if (errors.length) throw new ValidationError(errors);
  const patch: WebhookEndpointPatch = {};
  if (change.url !== undefined) patch.url = change.url.trim();
  if (events !== undefined) patch.events = events;
  if (change.description !== undefined) patch.description = change.description.trim();
  if (change.enabled !== undefined) {
    patch.enabled = change.enabled;
    patch.disabledReason = change.enabled ? null : `Disabled by ${actor.kind === 'member' ? actor.user.fullName : actor.kind === 'api_key' ? 'an API client' : 'the operator'}.`;
  }
  const updated = await ctx.store.updateWebhookEndpoint(actor.organization.id, id, patch, ctx.now());
  if (!updated) throw new NotFoundError('webhook endpoint');
  return updated;
}

export async function deleteWebhookEndpoint(ctx: DomainContext<WebhookPorts>, actor: Actor, id: string): Promise<WebhookEndpoint> {
  authorize(actor, 'webhook.manage');
  const endpoint = await ctx.store.deleteWebhookEndpoint(actor.organization.id, id);
  if (!endpoint) throw new NotFoundError('webhook endpoint');
  return endpoint;
}

/**
 * Issues a new signing secret; the current one keeps signing for
 * `overlapHours` (0: stops at once), so receivers can add the new one
 * before the old one stops. Secrets whose overlap ended are dropped.
 */
export async function rotateWebhookSecret(
  ctx: DomainContext<WebhookPorts>,
  actor: Actor,
  id: string,
  overlapHours = DEFAULT_ROTATION_OVERLAP_HOURS,
): Promise<IssuedEndpoint> {
  const endpoint = await getWebhookEndpoint(ctx, actor, id);
  if (!Number.isInteger(overlapHours) || overlapHours < 0 || overlapHours > ROTATION_OVERLAP_MAX_HOURS) {
    throw ValidationError.field('overlapHours', `overlapHours is a whole number from 0 to ${ROTATION_OVERLAP_MAX_HOURS}.`);
  }
  const now = ctx.now();
  const until = new Date(now.getTime() + overlapHours * 3600_000);
  const kept = signingSecrets(endpoint.secrets, now).map((s) => ({
    ...s,
    expiresAt: s.expiresAt === null || s.expiresAt > until ? until : s.expiresAt,
  }));
  const secret = newSigningSecret();
  const secrets = [{ sealed: sealSecret(ctx.secretPepper, secret), createdAt: now, expiresAt: null }, ...(overlapHours > 0 ? kept : [])];
  const updated = await ctx.store.updateWebhookEndpoint(actor.organization.id, id, { secrets }, now);
  if (!updated) throw new NotFoundError('webhook endpoint');
  return { endpoint: updated, secret };
}

export const DELIVERY_LOG_LIMIT = 100;

/** An endpoint's latest deliveries, newest first. */
export async function listWebhookDeliveries(ctx: DomainContext<WebhookPorts>, actor: Actor, endpointId: string, limit = DELIVERY_LOG_LIMIT): Promise<WebhookDelivery[]> {
  await getWebhookEndpoint(ctx, actor, endpointId);
  return ctx.store.listWebhookDeliveries(actor.organization.id, endpointId, Math.min(Math.max(limit, 1), DELIVERY_LOG_LIMIT));
}

/** Sends a delivery again (same id, so receivers that saw it can tell), as soon as a worker is free. */
export async function resendWebhookDelivery(ctx: DomainContext<WebhookPorts>, actor: Actor, deliveryId: string): Promise<WebhookDelivery> {
  authorize(actor, 'webhook.manage');
  const delivery = await ctx.store.resendWebhookDelivery(actor.organization.id, deliveryId, ctx.now());
  if (!delivery) throw new NotFoundError('webhook delivery');
  return delivery;
}

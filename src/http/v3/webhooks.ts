/**
 * @module http/v3/webhooks
 * Webhook endpoints under `/v3/webhooks`: an extension beyond the spec
 * (which describes no events), with the same authentication and the
 * conventions of boards: create, list, read, update (POST to the object),
 * delete; plus secret rotation and the delivery log with resend.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DomainContext } from '../../domain/context.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { isUuidV4 } from '../../domain/ids.ts';
import {
  DEFAULT_ROTATION_OVERLAP_HOURS,
  ROTATION_OVERLAP_MAX_HOURS,
  WEBHOOK_DESCRIPTION_MAX,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  resendWebhookDelivery,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '../../domain/webhooks/endpoints.ts';
import { WEBHOOK_URL_MAX } from '../../domain/webhooks/addresses.ts';
import { WEBHOOK_EVENT_TYPES } from '../../domain/webhooks/types.ts';
import { actorOf } from '../plugins/auth.ts';
import {
  DeliveryListSchema,
  DeliverySchema,
  IssuedWebhookSchema,
  WebhookListSchema,
  WebhookSchema,
  presentDelivery,
  presentIssuedWebhook,
  presentWebhook,
} from '../presenters/webhook.ts';
import { documented } from '../openapi-document.ts';
import { BODY_ERRORS, problemResponses, requestId } from '../route-schemas.ts';
import { locationOf } from '../wire.ts';

type V3Instance = Parameters<FastifyPluginAsyncTypebox>[0];

export const WEBHOOKS_TAG = 'webhooks';
const tags = [WEBHOOKS_TAG];
const EXTENSION = 'Extension beyond the spec (which describes no events).';

const url = Type.String({ maxLength: WEBHOOK_URL_MAX, description: 'https URL of the receiver (http and private addresses only when the operator allows them).' });
// Unknown types are refused by the domain, which names the known ones.
const events = Type.Array(documented(Type.String(), { enum: [...WEBHOOK_EVENT_TYPES] }), {
  maxItems: 50,
  description: 'Event types to receive (see the catalogue in the README).',
});
const description = Type.String({ maxLength: WEBHOOK_DESCRIPTION_MAX });

const CreateWebhookBody = Type.Object({ url, events, description: Type.Optional(description) });
const UpdateWebhookBody = Type.Object({
  url: Type.Optional(url),
  events: Type.Optional(events),
  description: Type.Optional(description),
  enabled: Type.Optional(Type.Boolean({ description: 'false disables the endpoint (nothing is sent); true enables it again.' })),
});
const RotateBody = Type.Object({
  overlapHours: Type.Optional(
    Type.Integer({ minimum: 0, maximum: ROTATION_OVERLAP_MAX_HOURS, description: `How long the current secret keeps signing beside the new one; default ${DEFAULT_ROTATION_OVERLAP_HOURS}.` }),
  ),
});
const WebhookIdParams = Type.Object({ id: requestId('Webhook endpoint id (UUID v4).') });
const DeliveryParams = Type.Object({ id: WebhookIdParams.properties.id, deliveryId: requestId('Delivery id (UUID v4).') });

function webhookId(id: string): string {
  if (!isUuidV4(id)) throw new NotFoundError('webhook endpoint');
  return id.toLowerCase();
}

export function registerWebhookRoutes(app: V3Instance, ctx: DomainContext): void {
  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        operationId: 'v3CreateWebhook',
        summary: 'Create a webhook endpoint; answers its signing secret, once',
        description: EXTENSION,
        body: CreateWebhookBody,
        response: { 201: IssuedWebhookSchema, ...problemResponses(...BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await createWebhookEndpoint(ctx, actorOf(request), request.body);
      reply.code(201).header('location', locationOf(request, endpoint.id));
      return presentIssuedWebhook(endpoint, secret);
    },
  );

  app.get(
    '/webhooks',
    {
      schema: { tags, operationId: 'v3ListWebhooks', summary: 'The organization’s webhook endpoints, oldest first', description: EXTENSION, response: { 200: WebhookListSchema, ...problemResponses() } },
    },
    async (request) => ({ webhooks: (await listWebhookEndpoints(ctx, actorOf(request))).map(presentWebhook) }),
  );

  app.get(
    '/webhooks/:id',
    {
      schema: { tags, operationId: 'v3GetWebhook', summary: 'Read a webhook endpoint', description: EXTENSION, params: WebhookIdParams, response: { 200: WebhookSchema, ...problemResponses(404) } },
    },
    async (request) => presentWebhook(await getWebhookEndpoint(ctx, actorOf(request), webhookId(request.params.id))),
  );

  app.post(
    '/webhooks/:id',
    {
      schema: {
        tags,
        operationId: 'v3UpdateWebhook',
        summary: 'Update a webhook endpoint; answers the updated endpoint',
        description: EXTENSION,
        params: WebhookIdParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookSchema, ...problemResponses(...BODY_ERRORS, 404) },
      },
    },
    async (request) => presentWebhook(await updateWebhookEndpoint(ctx, actorOf(request), webhookId(request.params.id), request.body)),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        operationId: 'v3DeleteWebhook',
        summary: 'Delete a webhook endpoint and its delivery log; answers the deleted endpoint',
        description: EXTENSION,
        params: WebhookIdParams,
        response: { 200: WebhookSchema, ...problemResponses(404) },
      },
    },
    async (request) => presentWebhook(await deleteWebhookEndpoint(ctx, actorOf(request), webhookId(request.params.id))),
  );

  app.post(
    '/webhooks/:id/secret',
    {
      schema: {
        tags,
        operationId: 'v3RotateWebhookSecret',
        summary: 'Issue a new signing secret; the current one keeps signing for the overlap',
        description: EXTENSION,
        params: WebhookIdParams,
        body: Type.Optional(RotateBody),
        response: { 200: IssuedWebhookSchema, ...problemResponses(...BODY_ERRORS, 404) },
      },
    },
    async (request) => {
      const { endpoint, secret } = await rotateWebhookSecret(ctx, actorOf(request), webhookId(request.params.id), request.body?.overlapHours);
      return presentIssuedWebhook(endpoint, secret);
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        operationId: 'v3ListWebhookDeliveries',
        summary: 'The endpoint’s latest deliveries (at most 100), newest first',
        description: EXTENSION,
        params: WebhookIdParams,
        response: { 200: DeliveryListSchema, ...problemResponses(404) },
      },
    },
    async (request) => ({ deliveries: (await listWebhookDeliveries(ctx, actorOf(request), webhookId(request.params.id))).map(presentDelivery) }),
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/resend',
    {
      schema: {
        tags,
        operationId: 'v3ResendWebhookDelivery',
        summary: 'Send a delivery again (same webhook-id)',
        description: EXTENSION,
        params: DeliveryParams,
        response: { 200: DeliverySchema, ...problemResponses(404) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      await getWebhookEndpoint(ctx, actor, webhookId(request.params.id));
      if (!isUuidV4(request.params.deliveryId)) throw new NotFoundError('webhook delivery');
      return presentDelivery(await resendWebhookDelivery(ctx, actor, request.params.deliveryId.toLowerCase()));
    },
  );
}

/**
 * @module http/presenters/webhook-endpoint
 * A webhook endpoint as the v3 API and the operator's CLI both show it,
 * field by field. Apart from the schemas (http/presenters/webhook.ts) so
 * that the CLI can use it without loading their type provider, which was
 * half of every CLI command's start-up.
 */
import type { WebhookEndpoint } from '../../domain/webhooks/types.ts';

export function presentWebhook(e: WebhookEndpoint) {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    createdAt: e.createdAt.toISOString(),
  };
}

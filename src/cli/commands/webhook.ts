/**
 * @module cli/commands/webhook
 * `foyer webhook list|add|remove|rotate|enable|disable`: an organization's
 * webhook endpoints, for the operator. The signing secret is printed once,
 * by `add` and `rotate`.
 */
import type { Command } from 'commander';
import { operatorActor } from '../../domain/actors.ts';
import { getOrganization } from '../../domain/organizations.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '../../domain/webhooks/endpoints.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint } from '../../domain/webhooks/types.ts';
import { withContext } from '../context.ts';
import type { Output } from '../output.ts';
// The operator's JSON is the API's: one shape for an endpoint.
import { presentWebhook as present } from '../../http/presenters/webhook-endpoint.ts';

function line(e: WebhookEndpoint): string {
  return `${e.id}\t${e.enabled ? 'enabled' : `disabled (${e.disabledReason ?? ''})`}\t${e.url}\t${e.events.join(',')}${e.description ? `\t${e.description}` : ''}`;
}

export function registerWebhook(program: Command, out: () => Output): void {
  const webhook = program.command('webhook').description("manage an organization's webhook endpoints");

  webhook
    .command('list')
    .description("list an organization's endpoints (never their secrets)")
    .requiredOption('--org <org>', 'organization id or slug')
    .action((opts: { org: string }) =>
      withContext(async (ctx) => {
        const org = await getOrganization(ctx, opts.org);
        const endpoints = await listWebhookEndpoints(ctx, operatorActor(org));
        out().result({ webhooks: endpoints.map(present) }, endpoints.length ? endpoints.map(line) : 'No webhook endpoints.');
      }),
    );

  webhook
    .command('add')
    .description('add an endpoint; its signing secret is shown only now')
    .requiredOption('--org <org>', 'organization id or slug')
    .requiredOption('--url <url>', 'https URL of the receiver')
    .requiredOption('--events <types>', `comma-separated event types (${WEBHOOK_EVENT_TYPES.join(', ')}) or "all"`)
    .option('--description <text>', 'what the endpoint is for')
    .action((opts: { org: string; url: string; events: string; description?: string }) =>
      withContext(async (ctx) => {
        const org = await getOrganization(ctx, opts.org);
        const events = opts.events.trim() === 'all' ? [...WEBHOOK_EVENT_TYPES] : opts.events.split(',').map((e) => e.trim()).filter(Boolean);
        const { endpoint, secret } = await createWebhookEndpoint(ctx, operatorActor(org), { url: opts.url, events, description: opts.description });
        out().result({ ...present(endpoint), secret }, [line(endpoint), `secret: ${secret}`, 'Store the secret now: it cannot be shown again.']);
      }),
    );

  webhook
    .command('remove')
    .description('delete an endpoint and its delivery log')
    .requiredOption('--org <org>', 'organization id or slug')
    .argument('<id>', 'endpoint id')
    .action((id: string, opts: { org: string }) =>
      withContext(async (ctx) => {
        const org = await getOrganization(ctx, opts.org);
        const removed = await deleteWebhookEndpoint(ctx, operatorActor(org), id);
        out().result(present(removed), `Removed ${removed.id}.`);
      }),
    );

  webhook
    .command('rotate')
    .description('issue a new signing secret; the current one keeps signing for the overlap')
    .requiredOption('--org <org>', 'organization id or slug')
    .option('--overlap-hours <hours>', 'how long the current secret keeps signing', '24')
    .argument('<id>', 'endpoint id')
    .action((id: string, opts: { org: string; overlapHours: string }) =>
      withContext(async (ctx) => {
        const org = await getOrganization(ctx, opts.org);
        const { endpoint, secret } = await rotateWebhookSecret(ctx, operatorActor(org), id, Number(opts.overlapHours));
        out().result({ ...present(endpoint), secret }, [`secret: ${secret}`, 'Store the secret now: it cannot be shown again.']);
      }),
    );

  for (const [name, enabled] of [['enable', true], ['disable', false]] as const) {
    webhook
      .command(name)
      .description(enabled ? 'send to the endpoint again' : 'stop sending to the endpoint (deliveries wait)')
      .requiredOption('--org <org>', 'organization id or slug')
      .argument('<id>', 'endpoint id')
      .action((id: string, opts: { org: string }) =>
        withContext(async (ctx) => {
          const org = await getOrganization(ctx, opts.org);
          const endpoint = await updateWebhookEndpoint(ctx, operatorActor(org), id, { enabled });
          out().result(present(endpoint), line(endpoint));
        }),
      );
  }
}

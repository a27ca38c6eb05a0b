/**
 * @module cli/commands/key
 * `foyer key create|list|revoke`. The secret is printed once, by `create`,
 * and never again by anything.
 */
import type { Command } from 'commander';
import { operatorActor } from '../../domain/actors.ts';
import { createApiKey, keyOrganization, listApiKeys, revokeApiKey } from '../../domain/keys.ts';
import { getOrganization } from '../../domain/organizations.ts';
import { expiryFrom } from '../duration.ts';
import type { Output } from '../output.ts';
import { presentIssuedKey, presentKey } from '../presenters.ts';
import { withContext } from '../context.ts';

export function registerKey(program: Command, out: () => Output): void {
  const key = program.command('key').description('manage API key pairs');

  key
    .command('create')
    .description('issue a key pair; the secret is shown only now')
    .requiredOption('--org <org>', 'organization id or slug')
    .option('--expires-in <duration>', 'lifetime such as 30d, 12h, 2w')
    .option('--expires-at <iso>', 'expiry as an ISO 8601 date-time')
    .option('--no-expiry', 'never expires (the default)')
    .option('--name <name>', 'what the key is for, as the dashboard lists it')
    .action((opts: { org: string; name?: string; expiresIn?: string; expiresAt?: string; expiry?: boolean }) =>
      withContext(async (ctx) => {
        const expiresAt = expiryFrom(opts, ctx.now());
        const org = await getOrganization(ctx, opts.org);
        const issued = await createApiKey(ctx, operatorActor(org), { name: opts.name, expiresAt });
        const shown = presentIssuedKey(issued);
        out().result(shown, [
          `API_KEY=${shown.apiKey}`,
          `API_SECRET=${shown.apiSecret}`,
          `expires: ${shown.expiresAt ?? 'never'}`,
          'Store the secret now: it cannot be shown again.',
        ]);
      }),
    );

  key
    .command('list')
    .description("list an organization's keys (never their secrets)")
    .requiredOption('--org <org>', 'organization id or slug')
    .action((opts: { org: string }) =>
      withContext(async (ctx) => {
        const org = await getOrganization(ctx, opts.org);
        const now = ctx.now();
        const keys = (await listApiKeys(ctx, operatorActor(org))).map((k) => presentKey(k, now));
        out().result(
          { keys },
          keys.length
            ? keys.map((k) => `${k.apiKey}\t${k.status}\tcreated ${k.createdAt}\texpires ${k.expiresAt ?? 'never'}\tlast used ${k.lastUsedAt ?? 'never'}${k.name ? `\t${k.name}` : ''}`)
            : 'No keys.',
        );
      }),
    );

  key
    .command('revoke')
    .description('revoke a key pair at once')
    .argument('<apiKey>', 'the public key (API_KEY)')
    .action((apiKey: string) =>
      withContext(async (ctx) => {
        // The operator names only the key; it is revoked as its organization's.
        const org = await keyOrganization(ctx, apiKey);
        const revoked = await revokeApiKey(ctx, operatorActor(org), apiKey);
        out().result(presentKey(revoked, ctx.now()), `Revoked ${revoked.publicKey}.`);
      }),
    );
}

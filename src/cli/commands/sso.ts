/**
 * @module cli/commands/sso
 * `foyer org sso ORG [--issuer URL --client-id ID --client-secret SECRET | --off]`:
 * shows, sets or removes an organization's single sign-on (OpenID Connect).
 * The secret is sealed before it is stored and never printed; `-` reads it
 * from standard input, keeping it out of the shell's history and the
 * process list.
 */
import type { Command } from 'commander';
import { operatorActor } from '../../domain/actors.ts';
import { getOrganization } from '../../domain/organizations.ts';
import { configureSso, removeSso, showSso, SSO_CALLBACK_PATH, type SsoView } from '../../domain/sso.ts';
import { UsageError, type Output } from '../output.ts';
import { withContext } from '../context.ts';

interface SsoOptions {
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  off?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function present(sso: SsoView | undefined, redirectUri: string) {
  return sso
    ? { issuer: sso.issuer, clientId: sso.clientId, redirectUri, createdAt: sso.createdAt.toISOString(), updatedAt: sso.updatedAt.toISOString() }
    : null;
}

export function registerSso(org: Command, out: () => Output): void {
  org
    .command('sso')
    .description("show, set or remove an organization's single sign-on (OpenID Connect); without options, shows it")
    .argument('<org>', 'id or slug')
    .option('--issuer <url>', "the identity provider's issuer URL (https)")
    .option('--client-id <id>', 'client id registered at the provider')
    .option('--client-secret <secret>', 'client secret ("-" reads it from standard input); stored sealed, never shown')
    .option('--off', 'remove single sign-on from the organization')
    .action((ref: string, opts: SsoOptions) =>
      withContext(async (ctx) => {
        const found = await getOrganization(ctx, ref);
        const actor = operatorActor(found);
        const redirectUri = `${ctx.publicUrl}${SSO_CALLBACK_PATH}`;
        const setting = opts.issuer !== undefined || opts.clientId !== undefined || opts.clientSecret !== undefined;
        if (opts.off && setting) throw new UsageError('--off takes no other option.');
        if (opts.off) {
          const removed = await removeSso(ctx, actor);
          out().result({ organization: found.slug, sso: null, removed }, removed ? `Single sign-on removed from ${found.slug}.` : `${found.slug} had no single sign-on.`);
          return;
        }
        if (setting) {
          if (!opts.issuer || !opts.clientId || opts.clientSecret === undefined) {
            throw new UsageError('Setting single sign-on takes --issuer, --client-id and --client-secret together.');
          }
          const clientSecret = opts.clientSecret === '-' ? await readStdin() : opts.clientSecret;
          const sso = await configureSso(ctx, actor, { issuer: opts.issuer, clientId: opts.clientId, clientSecret });
          out().result({ organization: found.slug, sso: present(sso, redirectUri) }, [
            `Single sign-on for ${found.slug}: ${sso.issuer} (client ${sso.clientId}); the secret is stored sealed.`,
            `Register this redirect URI at the provider: ${redirectUri}`,
            `Members sign in at ${ctx.publicUrl}/dashboard/sso?organization=${found.slug}`,
          ]);
          return;
        }
        const sso = await showSso(ctx, actor);
        out().result(
          { organization: found.slug, sso: present(sso, redirectUri) },
          sso
            ? [`Single sign-on for ${found.slug}: ${sso.issuer} (client ${sso.clientId}), set ${sso.updatedAt.toISOString()}.`, `Redirect URI: ${redirectUri}`]
            : `${found.slug} has no single sign-on.`,
        );
      }, { makesLinks: true }),
    );
}

/**
 * @module cli/commands/org
 * `foyer org create|list|show|changes|sso|origins` (sso in sso.ts,
 * origins in origins.ts).
 */
import type { Command } from 'commander';
import { operatorActor } from '../../domain/actors.ts';
import { listOrganizationChanges } from '../../domain/organization-changes.ts';
import { createOrganization, getOrganization, listOrganizations, readOrganization } from '../../domain/organizations.ts';
import type { Output } from '../output.ts';
import { presentChange, presentOrganization, presentUser } from '../presenters.ts';
import { withContext } from '../context.ts';
import { registerOrigins } from './origins.ts';
import { registerSso } from './sso.ts';

export function registerOrg(program: Command, out: () => Output): void {
  const org = program.command('org').description('manage organizations');

  org
    .command('create')
    .description('create an organization')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--type <type>', 'medical or basic')
    .option('--slug <slug>', 'unique slug (derived from the name when omitted)')
    .action((opts: { name: string; type: string; slug?: string }) =>
      withContext(async (ctx) => {
        const created = await createOrganization(ctx, opts);
        out().result(presentOrganization(created), `Created organization ${created.name} (${created.slug}, ${created.type}) ${created.id}`);
      }),
    );

  org
    .command('list')
    .description('list organizations')
    .action(() =>
      withContext(async (ctx) => {
        const orgs = await listOrganizations(ctx);
        out().result(
          { organizations: orgs.map(presentOrganization) },
          orgs.length ? orgs.map((o) => `${o.slug}\t${o.type}\t${o.name}\t${o.id}`) : 'No organizations.',
        );
      }),
    );

  org
    .command('show')
    .description('show an organization and its users')
    .argument('<org>', 'id or slug')
    .action((ref: string) =>
      withContext(async (ctx) => {
        const found = await getOrganization(ctx, ref);
        const { users } = await readOrganization(ctx, operatorActor(found));
        out().result({ ...presentOrganization(found), users: users.map(presentUser) }, [
          `${found.name} (${found.slug}, ${found.type}) ${found.id}`,
          ...users.map((u) => `  ${u.email}\t${u.role}\t${u.fullName}\t${u.id}`),
        ]);
      }),
    );

  org
    .command('changes')
    .description("the record of changes to an organization's members and settings, newest first")
    .argument('<org>', 'id or slug')
    .option('--limit <n>', 'how many (at most 100)', '50')
    .action((ref: string, opts: { limit: string }) =>
      withContext(async (ctx) => {
        const found = await getOrganization(ctx, ref);
        const page = await listOrganizationChanges(ctx, operatorActor(found), { limit: Number(opts.limit) || 50 });
        out().result(
          { changes: page.items.map(presentChange) },
          page.items.length
            ? page.items.map((c) => `${c.createdAt.toISOString()}\t${c.actor.label}\t${c.action}\t${c.subject?.label ?? ''}\t${JSON.stringify(c.detail)}`)
            : 'No changes recorded.',
        );
      }),
    );

  registerSso(org, out);
  registerOrigins(org, out);
}

/**
 * @module cli/commands/user
 * `foyer user add|remove`.
 */
import type { Command } from 'commander';
import { operatorActor } from '../../domain/actors.ts';
import { addUser, getOrganization, removeUser } from '../../domain/organizations.ts';
import type { Output } from '../output.ts';
import { presentUser } from '../presenters.ts';
import { withContext } from '../context.ts';

export function registerUser(program: Command, out: () => Output): void {
  const user = program.command('user').description("manage an organization's users");

  user
    .command('add')
    .description('add a user to an organization')
    .requiredOption('--org <org>', 'organization id or slug')
    .requiredOption('--email <email>', 'email address (unique in the organization, case-insensitive)')
    .requiredOption('--name <name>', 'full name')
    .option('--role <role>', 'USER or ADMIN', 'USER')
    .action((opts: { org: string; email: string; name: string; role: string }) =>
      withContext(async (ctx) => {
        const org = await getOrganization(ctx, opts.org);
        const added = await addUser(ctx, operatorActor(org), { email: opts.email, fullName: opts.name, role: opts.role });
        out().result(presentUser(added), `Added ${added.email} (${added.role}) to ${org.slug}: ${added.id}`);
      }),
    );

  user
    .command('remove')
    .description('remove a user from an organization (and from its boards and queues)')
    .requiredOption('--org <org>', 'organization id or slug')
    .requiredOption('--email <email>', 'email address')
    .action((opts: { org: string; email: string }) =>
      withContext(async (ctx) => {
        const org = await getOrganization(ctx, opts.org);
        const removed = await removeUser(ctx, operatorActor(org), opts.email);
        out().result({ ...presentUser(removed), removed: true }, `Removed ${removed.email} from ${org.slug}.`);
      }),
    );
}

/**
 * @module cli/commands/user
 * `foyer user add|remove|role|invite|reset`. The operator acts through
 * the same commands as the organization's ADMINs in the dashboard, and
 * every change is recorded as the operator's.
 */
import type { Command } from 'commander';
import { operatorActor } from '../../domain/actors.ts';
import { ValidationError } from '../../domain/errors.ts';
import { issueMemberLink, OPERATOR_LINK_HOURS } from '../../domain/member-links.ts';
import type { MemberLinkPurpose } from '../../domain/types.ts';
import { addUser, changeUserRole, getOrganization, removeUser } from '../../domain/organizations.ts';
import type { Output } from '../output.ts';
import { presentUser } from '../presenters.ts';
import { withContext } from '../context.ts';

const MAIL_NOTES = {
  sent: 'It was also sent to them by mail.',
  failed: 'The mail server did not take the mail (see SMTP_URL): give them the link yourself.',
  not_configured: 'Give it to them yourself: no mail server is configured (SMTP_URL).',
} as const;

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

  user
    .command('role')
    .description("change a user's role (taking ADMIN away signs them out)")
    .requiredOption('--org <org>', 'organization id or slug')
    .requiredOption('--email <email>', 'email address')
    .requiredOption('--role <role>', 'USER or ADMIN')
    .action((opts: { org: string; email: string; role: string }) =>
      withContext(async (ctx) => {
        const org = await getOrganization(ctx, opts.org);
        const changed = await changeUserRole(ctx, operatorActor(org), { email: opts.email }, opts.role);
        out().result(presentUser(changed), `${changed.email} is now ${changed.role} in ${org.slug}.`);
      }),
    );

  const link = (purpose: MemberLinkPurpose, what: string) => (opts: { org: string; email: string; lang: string }) =>
    withContext(async (ctx) => {
      if (opts.lang !== 'en' && opts.lang !== 'de') throw ValidationError.field('lang', '--lang must be en or de.');
      const org = await getOrganization(ctx, opts.org);
      const issued = await issueMemberLink(ctx, operatorActor(org), opts.email, purpose, opts.lang);
      out().result({ url: issued.url, expiresAt: issued.expiresAt.toISOString() }, [
        `${what} link for ${issued.user.email} (${org.slug}), valid once until ${issued.expiresAt.toISOString()}:`,
        issued.url,
        MAIL_NOTES[issued.mail],
      ]);
      if (issued.mail === 'failed') {
        // On stderr too: with --json the printed object stays exactly the link.
        process.stderr.write('foyer: the mail server did not take the mail; the link above works, hand it over yourself.\n');
        process.exitCode = 1;
      }
    }, { makesLinks: true });

  user
    .command('invite')
    .description(`print a one-time link (valid ${OPERATOR_LINK_HOURS} h) where the member sets their password`)
    .requiredOption('--org <org>', 'organization id or slug')
    .requiredOption('--email <email>', 'the member\'s email address')
    .option('--lang <lang>', 'language of the mail (en or de), when mail is configured', 'en')
    .action(link('invite', 'Invitation'));

  user
    .command('reset')
    .description(`print a one-time link (valid ${OPERATOR_LINK_HOURS} h) where the member sets a new password`)
    .requiredOption('--org <org>', 'organization id or slug')
    .requiredOption('--email <email>', 'the member\'s email address')
    .option('--lang <lang>', 'language of the mail (en or de), when mail is configured', 'en')
    .action(link('reset', 'Password reset'));
}

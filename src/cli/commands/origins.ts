/**
 * @module cli/commands/origins
 * `foyer org origins ORG [--set a,b | --add O | --remove O | --clear]`:
 * shows or changes the origins allowed to embed an organization's pages.
 */
import type { Command } from 'commander';
import { operatorActor } from '../../domain/actors.ts';
import { getAllowedOrigins, parseOrigin, setAllowedOrigins } from '../../domain/allowed-origins.ts';
import { getOrganization } from '../../domain/organizations.ts';
import { UsageError, type Output } from '../output.ts';
import { withContext } from '../context.ts';

interface OriginOptions {
  set?: string;
  add?: string;
  remove?: string;
  clear?: boolean;
}

export function registerOrigins(org: Command, out: () => Output): void {
  org
    .command('origins')
    .description("show or change the origins allowed to embed the organization's pages (events go only to them)")
    .argument('<org>', 'id or slug')
    .option('--set <origins>', 'replace the list: comma-separated origins such as https://portal.example.org')
    .option('--add <origin>', 'add one origin')
    .option('--remove <origin>', 'remove one origin')
    .option('--clear', 'remove every origin')
    .action((ref: string, opts: OriginOptions) =>
      withContext(async (ctx) => {
        const chosen = [opts.set !== undefined, opts.add !== undefined, opts.remove !== undefined, Boolean(opts.clear)].filter(Boolean).length;
        if (chosen > 1) throw new UsageError('Give one of --set, --add, --remove or --clear.');
        const found = await getOrganization(ctx, ref);
        const actor = operatorActor(found);
        let origins = await getAllowedOrigins(ctx, actor);
        if (chosen === 1) {
          let next: string[];
          if (opts.clear) next = [];
          else if (opts.set !== undefined) next = opts.set.split(',').map((o) => o.trim()).filter(Boolean);
          else if (opts.add !== undefined) next = [...origins, opts.add];
          else {
            const parsed = parseOrigin(opts.remove!);
            const gone = 'origin' in parsed ? parsed.origin : opts.remove;
            next = origins.filter((o) => o !== gone);
          }
          origins = await setAllowedOrigins(ctx, actor, next);
        }
        out().result({ origins }, origins.length ? origins : `No allowed origins for ${found.slug}: its pages post no events.`);
      }),
    );
}

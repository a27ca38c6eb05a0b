/**
 * @module cli/commands/migrate
 * `foyer migrate`: applies pending schema migrations and lists them.
 */
import type { Command } from 'commander';
import type { Output } from '../output.ts';
import { withContext } from '../session.ts';

export function registerMigrate(program: Command, out: () => Output): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(() =>
      withContext(
        async (ctx) => {
          const applied = await ctx.store.migrate();
          out().result({ applied }, applied.length ? applied.map((m) => `applied ${m}`) : 'Database is up to date.');
        },
        { migrate: false },
      ),
    );
}

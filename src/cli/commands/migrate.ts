/**
 * @module cli/commands/migrate
 * `foyer migrate`: applies pending schema migrations and lists them.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { migrateDatabase } from '../../context.ts';
import type { Output } from '../output.ts';

export function registerMigrate(program: Command, out: () => Output): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const applied = await migrateDatabase(loadConfig().databaseUrl);
      out().result({ applied }, applied.length ? applied.map((m) => `applied ${m}`) : 'Database is up to date.');
    });
}

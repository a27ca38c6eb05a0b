/**
 * @module cli/main
 * Entry point of the operator's `foyer` command (see bin/foyer.js). Reads
 * the same configuration as the server, so `DATABASE_URL` points both at
 * one database.
 */
import { Command, CommanderError } from 'commander';
import { registerKey } from './commands/key.ts';
import { registerLimits } from './commands/limits.ts';
import { registerMigrate } from './commands/migrate.ts';
import { registerOrg } from './commands/org.ts';
import { registerUsage } from './commands/usage.ts';
import { registerUser } from './commands/user.ts';
import { registerWebhook } from './commands/webhook.ts';
import { createOutput, reportError } from './output.ts';

const program = new Command('foyer')
  .description("Foyer operator commands. Uses DATABASE_URL like the server (default sqlite:./data/foyer.db).")
  .option('--json', 'print one JSON object on stdout and nothing else')
  .showHelpAfterError()
  .exitOverride();

const out = () => createOutput(Boolean(program.opts().json));
registerOrg(program, out);
registerUser(program, out);
registerKey(program, out);
registerMigrate(program, out);
registerLimits(program, out);
registerUsage(program, out);
registerWebhook(program, out);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    process.exitCode = reportError(error);
  }
}

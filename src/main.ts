/**
 * @module main
 * `npm start`: reads the configuration, opens the database, applies pending
 * migrations, serves the API, and closes cleanly on SIGINT/SIGTERM (stops
 * accepting, lets in-flight requests finish, closes the database).
 */
import { ConfigError, loadConfig, type Config } from './config.ts';
import { buildApp } from './http/app.ts';
import { openStore } from './store/open.ts';
import type { Store } from './store/store.ts';

function fail(message: string): never {
  console.error(`foyer: ${message}`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

let store: Store;
try {
  store = await openStore(config.databaseUrl);
} catch (error) {
  // The driver's message, not the URL: the URL may hold a password.
  fail(`cannot open the database (${dialectOf(config.databaseUrl)}): ${(error as Error).message}`);
}

const applied = await store.migrate();
for (const name of applied) console.log(`Applied migration ${name}`);
if (applied.length === 0) console.log('Database schema is up to date.');

const app = await buildApp({ config, store });
await app.listen({ host: config.host, port: config.port });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
console.log(`Foyer listening on http://${config.host}:${port} (API at ${config.publicUrl}${config.apiPrefix})`);

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  console.log(`${signal} received, closing.`);
  try {
    await app.close();
    await store.close();
    process.exit(0);
  } catch (error) {
    console.error(`foyer: failed to close cleanly: ${(error as Error).name}`);
    process.exit(1);
  }
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

function dialectOf(url: string): string {
  return url.startsWith('sqlite:') ? 'SQLite' : 'PostgreSQL';
}

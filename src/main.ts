/**
 * @module main
 * `npm start`: reads the configuration, opens the database, applies pending
 * migrations, sets up request limits (shared through Redis when REDIS_URL
 * is set), wires the server (src/server.ts), serves the API and the meeting
 * pages, and shuts down gracefully on SIGINT/SIGTERM:
 * `/ready` turns 503 and requests are still served for
 * SHUTDOWN_DRAIN_SECONDS (so a load balancer stops routing here first),
 * then the server stops accepting, in-flight requests finish (at most
 * SHUTDOWN_TIMEOUT_MS), request totals are flushed, and Redis and the
 * database are closed (docs/deployment.md).
 *
 * Every start-up failure ends in one line naming what went wrong, never a
 * stack trace: driver errors can carry SQL text or connection details.
 */
import { ConfigError, loadConfig, type Config } from './config.ts';
import type { StoreConnection } from './domain/ports/store.ts';
import { createLimits } from './limits/limits.ts';
import { createLogger } from './logger.ts';
import { createServer } from './server.ts';
import { describeSfu } from './sfu/mode.ts';
import { openStore } from './store/open.ts';

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

let store: StoreConnection;
try {
  store = await openStore(config.databaseUrl);
} catch (error) {
  // The driver's message, not the URL: the URL may hold a password.
  fail(`cannot open the database (${dialectOf(config.databaseUrl)}): ${(error as Error).message}`);
}

let applied: string[];
try {
  applied = await store.migrate();
} catch (error) {
  await store.close().catch(() => {});
  fail(`cannot apply database migrations (${dialectOf(config.databaseUrl)}): ${describe(error)}`);
}
for (const name of applied) console.log(`Applied migration ${name}`);
if (applied.length === 0) console.log('Database schema is up to date.');
if (!config.secretPepperSet) {
  console.warn('foyer: API_SECRET_PEPPER is not set; the built-in value is public. Set a long random value in production (docs/deployment.md).');
}

console.log(describeSfu(config.sfu));

const logger = createLogger(config);
const limits = await createLimits({ config, store, warn: (message) => logger.warn(message) });
let closing = false;
const { app } = await createServer({ config, store, logger, limits, isShuttingDown: () => closing });

/** In-flight requests get this long to finish before their connections are closed. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

/** Final flush of request totals: a database that blinks at that moment gets a few more chances. */
async function closeLimits(): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await limits.close(); // flushes request totals, closes Redis
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      console.error(`foyer: flushing request totals failed (${describe(error)}); retrying.`);
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  console.log(`${signal} received, closing${config.shutdownDrainSeconds ? ` after ${config.shutdownDrainSeconds} s of draining` : ''}.`);
  try {
    // /ready answers 503 from now on; keep serving while load balancers notice.
    if (config.shutdownDrainSeconds > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainSeconds * 1000));
    // Stops accepting and closes idle keep-alive connections; resolves when in-flight requests are done.
    const cutoff = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_TIMEOUT_MS);
    await app.close();
    clearTimeout(cutoff);
    await closeLimits();
    await store.close();
    process.exit(0);
  } catch (error) {
    console.error(`foyer: failed to close cleanly: ${(error as Error).name}`);
    process.exit(1);
  }
}
// Before the line that says it listens: whoever reads that line may signal at once.
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ host: config.host, port: config.port });
} catch (error) {
  fail(`cannot listen on ${config.host}:${config.port}: ${describe(error)}`);
}
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
console.log(`Foyer listening on http://${config.host}:${port} (API at ${config.publicUrl}${config.apiPrefix})`);

/** A failure in one line: the error's class, code and first message line, which name the cause without a stack. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message.split('\n')[0];
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${message}`;
}

function dialectOf(url: string): string {
  return url.startsWith('sqlite:') ? 'SQLite' : 'PostgreSQL';
}

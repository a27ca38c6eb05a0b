/**
 * @module test/support/limited-server
 * A Foyer app built as main.ts builds it (limits guard, lookup cache,
 * health with limits), listening on loopback, over a store whose key
 * lookups are counted (and can be slowed or failed), for tests of the
 * request limits.
 */
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../../src/config.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import type { StoreConnection as Store } from '../../src/domain/ports/store.ts';
import { createLimits, type Limits } from '../../src/limits/limits.ts';
import { createLogger } from '../../src/logger.ts';
import { createServer } from '../../src/server.ts';

export interface Limited {
  base: string;
  app: FastifyInstance;
  ctx: DomainContext;
  limits: Limits;
  warnings: string[];
  /** findApiKey calls that reached the database (below the lookup cache), and the public keys they looked up. */
  lookups: { findApiKey: number; publicKeys: string[] };
  shuttingDown: { value: boolean };
  /** While set, key lookups that reach the database throw, as with the database down. */
  databaseDown: { value: boolean };
  close(): Promise<void>;
}

/**
 * Counts key lookups into `lookups`. `delayMs` makes each lookup take that
 * long, as a loaded database does: better-sqlite3 answers synchronously,
 * which would hide races between concurrent requests.
 */
function counting(
  store: Store,
  lookups: Limited['lookups'],
  delayMs = 0,
  down: { value: boolean } = { value: false },
): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === 'findApiKey') {
        return async (publicKey: string) => {
          lookups.findApiKey++;
          lookups.publicKeys.push(publicKey);
          if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
          if (down.value) throw new Error('connection refused');
          return target.findApiKey(publicKey);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export async function startLimited(store: Store, env: Record<string, string> = {}, lookupDelayMs = 0): Promise<Limited> {
  const config: Config = loadConfig({ API_SECRET_PEPPER: 'test-pepper', LOG_LEVEL: 'silent', ...env });
  const warnings: string[] = [];
  const lookups = { findApiKey: 0, publicKeys: [] as string[] };
  const shuttingDown = { value: false };
  const databaseDown = { value: false };
  const limits = await createLimits({ config, store, warn: (m) => warnings.push(m) });
  const { app, ctx } = await createServer({
    config,
    store: counting(store, lookups, lookupDelayMs, databaseDown),
    logger: createLogger(config, false),
    limits,
    isShuttingDown: () => shuttingDown.value,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  return {
    base: `http://127.0.0.1:${port}`,
    app,
    ctx,
    limits,
    warnings,
    lookups,
    shuttingDown,
    databaseDown,
    async close() {
      await app.close();
      await limits.close();
    },
  };
}


/**
 * @module test/realtime/harness
 * A Foyer server (the same wiring as `npm start`, without request limits)
 * listening on loopback, with realtime tuning a test can shorten; plus an
 * organization to create meetings in.
 */
import { randomUUID } from 'node:crypto';
import { after, before } from 'node:test';
import { loadConfig, type Config } from '../../src/config.ts';
import { operatorActor, type Actor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { createOrganization } from '../../src/domain/organizations.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import type { Organization, OrganizationType } from '../../src/domain/types.ts';
import { createLogger, type LoggerSetting } from '../../src/logger.ts';
import type { RealtimeTuning } from '../../src/realtime/realtime.ts';
import { createServer } from '../../src/server.ts';
import { openStore } from '../../src/store/open.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import type { TestClient } from './ws-client.ts';

export interface FrontEnd {
  origin: string;
  ctx: DomainContext;
  config: Config;
  org: Organization;
  /** The operator acting for `org`, to create meetings and rooms with. */
  operator: Actor;
  close(): Promise<void>;
}

export async function startFrontEnd(
  store: StoreConnection,
  options: { env?: Record<string, string>; realtime?: RealtimeTuning; org?: Organization; logger?: LoggerSetting } = {},
): Promise<FrontEnd> {
  const config = loadConfig({ LOG_LEVEL: 'silent', IDLE_CLOSE_SECONDS: '60', API_SECRET_PEPPER: 'test', ...options.env });
  const { app, ctx } = await createServer({
    config,
    store,
    logger: createLogger(config, options.logger ?? false),
    realtime: { pingIntervalMs: 500, ...options.realtime },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  const org =
    options.org ?? (await createOrganization(ctx, { name: 'Acme', type: 'basic', slug: `acme-${randomUUID().slice(0, 8)}` }));
  return { origin: `http://127.0.0.1:${address.port}`, ctx, config, org, operator: operatorActor(org), close: () => app.close() };
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface TwoInstances {
  readonly db: TestDatabase;
  /** Instance `one`, on the test database's store, and `two`, on a second connection to it; both serve `one.org`. */
  readonly one: FrontEnd;
  readonly two: FrontEnd;
  /** Signalling clients to terminate after the suite. */
  readonly clients: TestClient[];
  /** The settings both run with (Redis and its prefix), for a third instance. */
  readonly env: Record<string, string>;
}

/**
 * Registers, in the calling `describe`, two instances on one fresh
 * PostgreSQL database and one Redis (a key prefix of their own), both
 * serving one organization (of `orgType` when given), and tears them down
 * after it. The handles are valid inside its tests and later hooks.
 */
export function useTwoInstances(options: { env?: Record<string, string>; orgType?: OrganizationType } = {}): TwoInstances {
  let db: TestDatabase;
  let secondStore: StoreConnection;
  let one: FrontEnd;
  let two: FrontEnd;
  const prefix = uniquePrefix();
  const clients: TestClient[] = [];
  const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix, ...options.env };

  before(async () => {
    db = await openTestDatabase('postgres');
    secondStore = await openStore(db.url);
    one = await startFrontEnd(db.store, { env, realtime: { instanceId: 'one' } });
    if (options.orgType) {
      const org = await createOrganization(one.ctx, { name: 'Clinic', type: options.orgType, slug: `clinic-${randomUUID().slice(0, 8)}` });
      one = { ...one, org, operator: operatorActor(org) };
    }
    two = await startFrontEnd(secondStore, { env, org: one.org, realtime: { instanceId: 'two' } });
  });
  after(async () => {
    for (const c of clients) c.terminate();
    await one?.close();
    await two?.close();
    await secondStore?.close();
    await db?.dispose();
    await deletePrefix(prefix);
  });

  return {
    get db() {
      return db;
    },
    get one() {
      return one;
    },
    get two() {
      return two;
    },
    clients,
    env,
  };
}

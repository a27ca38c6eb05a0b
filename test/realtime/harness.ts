/**
 * @module test/realtime/harness
 * A Foyer server (the same wiring as `npm start`, without request limits)
 * listening on loopback, with realtime tuning a test can shorten; plus an
 * organization to create meetings in.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config.ts';
import { operatorActor, type Actor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { createOrganization } from '../../src/domain/organizations.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import type { Organization } from '../../src/domain/types.ts';
import { createLogger } from '../../src/logger.ts';
import type { RealtimeTuning } from '../../src/realtime/realtime.ts';
import { createServer } from '../../src/server.ts';

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
  options: { env?: Record<string, string>; realtime?: RealtimeTuning; org?: Organization } = {},
): Promise<FrontEnd> {
  const config = loadConfig({ LOG_LEVEL: 'silent', IDLE_CLOSE_SECONDS: '60', API_SECRET_PEPPER: 'test', ...options.env });
  const { app, ctx } = await createServer({
    config,
    store,
    logger: createLogger(config, false),
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

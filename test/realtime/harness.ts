/**
 * @module test/realtime/harness
 * A Foyer front end (the web plugin alone: pages, static files, signalling,
 * sweeper) on a bare Fastify listening on loopback, with realtime tuning a
 * test can shorten; plus an organization to create meetings in.
 */
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config } from '../../src/config.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { createOrganization } from '../../src/domain/organizations.ts';
import type { Organization } from '../../src/domain/types.ts';
import type { Store } from '../../src/store/store.ts';
import { webPlugin, type WebPluginOptions } from '../../src/web/plugin.ts';

export interface FrontEnd {
  origin: string;
  ctx: DomainContext;
  config: Config;
  org: Organization;
  close(): Promise<void>;
}

export async function startFrontEnd(
  store: Store,
  options: { env?: Record<string, string>; realtime?: WebPluginOptions['realtime']; org?: Organization } = {},
): Promise<FrontEnd> {
  const config = loadConfig({ LOG_LEVEL: 'silent', IDLE_CLOSE_SECONDS: '60', ...options.env });
  const ctx: DomainContext = {
    store,
    now: () => new Date(),
    publicUrl: config.publicUrl,
    idleCloseSeconds: config.idleCloseSeconds,
    secretPepper: 'test',
  };
  const app = Fastify({ logger: false });
  await app.register(webPlugin, { ctx, config, realtime: { pingIntervalMs: 500, ...options.realtime } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  const org =
    options.org ?? (await createOrganization(ctx, { name: 'Acme', type: 'basic', slug: `acme-${randomUUID().slice(0, 8)}` }));
  return { origin: `http://127.0.0.1:${address.port}`, ctx, config, org, close: () => app.close() };
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * @module http/api
 * The API surface, mounted under `API_PREFIX` as one encapsulated plugin:
 * every request is authenticated (plugins/auth.ts, with the request limits
 * when given) before its version plugin sees it: v1 at the prefix root, v2
 * at `/v2`, v3 at `/v3`. Its hooks and error handling stay inside it.
 */
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../domain/context.ts';
import type { CredentialLookups } from '../domain/keys.ts';
import type { IceConfig } from '../config.ts';
import type { LiveContext } from '../domain/lifecycle.ts';
import { installAuth, type AuthGuard } from './plugins/auth.ts';
import { v1Plugin } from './v1/plugin.ts';
import { v2Plugin } from './v2/plugin.ts';
import { v3Plugin } from './v3/plugin.ts';

export interface ApiPluginOptions {
  ctx: DomainContext;
  /** The domain context with the realtime side's clock (v3 reads who is present). */
  live: LiveContext;
  /** The ICE servers GET /v3/ice-servers hands out. */
  ice: IceConfig;
  /** Where API keys are looked up (a cache in production); the store when absent. */
  lookups?: CredentialLookups;
  /** Request limits (see plugins/auth.ts and plugins/limits.ts). */
  authGuard?: AuthGuard;
}

export async function apiPlugin(api: FastifyInstance, opts: ApiPluginOptions): Promise<void> {
  const { ctx } = opts;
  installAuth(api, { ctx, lookups: opts.lookups, guard: opts.authGuard });
  await api.register(v1Plugin, { ctx });
  await api.register(v2Plugin, { ctx, prefix: '/v2' });
  await api.register(v3Plugin, { ctx, live: opts.live, ice: opts.ice, prefix: '/v3' });
}

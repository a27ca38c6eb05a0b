/**
 * @module http/app
 * Builds the Fastify application: problem-details errors, the OpenAPI
 * document, health routes, under `API_PREFIX` one encapsulated API context
 * where every request is authenticated before its version plugin (v1 at
 * the prefix root, v2 at `/v2`, v3 at `/v3`) sees it, and the meeting
 * pages with the realtime side's socket at the root. It runs the realtime
 * side it is given with the server: started when ready, stopped on close.
 *
 * No CORS: API secrets belong on servers, so browsers get no grant.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { DomainContext } from '../domain/context.ts';
import { MAX_REQUEST_HEADER_BYTES } from '../domain/meetings.ts';
import type { CredentialLookups } from '../domain/keys.ts';
import type { StoreConnection } from '../domain/ports/store.ts';
import type { Realtime } from '../realtime/realtime.ts';
import { webPlugin } from '../web/plugin.ts';
import { installHealthRoutes, type HealthOptions } from './health.ts';
import { installAuth, type AuthGuard } from './plugins/auth.ts';
import { installRootErrorHandling, sendProblem, toProblem } from './plugins/errors.ts';
import type { Metrics } from './metrics.ts';
import { installMetrics } from './plugins/metrics.ts';
import { installOpenApi } from './plugins/openapi.ts';
import { v1Plugin } from './v1/plugin.ts';
import { v2Plugin } from './v2/plugin.ts';
import { v3Plugin } from './v3/plugin.ts';

/** Far above any valid request (the largest is a board update listing 200 member ids). */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface BuildAppOptions {
  config: Config;
  ctx: DomainContext;
  /** The database connection, pinged by `/ready`. */
  database: Pick<StoreConnection, 'ping'>;
  realtime: Realtime;
  /** Services that run with the server (the webhook worker): started when ready, stopped on close. */
  background?: Array<{ start(): void; stop(): Promise<void> }>;
  logger: Logger;
  /** Where API keys are looked up (a cache in production); the store when absent. */
  lookups?: CredentialLookups;
  /** Request limits (see plugins/auth.ts and plugins/limits.ts). */
  authGuard?: AuthGuard;
  /** What `/ready` checks besides the database, and whether shutdown has begun. */
  health?: HealthOptions;
  /** Request counts and `/metrics` (served only with METRICS_TOKEN). */
  metrics?: Metrics;
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config, ctx, realtime } = opts;
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    // Slow and idle connections (see HttpTimeouts in config.ts).
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: {
      // Explicit: what a short link may store is computed from it (domain/meetings.ts).
      maxHeaderSize: MAX_REQUEST_HEADER_BYTES,
      headersTimeout: config.http.headersTimeoutMs,
      // How often Node looks for connections past those timeouts (30 s by default, which would let them overstay).
      connectionsCheckingInterval: Math.min(1000, Math.ceil(config.http.headersTimeoutMs / 4)),
    },
    // Behind a reverse proxy, request.ip must be the client's (X-Forwarded-For): failed logins are limited per address.
    trustProxy: config.trustProxy,
    // Errors raised before routing (an undecodable URL) would otherwise skip the error handler.
    frameworkErrors: (error, _request, reply) => {
      sendProblem(reply, toProblem(error, { renameField: (field) => field }).body);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // TypeBox checks bodies as sent: no type coercion ("true" is not a boolean), no stripping.
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  installRootErrorHandling(app);
  if (opts.metrics && config.metricsToken) installMetrics(app, opts.metrics, config.metricsToken);
  await installOpenApi(app, config);
  installHealthRoutes(app, opts.database, opts.health);

  await app.register(
    async (api) => {
      installAuth(api, { ctx, lookups: opts.lookups, guard: opts.authGuard });
      await api.register(v1Plugin, { ctx });
      await api.register(v2Plugin, { ctx, prefix: '/v2' });
      await api.register(v3Plugin, { ctx, live: realtime.ctx, prefix: '/v3' });
    },
    { prefix: config.apiPrefix },
  );

  // Meeting pages, static files and signalling at the root.
  await app.register(webPlugin, { ctx, config, realtime });
  app.addHook('onReady', async () => realtime.start());
  app.addHook('preClose', async () => realtime.stop());
  for (const service of opts.background ?? []) {
    app.addHook('onReady', async () => service.start());
    app.addHook('onClose', async () => service.stop());
  }

  await app.ready();
  return app as unknown as FastifyInstance;
}

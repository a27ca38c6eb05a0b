/**
 * @module http/app
 * The Fastify application itself, before any surface is mounted: its
 * server settings (timeouts, body limit, proxy trust), problem-details
 * errors for what no surface handles, request metrics, the OpenAPI
 * document and the health routes. The composition root (`src/server.ts`)
 * then registers each surface (API, pages, dashboard, signalling) as an
 * encapsulated plugin of its own, beside the others.
 *
 * No CORS: API secrets belong on servers, so browsers get no grant.
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { MAX_REQUEST_HEADER_BYTES } from '../domain/meetings.ts';
import type { StoreConnection } from '../domain/ports/store.ts';
import { installHealthRoutes, type HealthOptions } from './health.ts';
import { installRootErrorHandling, sendProblem, toProblem } from './plugins/errors.ts';
import type { Metrics } from './metrics.ts';
import { installMetrics } from './plugins/metrics.ts';
import { installOpenApi } from './plugins/openapi.ts';

/** Far above any valid request (the largest is a board update listing 200 member ids). */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface BuildAppOptions {
  config: Config;
  /** The database connection, pinged by `/ready`. */
  database: Pick<StoreConnection, 'ping'>;
  logger: Logger;
  /** What `/ready` checks besides the database, and whether shutdown has begun. */
  health?: HealthOptions;
  /** Request counts and `/metrics` (served only with METRICS_TOKEN). */
  metrics?: Metrics;
}

/** The application with no surface mounted yet; not ready (surfaces are registered next). */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    // The pages' plugin bundles the browser modules while it registers; on a busy machine that
    // outlasts Fastify's default 10 s, and a start that fails for being slow helps nobody.
    pluginTimeout: 120_000,
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

  return app as unknown as FastifyInstance;
}

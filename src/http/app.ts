/**
 * @module http/app
 * Builds the Fastify application: logging (credentials redacted, no
 * headers or bodies logged), problem-details errors, the OpenAPI document,
 * health routes, and under `API_PREFIX` one encapsulated API context where
 * every request is authenticated before its version plugin (v1 at the
 * prefix root, v2 at `/v2`, v3 at `/v3`) sees it.
 *
 * No CORS: API secrets belong on servers, so browsers get no grant.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.ts';
import type { DomainContext } from '../domain/context.ts';
import type { Store } from '../store/store.ts';
import { installHealthRoutes, type HealthOptions } from './health.ts';
import { installAuth, type AuthGuard } from './plugins/auth.ts';
import { installRootErrorHandling, sendProblem, toProblem } from './plugins/errors.ts';
import { installOpenApi } from './plugins/openapi.ts';
import { v1Plugin } from './v1/plugin.ts';
import { v2Plugin } from './v2/plugin.ts';
import { v3Plugin } from './v3/plugin.ts';
import { webPlugin } from '../web/plugin.ts';

/** Far above any valid request (the largest is a board update listing 200 member ids). */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface BuildAppOptions {
  config: Config;
  store: Store;
  now?: () => Date;
  /** false: silent; true or absent: JSON logs at config.logLevel; an object: extra pino options. */
  logger?: boolean | object;
  /** Request limits (see plugins/auth.ts and plugins/limits.ts). */
  authGuard?: AuthGuard;
  /** What `/ready` checks besides the database, and whether shutdown has begun. */
  health?: HealthOptions;
}

const REDACTED_PATHS = [
  'req.headers.api_key',
  'req.headers.api_secret',
  'req.headers.authorization',
  'req.headers.cookie',
];

function loggerOptions(config: Config, logger: BuildAppOptions['logger']): false | object {
  if (logger === false) return false;
  return {
    level: config.logLevel,
    // The default serializers log neither headers nor bodies; this guards any future one that would.
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(typeof logger === 'object' ? logger : {}),
  };
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config, store } = opts;
  const ctx: DomainContext = {
    store,
    now: opts.now ?? (() => new Date()),
    publicUrl: config.publicUrl,
    idleCloseSeconds: config.idleCloseSeconds,
    secretPepper: config.secretPepper,
  };

  const app = Fastify({
    logger: loggerOptions(config, opts.logger),
    bodyLimit: BODY_LIMIT_BYTES,
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
  await installOpenApi(app, config);
  installHealthRoutes(app, store, opts.health);

  await app.register(
    async (api) => {
      installAuth(api, { ctx, guard: opts.authGuard });
      await api.register(v1Plugin, { ctx });
      await api.register(v2Plugin, { ctx, prefix: '/v2' });
      await api.register(v3Plugin, { ctx, prefix: '/v3' });
    },
    { prefix: config.apiPrefix },
  );

  // Meeting pages, static files and signalling at the root; also sets ctx.events (a v3 delete disconnects at once).
  await app.register(webPlugin, { ctx, config });

  await app.ready();
  return app as unknown as FastifyInstance;
}

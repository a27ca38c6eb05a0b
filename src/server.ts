/**
 * @module server
 * Wires one Foyer server from its parts: the domain context over an open
 * store, the key lookup cache (kept fresh by domain events), the realtime
 * side and its bus, the webhook worker, the SFU pool (a Janus of its own or
 * servers elsewhere, when configured), request limits when given, and the
 * HTTP application with its four surfaces mounted side by side as
 * encapsulated plugins: the API (under API_PREFIX), the pages, the
 * dashboard and signalling (`/ws`). Each owns its hooks, cookies and
 * error handling; none registers another's routes.
 * `npm start` (main.ts) and the tests build servers only through here, so
 * what the tests run is what production runs.
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createContext, type FoyerContext } from './context.ts';
import type { StoreConnection } from './domain/ports/store.ts';
import { recordPublicUrl } from './domain/public-url.ts';
import { apiPlugin } from './http/api.ts';
import { buildApp } from './http/app.ts';
import { Metrics } from './http/metrics.ts';
import { limitsGuard } from './http/plugins/limits.ts';
import type { Limits } from './limits/limits.ts';
import { LookupCache } from './limits/lookup-cache.ts';
import { createSmtpMailer } from './mail/smtp-mailer.ts';
import { createRealtime, type Realtime, type RealtimeTuning } from './realtime/realtime.ts';
import { signallingPlugin } from './realtime/ws-route.ts';
import { currentMember } from './domain/sign-in.ts';
import { dashboardPlugin } from './web/dashboard/plugin.ts';
import { DASHBOARD, SESSION_COOKIE } from './web/dashboard/session.ts';
import { browserKeyOf } from './web/participant-cookie.ts';
import { pagesPlugin } from './web/plugin.ts';
import { createWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './webhooks/worker.ts';
import type { JanusServerTuning } from './sfu/janus-server.ts';
import { SfuPool } from './sfu/pool.ts';

export interface ServerParts {
  config: Config;
  store: StoreConnection;
  logger: Logger;
  now?: () => Date;
  /** Request limits; without them every authenticated request is admitted. */
  limits?: Limits;
  /** True once shutdown has begun (`/ready` then answers 503). */
  isShuttingDown?: () => boolean;
  /** Realtime timings; tests shorten them. */
  realtime?: RealtimeTuning;
  /** Webhook worker settings beyond the configuration (tests). */
  webhooks?: Partial<WebhookWorkerOptions>;
  /** SFU settings beyond the configuration (tests: faster health checks, ICE on loopback). */
  sfu?: { tuning?: Partial<JanusServerTuning>; iceInterfaces?: string };
}

export interface FoyerServer {
  app: FastifyInstance;
  ctx: FoyerContext;
  realtime: Realtime;
  lookups: LookupCache;
  /** Present when METRICS_TOKEN is set. */
  metrics: Metrics | undefined;
  webhooks: WebhookWorker;
  /** The Janus servers behind meetings of several people; absent when meetings stay peer-to-peer. */
  sfu: SfuPool | undefined;
}

export async function createServer(parts: ServerParts): Promise<FoyerServer> {
  const { config, store, logger } = parts;
  const mailer = config.mail ? createSmtpMailer(config.mail) : undefined;
  const ctx = await createContext(config, {
    store,
    now: parts.now,
    mailer,
    onListenerError: (error, event) => logger.error({ err: error, event: event.type }, 'a listener of a domain event failed'),
  });
  // Links the operator's CLI makes lead here, whatever shell it runs in.
  await recordPublicUrl(ctx);
  // Key, organization and quota lookups of the auth hot path, cached for API_KEY_CACHE_SECONDS.
  const lookups = new LookupCache(store, config.apiKeyCacheSeconds * 1000);
  lookups.listen(ctx.events);
  const realtime = createRealtime(ctx, config, logger, parts.realtime);
  const sfu = createSfu(parts, ctx);
  if (sfu) {
    realtime.useSfu({
      fromParticipants: config.sfu.fromParticipants,
      videoSlots: config.sfu.videoSlots,
      roomFor: (place) => sfu.roomFor(place),
      isPlaced: (place) => sfu.isPlaced(place),
    });
  }
  // Only when someone may scrape them: the process-wide figures (event loop lag) cost a timer each.
  const metrics = config.metricsToken
    ? new Metrics({
        ctx,
        database: store,
        connections: () => realtime.size,
        redisUp: config.redisUrl ? () => realtime.busUp() ?? false : undefined,
        sweeps: () => ({ runs: realtime.sweeps }),
        sfu,
      })
    : undefined;
  const webhooks = createWebhookWorker(ctx, config, logger, parts.webhooks);
  const app = await buildApp({
    config,
    database: store,
    logger,
    health: {
      limits: parts.limits,
      isShuttingDown: parts.isShuttingDown,
      sfu: sfu && (() => ({ status: sfu.health(), up: sfu.status().filter((s) => s.up).length, total: sfu.servers.length })),
    },
    metrics,
  });
  await app.register(apiPlugin, {
    prefix: config.apiPrefix,
    ctx,
    live: realtime.ctx,
    ice: config.ice,
    lookups,
    authGuard: parts.limits ? limitsGuard(parts.limits, lookups, config.secretPepper) : undefined,
  });
  await app.register(pagesPlugin, { ctx, config });
  await app.register(dashboardPlugin, { ctx, config, prefix: DASHBOARD });
  await app.register(signallingPlugin, {
    realtime,
    pingIntervalMs: realtime.pingIntervalMs,
    connectionsPerAddress: config.wsConnectionsPerAddress,
    memberOf: async (request) => {
      const current = await currentMember(ctx, request.cookies[SESSION_COOKIE]);
      return current ? { actor: current.actor, sessionHash: current.session.idHash } : null;
    },
    browserOf: browserKeyOf,
  });
  for (const service of sfu ? [webhooks, sfu] : [webhooks]) {
    app.addHook('onReady', async () => service.start());
    app.addHook('onClose', async () => service.stop());
  }
  await app.ready();
  return { app, ctx, realtime, lookups, metrics, webhooks, sfu };
}

/** The SFU pool of JANUS_BIN or JANUS_URLS, started and stopped with the server; none without either. */
function createSfu(parts: ServerParts, ctx: FoyerContext): SfuPool | undefined {
  const { config } = parts;
  if (config.sfu.janus.kind === 'none') return undefined;
  const logger = parts.logger.child({ component: 'sfu' });
  return new SfuPool({
    sfu: config.sfu,
    iceUrls: config.ice.urls,
    store: parts.store,
    events: ctx.events,
    log: { info: (m) => logger.info(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
    now: parts.now,
    instanceTtlMs: parts.realtime?.instanceTtlMs,
    tuning: parts.sfu?.tuning,
    iceInterfaces: parts.sfu?.iceInterfaces,
  });
}

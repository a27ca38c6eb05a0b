/**
 * @module web/plugin
 * Where people meet, registered at the root of `{redirect_host}` (not under
 * the API prefix):
 * - `/meetings/:id` and `/:slug` (rooms; boards without a waiting list):
 *   the meeting front end;
 * - `/m/:code`: a short link, redirected to its meeting with the stored
 *   `queryParameters` applied;
 * - plain pages answering 404 (unknown) and 410 (closed or deleted);
 * - `/static/*`: the front end's files (public/), served from the repo;
 * - `/ws`: signalling and presence (see realtime/).
 *
 * It also creates this instance's realtime hub, starts the lifecycle
 * sweeper, and sets `ctx.events` so that domain commands (a v3 delete)
 * end meetings at once.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import type { DomainContext } from '../domain/context.ts';
import { isUuidV4 } from '../domain/ids.ts';
import { meetingState, type LiveContext } from '../domain/lifecycle.ts';
import type { QueryParameters } from '../domain/types.ts';
import { LocalBus, type Bus } from '../realtime/bus.ts';
import { Hub, type HubOptions } from '../realtime/hub.ts';
import { iceServersFor } from '../realtime/ice.ts';
import { RedisBus } from '../realtime/redis-bus.ts';
import { realtimeRoutes } from '../realtime/ws-route.ts';
import { pageHeaders } from './headers.ts';
import { plainView, shellView, type ShellSettings } from './pages.ts';
import { pageStrings, pickLang, type Lang } from './strings.ts';
import { registerViews } from './views.ts';

const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SHORT_CODE = /^[0-9A-Za-z]{1,32}$/;

export interface WebPluginOptions {
  ctx: DomainContext;
  config: Config;
  /** Tuning for tests; production uses the defaults. */
  realtime?: HubOptions & { pingIntervalMs?: number; instanceTtlMs?: number; instanceId?: string };
}

export async function webPlugin(app: FastifyInstance, opts: WebPluginOptions): Promise<void> {
  const { ctx, config } = opts;
  const tuning = opts.realtime ?? {};
  const live: LiveContext = {
    ...ctx,
    instanceId: tuning.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`,
    instanceTtlMs: tuning.instanceTtlMs ?? 15_000,
  };
  let lastRedisWarning = 0;
  const bus: Bus = config.redisUrl
    ? new RedisBus(config.redisUrl, config.redisKeyPrefix, (error) => {
        // ioredis reports every reconnect attempt; once a minute is enough to tell the operator.
        if (Date.now() - lastRedisWarning < 60_000) return;
        lastRedisWarning = Date.now();
        app.log.warn({ err: error.message }, 'realtime: Redis unavailable; meetings across instances cannot connect until it is back');
      })
    : new LocalBus();
  const hub = new Hub(live, bus, app.log, tuning);
  ctx.events = hub;
  app.addHook('onReady', async () => hub.start());
  app.addHook('preClose', async () => hub.stop());

  await app.register(realtimeRoutes, { hub, pingIntervalMs: tuning.pingIntervalMs ?? 5000 });
  await app.register(fastifyStatic, {
    root: PUBLIC_DIR,
    prefix: '/static/',
    decorateReply: false,
    index: false,
    // Small files, changed with deployments: let browsers revalidate rather than guess.
    cacheControl: true,
    maxAge: 0,
    setHeaders(res) {
      res.header('x-content-type-options', 'nosniff');
    },
  });

  await registerViews(app);

  const langOf = (request: FastifyRequest): Lang => pickLang((request.query as Record<string, unknown>)?.lang);

  const plain = (request: FastifyRequest, reply: FastifyReply, status: number, kind: 'notFound' | 'gone') => {
    const lang = langOf(request);
    const s = pageStrings[lang];
    pageHeaders(reply, request, config.frameAncestors);
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .viewAsync('plain', plainView(lang, kind === 'gone' ? s.goneTitle : s.notFoundTitle, kind === 'gone' ? s.gone : s.notFound));
  };

  const shell = (request: FastifyRequest, reply: FastifyReply, target: ShellSettings['target'], title: string | null) => {
    pageHeaders(reply, request, config.frameAncestors);
    const settings: ShellSettings = { target, title, iceServers: iceServersFor(config.ice, ctx.now()), wsPath: '/ws' };
    return reply.type('text/html; charset=utf-8').viewAsync('shell', shellView(settings, langOf(request)));
  };

  app.get<{ Params: { id: string } }>('/meetings/:id', { schema: { hide: true } }, async (request, reply) => {
    const id = request.params.id.toLowerCase();
    const meeting = isUuidV4(id) ? await ctx.store.live.findMeetingRecord({ id }) : undefined;
    if (!meeting) return plain(request, reply, 404, 'notFound');
    if (meetingState(meeting, ctx.now()) !== 'open') return plain(request, reply, 410, 'gone');
    return shell(request, reply, { meetingId: meeting.id }, null);
  });

  app.get<{ Params: { code: string } }>('/m/:code', { schema: { hide: true } }, async (request, reply) => {
    const code = request.params.code;
    const meeting = SHORT_CODE.test(code) ? await ctx.store.live.findMeetingRecord({ shortCode: code }) : undefined;
    if (!meeting) return plain(request, reply, 404, 'notFound');
    if (meetingState(meeting, ctx.now()) !== 'open') return plain(request, reply, 410, 'gone');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-store');
    return reply.redirect(`/meetings/${meeting.id}${queryString(meeting.queryParameters, request.query)}`, 302);
  });

  app.get<{ Params: { slug: string } }>('/:slug', { schema: { hide: true } }, async (request, reply) => {
    const slug = request.params.slug;
    const place = SLUG.test(slug) ? await ctx.store.live.findSlugPlace(slug) : undefined;
    if (!place) return plain(request, reply, 404, 'notFound');
    if (place.kind === 'room') return shell(request, reply, { slug }, place.title);
    if (place.kind === 'board' && place.isActive && !place.hasWaitingList) return shell(request, reply, { slug }, place.name);
    // Queues and waiting-list boards: an honest plain page until the waiting list exists.
    const lang = langOf(request);
    const s = pageStrings[lang];
    pageHeaders(reply, request, config.frameAncestors);
    const text = place.isActive ? s.waiting : (place.closingMessage ?? s.inactive);
    return reply.type('text/html; charset=utf-8').viewAsync('plain', plainView(lang, place.name || s.waitingTitle, text));
  });
}

/**
 * The stored parameters, then any the link was opened with that are not
 * stored (an embedding site may add `embed=true` or a `displayName`):
 * the meeting's creator decides, the opener completes.
 */
function queryString(stored: QueryParameters | null, requestQuery: unknown): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(stored ?? {})) params.set(key, String(value));
  for (const [key, value] of Object.entries((requestQuery ?? {}) as Record<string, unknown>)) {
    if (!params.has(key) && typeof value === 'string') params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

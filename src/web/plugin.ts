/**
 * @module web/plugin
 * The pages surface: where people meet, mounted by the composition root
 * as an encapsulated plugin at the root of `{redirect_host}` (not under
 * the API prefix), beside the API, the dashboard and signalling:
 * - `/meetings/:id` and `/:slug` (rooms; boards without a waiting list):
 *   the meeting front end; `/:slug` of a queue or a board with a waiting
 *   list: the waiting page (public/js/pages/waiting.js), which moves into
 *   the private call when a member takes the client;
 * - `/m/:code`: a short link, redirected to its meeting with the stored
 *   `queryParameters` applied;
 * - plain pages answering 404 (unknown) and 410 (closed or deleted);
 * - `/static/*`: the front end's files (public/), served from the repo;
 *   `/static/bundles/*`: each page's script in one file (bundles.ts);
 *   `/static/vendor/uplot/`: the two files of the uPlot package the
 *   dashboard's usage charts load (its ES module and style sheet), from
 *   node_modules, so no CDN is involved;
 * - `/sdk/foyer.js`: the embedding SDK (public/sdk/foyer.js), an ES module
 *   other sites load, so served with `Access-Control-Allow-Origin: *`.
 *
 * Which link or slug can be entered is the domain's decision (places.ts).
 */
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config.ts';
import type { DomainContext } from '../domain/context.ts';
import { allowedOriginsOf, frameAncestorsFor } from '../domain/allowed-origins.ts';
import type { Actor } from '../domain/actors.ts';
import { meetingAtLink, placeAtSlug, placeContext, releasedSlugAt, slugAdmission } from '../domain/places.ts';
import type { Meeting, QueryParameters } from '../domain/types.ts';
import { storedQueryString } from '../domain/meetings.ts';
import { iceServersFor } from '../realtime/ice.ts';
import { pageHeaders } from './headers.ts';
import { bundleRoutes } from './bundles.ts';
import { plainView, shellView, type ShellSettings } from './pages.ts';
import { pageStrings, pickLang, type Lang } from './strings.ts';
import { SESSION_COOKIE } from './dashboard/session.ts';
import { LANG_COOKIE } from './dashboard/texts.ts';
import { currentMember } from '../domain/sign-in.ts';
import { memberOfPass } from '../domain/member-pass.ts';
import { registerViews } from './views.ts';
import { ensureParticipantCookie } from './participant-cookie.ts';
import { isHost } from '../domain/policies.ts';

const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));
const UPLOT_DIR = join(dirname(createRequire(import.meta.url).resolve('uplot/package.json')), 'dist');
/** The only files of the package a browser may fetch. */
const UPLOT_FILES = new Set(['/uPlot.esm.js', '/uPlot.min.css']);

export interface PagesPluginOptions {
  ctx: DomainContext;
  config: Config;
}

export async function pagesPlugin(app: FastifyInstance, opts: PagesPluginOptions): Promise<void> {
  const { ctx, config } = opts;

  // A meeting page reads the member's session (to say "you are the host") and sets the participant cookie.
  await app.register(fastifyCookie);
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

  await app.register(fastifyStatic, {
    root: UPLOT_DIR,
    prefix: '/static/vendor/uplot/',
    decorateReply: false,
    index: false,
    allowedPath: (path) => UPLOT_FILES.has(path),
    cacheControl: true,
    maxAge: 0,
    setHeaders(res) {
      res.header('x-content-type-options', 'nosniff');
    },
  });

  // The embedding SDK: loaded by other sites' pages as a module script, so it is served to every origin (CORS).
  const sdk = readFileSync(join(PUBLIC_DIR, 'sdk', 'foyer.js'));
  app.get('/sdk/foyer.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=300')
      .send(sdk),
  );

  // Before the pages: their shells name the bundles by their content's hash.
  await app.register(bundleRoutes);
  await registerViews(app);

  const langOf = (request: FastifyRequest): Lang => pickLang((request.query as Record<string, unknown>)?.lang);

  /** An organization's pages may be framed by its allowed origins (or, when it lists none, as FRAME_ANCESTORS says). */
  const framing = async (organizationId: string | null) => {
    const origins = organizationId ? await allowedOriginsOf(ctx, organizationId) : [];
    return { origins, frameAncestors: frameAncestorsFor(origins, config.frameAncestors) };
  };

  const plain = async (request: FastifyRequest, reply: FastifyReply, status: number, kind: 'notFound' | 'gone', organizationId: string | null = null) => {
    const lang = langOf(request);
    const s = pageStrings[lang];
    pageHeaders(reply, request, (await framing(organizationId)).frameAncestors);
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .viewAsync('plain', plainView(lang, kind === 'gone' ? s.goneTitle : s.notFoundTitle, kind === 'gone' ? s.gone : s.notFound));
  };

  /** A slug given up and still reserved to its organization: "moved" (with the new address) or "ended", 410; else not found. */
  const released = async (request: FastifyRequest, reply: FastifyReply, slug: string) => {
    const found = await releasedSlugAt(ctx, slug);
    if (!found) return plain(request, reply, 404, 'notFound');
    const lang = langOf(request);
    const s = pageStrings[lang];
    pageHeaders(reply, request, (await framing(found.organizationId)).frameAncestors);
    const view = found.currentSlug
      ? plainView(lang, s.movedTitle, s.moved, { href: `/${found.currentSlug}${lang === 'en' ? '' : `?lang=${lang}`}`, text: s.movedLink })
      : plainView(lang, s.endedTitle, s.ended);
    return reply.code(410).type('text/html; charset=utf-8').viewAsync('plain', view);
  };

  /** Where the page leads and who opens it (see ShellSettings). */
  interface ShellOptions {
    title: string | null;
    waiting?: ShellSettings['waiting'];
    meeting?: Meeting;
    /** The member opening the page, as the server knows them (their session, or their pass to this meeting). */
    member?: Actor | null;
  }

  const shell = async (request: FastifyRequest, reply: FastifyReply, organizationId: string, target: ShellSettings['target'], options: ShellOptions) => {
    const { origins, frameAncestors } = await framing(organizationId);
    pageHeaders(reply, request, frameAncestors);
    ensureParticipantCookie(request, reply, config.publicUrl);
    const { meeting, waiting } = options;
    const member = options.member === undefined ? ((await currentMember(ctx, request.cookies[SESSION_COOKIE]))?.actor ?? null) : options.member;
    const context = await placeContext(ctx, organizationId, meeting);
    const signedIn = member?.kind === 'member' && member.organization.id === organizationId ? member : null;
    // A member's page speaks their dashboard's language (the page's ?lang= still wins).
    const memberLang = signedIn ? request.cookies[LANG_COOKIE] : undefined;
    const asked = (request.query as Record<string, unknown>)?.lang;
    const lang = typeof asked !== 'string' && memberLang ? pickLang(memberLang) : langOf(request);
    const settings: ShellSettings = {
      target,
      title: options.title,
      organization: context.organization,
      ...(context.hostName ? { hostName: context.hostName } : {}),
      ...(signedIn ? { memberName: signedIn.user.fullName } : {}),
      ...(memberLang ? { lang } : {}),
      iceServers: iceServersFor(config.ice, ctx.now()),
      iceTransportPolicy: config.ice.transportPolicy,
      wsPath: '/ws',
      allowedParents: origins,
      ...(meeting
        ? {
            host: isHost(member, meeting),
            consultation: meeting.type === 'CONSULTATION',
            // Media on without a click only from the meeting's own stored parameters, never from a raw URL.
            joinWithMedia: String(meeting.queryParameters?.skipPrejoin) === 'true',
          }
        : {}),
      ...(waiting ? { waiting } : {}),
    };
    return reply.type('text/html; charset=utf-8').viewAsync('shell', shellView(settings, lang, waiting ? 'waiting' : 'meeting'));
  };

  app.get<{ Params: { id: string } }>('/meetings/:id', { schema: { hide: true } }, async (request, reply) => {
    const found = await meetingAtLink(ctx, { id: request.params.id });
    if (!found) return plain(request, reply, 404, 'notFound');
    if (found.state !== 'open') return plain(request, reply, 410, 'gone', found.meeting.organizationId);
    // The pre-join screen already says "you are the host"; the server decides again at join.
    const pass = (request.query as Record<string, unknown>).pass;
    const member =
      (await currentMember(ctx, request.cookies[SESSION_COOKIE]))?.actor ?? (typeof pass === 'string' ? await memberOfPass(ctx, pass, found.meeting.id) : null);
    return shell(request, reply, found.meeting.organizationId, { meetingId: found.meeting.id }, { title: found.meeting.title, meeting: found.meeting, member });
  });

  app.get<{ Params: { code: string } }>('/m/:code', { schema: { hide: true } }, async (request, reply) => {
    const found = await meetingAtLink(ctx, { shortCode: request.params.code });
    if (!found) return plain(request, reply, 404, 'notFound');
    if (found.state !== 'open') return plain(request, reply, 410, 'gone', found.meeting.organizationId);
    const { meeting } = found;
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-store');
    return reply.redirect(`/meetings/${meeting.id}${queryString(meeting.queryParameters, request.query)}`, 302);
  });

  app.get<{ Params: { slug: string } }>('/:slug', { schema: { hide: true } }, async (request, reply) => {
    const slug = request.params.slug;
    const place = await placeAtSlug(ctx, slug);
    if (!place) return released(request, reply, slug);
    if (slugAdmission(place) === 'enter') return shell(request, reply, place.organizationId, { slug }, { title: place.kind === 'room' ? place.title : place.name });
    // What is left are queues and boards (a room can always be entered); the check only narrows the type.
    if (place.kind === 'room') return plain(request, reply, 404, 'notFound');
    // Queues and waiting-list boards that take clients: the waiting page (it also follows a board closing later).
    if (place.isActive && slugAdmission(place) === 'waiting_list') {
      return shell(request, reply, place.organizationId, { slug }, { title: place.name, waiting: { slug, kind: place.kind, closingMessage: place.closingMessage } });
    }
    // Inactive ones let nobody in: their closing message, or the default.
    const lang = langOf(request);
    const s = pageStrings[lang];
    pageHeaders(reply, request, (await framing(place.organizationId)).frameAncestors);
    return reply.type('text/html; charset=utf-8').viewAsync('plain', plainView(lang, place.name || s.closedTitle, place.closingMessage ?? s.inactive));
  });
}

/**
 * The stored parameters, then any the link was opened with that are not
 * stored (an embedding site may add `embed=true` or a `displayName`):
 * the meeting's creator decides, the opener completes.
 */
function queryString(stored: QueryParameters | null, requestQuery: unknown): string {
  const params = new URLSearchParams(storedQueryString(stored ?? {}));
  for (const [key, value] of Object.entries((requestQuery ?? {}) as Record<string, unknown>)) {
    if (!params.has(key) && typeof value === 'string') params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

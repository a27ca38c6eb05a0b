/**
 * @module web/dashboard/render
 * Renders a dashboard page: the security headers, the language and its
 * texts, the signed-in member and what the navigation offers them (only
 * what their role may do: the server still checks each action), a CSRF
 * token for the page's forms, and the page's own data.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { can } from '../../domain/policies.ts';
import { socketSources } from '../headers.ts';
import { dashboardHeaders, type HeaderOptions } from './headers.ts';
import { csrfUserInfo, DASHBOARD } from './session.ts';
import { dashboardLang, translator } from './texts.ts';

export interface NavItem {
  href: string;
  label: string;
  current: boolean;
}

function navigation(request: FastifyRequest, t: (key: string) => string): NavItem[] {
  const actor = request.member?.actor;
  if (!actor) return [];
  const path = request.url.split('?')[0] ?? '';
  const items: Array<[string, string, boolean]> = [
    [DASHBOARD, 'navOverview', true],
    [`${DASHBOARD}/meetings`, 'navMeetings', can(actor, 'meeting.manage')],
    [`${DASHBOARD}/rooms`, 'navRooms', can(actor, 'room.manage')],
    [`${DASHBOARD}/boards`, 'navBoards', can(actor, 'space.manage')],
    [`${DASHBOARD}/queues`, 'navQueues', can(actor, 'space.manage')],
    [`${DASHBOARD}/consoles`, 'navConsoles', can(actor, 'space.serve')],
    [`${DASHBOARD}/keys`, 'navKeys', can(actor, 'apiKey.manage')],
    [`${DASHBOARD}/webhooks`, 'navWebhooks', can(actor, 'webhook.manage')],
    [`${DASHBOARD}/usage`, 'navUsage', can(actor, 'usage.read')],
    [`${DASHBOARD}/members`, 'navMembers', can(actor, 'user.manage')],
    [`${DASHBOARD}/embedding`, 'navEmbedding', can(actor, 'origins.manage')],
  ];
  return items
    .filter(([, , shown]) => shown)
    .map(([href, key]) => ({ href, label: t(key), current: href === DASHBOARD ? path === DASHBOARD : inSection(path, href) }));
}

/** A board's or queue's console belongs to the waiting lists, not to the boards or queues it is reached through. */
function inSection(path: string, href: string): boolean {
  const console = /^\/dashboard\/(boards|queues)\/[^/]+\/console$/.test(path);
  if (href === `${DASHBOARD}/consoles`) return console || path.startsWith(href);
  return !console && path.startsWith(href);
}

/** Sends `view` (a template under views/dashboard/) with the common page data and `data`. */
export async function renderPage(
  request: FastifyRequest,
  reply: FastifyReply,
  view: string,
  data: Record<string, unknown>,
  status = 200,
  headers: HeaderOptions = {},
): Promise<string> {
  dashboardHeaders(reply, { ...headers, sockets: socketSources(request) });
  const lang = dashboardLang(request, reply);
  const t = translator(lang);
  const member = request.member?.actor;
  const common = {
    lang,
    t,
    path: request.url.split('?')[0],
    csrf: reply.generateCsrf({ userInfo: csrfUserInfo(request) }),
    member: member?.kind === 'member' ? { name: member.user.fullName, email: member.user.email, role: member.user.role, organization: member.organization.name } : null,
    nav: navigation(request, t),
  };
  return reply.code(status).type('text/html; charset=utf-8').viewAsync(`dashboard/${view}`, { ...common, ...data });
}

/**
 * @module web/dashboard/texts
 * The dashboard's language and texts. Texts live in public/js/shared/strings/
 * (one table per section, English and German, checked to have the same
 * keys); a section's table is added to TABLES here. The language is
 * `?lang=` when given (and then remembered in a cookie), else the cookie,
 * else the browser's Accept-Language, else English.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LANG, LANGS } from '../../../public/js/shared/langs.js';
import { dashboardConsoleTexts } from '../../../public/js/shared/strings/dashboard-console.js';
import { dashboardAccessTexts } from '../../../public/js/shared/strings/dashboard-access.js';
import { dashboardKeysTexts } from '../../../public/js/shared/strings/dashboard-keys.js';
import { dashboardEmbeddingTexts } from '../../../public/js/shared/strings/dashboard-embedding.js';
import { dashboardMembersTexts } from '../../../public/js/shared/strings/dashboard-members.js';
import { dashboardMeetingsTexts } from '../../../public/js/shared/strings/dashboard-meetings.js';
import { dashboardPlacesTexts } from '../../../public/js/shared/strings/dashboard-places.js';
import { dashboardRoomsTexts } from '../../../public/js/shared/strings/dashboard-rooms.js';
import { dashboardSpacesTexts } from '../../../public/js/shared/strings/dashboard-spaces.js';
import { dashboardWebhooksTexts } from '../../../public/js/shared/strings/dashboard-webhooks.js';
import { dashboardTexts } from '../../../public/js/shared/strings/dashboard.js';
import { pickLang, type Lang } from '../strings.ts';

const TABLES: Array<Record<Lang, Record<string, string>>> = [
  dashboardTexts,
  dashboardAccessTexts,
  dashboardPlacesTexts,
  dashboardMeetingsTexts,
  dashboardRoomsTexts,
  dashboardSpacesTexts,
  dashboardKeysTexts,
  dashboardConsoleTexts,
  dashboardWebhooksTexts,
  dashboardMembersTexts,
  dashboardEmbeddingTexts,
];

export const LANG_COOKIE = 'foyer_lang';

export type Translate = (key: string, params?: Record<string, string | number>) => string;

export function translator(lang: Lang): Translate {
  return (key, params) => {
    let text: string | undefined;
    for (const table of TABLES) {
      text = table[lang][key] ?? table[DEFAULT_LANG][key];
      if (text !== undefined) break;
    }
    // A missing text shows its key, so a screenshot reveals it; the strings test keeps languages in step.
    if (text === undefined) return `⟦${key}⟧`;
    return params ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole)) : text;
  };
}

function fromAcceptLanguage(header: string | undefined): Lang | undefined {
  for (const part of (header ?? '').split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase();
    const lang = LANGS.find((l) => tag === l || tag.startsWith(`${l}-`));
    if (lang) return lang;
  }
  return undefined;
}

/** The request's language; remembers an explicit `?lang=` for the next pages. */
export function dashboardLang(request: FastifyRequest, reply: FastifyReply): Lang {
  const asked = (request.query as Record<string, unknown> | undefined)?.lang;
  if (typeof asked === 'string' && asked) {
    const lang = pickLang(asked);
    reply.setCookie(LANG_COOKIE, lang, { path: '/', sameSite: 'lax', httpOnly: true, maxAge: 365 * 24 * 3600 });
    return lang;
  }
  const remembered = request.cookies[LANG_COOKIE];
  if (remembered && (LANGS as readonly string[]).includes(remembered)) return remembered as Lang;
  return fromAcceptLanguage(request.headers['accept-language']) ?? DEFAULT_LANG;
}

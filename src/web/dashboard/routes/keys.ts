/**
 * @module web/dashboard/routes/keys
 * API keys, for administrators: the list (name, the key's first
 * characters, created, expires, last used, status), creating one with a
 * name and an expiry, and revoking one after being asked. Through the
 * same domain commands as `foyer key`, with the member as the actor, so
 * the policy (ADMIN only) is checked there; every handler also asks it
 * first, so a USER is refused whatever else is wrong with the request.
 *
 * The secret exists only in the response to the form that created the
 * key: rendered into that page (never a redirect, whose URL would carry
 * it into history and logs), with `Cache-Control: no-store`. Reloading
 * that page would send the form again; its one-time form id makes the
 * second send show the list with a notice instead of issuing a second key
 * (remembered by this process for an hour: behind several instances a
 * resend reaching another one issues a second key, whose secret is shown
 * as any new key's is).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Actor } from '../../../domain/actors.ts';
import { createApiKey, keyInputErrors, keyStatus, listApiKeys, revokeApiKey } from '../../../domain/keys.ts';
import { authorize } from '../../../domain/policies.ts';
import type { ApiKey } from '../../../domain/types.ts';
import { DAY_MS } from '../../../domain/usage.ts';
import { formOf, otherErrors, pathId, refusal, text, type FieldErrors } from '../forms.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, requireMember } from '../session.ts';
import { dashboardLang, translator, type Translate } from '../texts.ts';
import { moment } from '../times.ts';
import type { Lang } from '../../strings.ts';

const BASE = `${DASHBOARD}/keys`;
const SHOWN_FIELDS = ['name', 'expires', 'expiresAt'];
/** The expiry choices, in the form's order: never, a number of days, or a date. */
export const EXPIRY_CHOICES = ['never', '30', '90', '365', 'date'] as const;
type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** How long a sent form's id is remembered, and how many at most. */
const FORM_ID_MS = 3_600_000;
const FORM_IDS_MAX = 10_000;

interface KeyForm {
  name: string;
  expires: string;
  expiresAt: string;
  formId: string;
}

/** Where a key's first characters end: enough to tell keys apart, not the whole public key. */
export function keyPrefix(publicKey: string): string {
  return `${publicKey.slice(0, 9)}…`;
}

/** The chosen expiry as a moment, or the field errors of the choice. */
function expiryOf(values: KeyForm, now: Date, t: Translate): { expiresAt: Date | null } | { errors: FieldErrors } {
  const choice = values.expires as ExpiryChoice;
  if (!EXPIRY_CHOICES.includes(choice)) return { errors: { expires: t('keys.chooseExpiry') } };
  if (choice === 'never') return { expiresAt: null };
  if (choice !== 'date') return { expiresAt: new Date(now.getTime() + Number(choice) * DAY_MS) };
  const date = values.expiresAt.trim();
  if (date === '') return { errors: { expiresAt: t('keys.dateMissing') } };
  const match = DATE.exec(date);
  const day = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  // Date.UTC rolls 2025-02-30 over into March: a real date reads back the same.
  if (!match || Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== date) return { errors: { expiresAt: t('keys.dateInvalid') } };
  // The key works through the chosen day: it expires when the next UTC day begins.
  return { expiresAt: new Date(day + DAY_MS) };
}

function row(key: ApiKey, now: Date, lang: Lang) {
  return {
    id: key.id,
    name: key.name,
    prefix: keyPrefix(key.publicKey),
    created: moment(key.createdAt, lang),
    expires: key.expiresAt && moment(key.expiresAt, lang),
    lastUsed: key.lastUsedAt && moment(key.lastUsedAt, lang),
    status: keyStatus(key, now),
  };
}

export const keyRoutes: DashboardRoutes = (app, { ctx }) => {
  const sentForms = new Map<string, number>();
  /** True the first time a form id is seen within the hour; forms without one are always new. */
  const firstSend = (formId: string): boolean => {
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(formId)) return true;
    const now = Date.now();
    for (const [id, at] of sentForms) {
      if (now - at < FORM_ID_MS && sentForms.size < FORM_IDS_MAX) break;
      sentForms.delete(id);
    }
    if (sentForms.has(formId)) return false;
    sentForms.set(formId, now);
    return true;
  };

  const manager = (request: FastifyRequest): Actor => {
    const actor = requireMember(request);
    authorize(actor, 'apiKey.manage');
    return actor;
  };

  const showForm = (request: FastifyRequest, reply: FastifyReply, values: KeyForm, errors: FieldErrors, status: number) =>
    renderPage(request, reply, 'key-new', { values, errors, others: otherErrors(errors, SHOWN_FIELDS), choices: EXPIRY_CHOICES, today: ctx.now().toISOString().slice(0, 10) }, status);

  app.get('/keys', async (request, reply) => {
    const actor = manager(request);
    const lang = dashboardLang(request, reply);
    const now = ctx.now();
    const keys = await listApiKeys(ctx, actor);
    const query = request.query as Record<string, unknown>;
    const notice = query.revoked !== undefined ? 'keys.revoked' : query.alreadyCreated !== undefined ? 'keys.alreadyCreated' : undefined;
    return renderPage(request, reply, 'keys', { keys: keys.reverse().map((key) => row(key, now, lang)), notice });
  });

  app.get('/keys/new', async (request, reply) => {
    manager(request);
    return showForm(request, reply, { name: '', expires: 'never', expiresAt: '', formId: randomBytes(16).toString('base64url') }, {}, 200);
  });

  app.post('/keys', async (request, reply) => {
    const actor = manager(request);
    const form = formOf(request);
    const values: KeyForm = { name: text(form, 'name'), expires: text(form, 'expires'), expiresAt: text(form, 'expiresAt'), formId: text(form, 'formId') };
    const lang = dashboardLang(request, reply);
    const t = translator(lang);
    const now = ctx.now();
    const expiry = expiryOf(values, now, t);
    if ('errors' in expiry) {
      // The name is checked too, so every mistake shows at once.
      const errors: FieldErrors = { ...expiry.errors };
      for (const { field, message } of keyInputErrors({ name: values.name, expiresAt: null }, now)) errors[field] ??= message;
      return showForm(request, reply, values, errors, 400);
    }
    if (!firstSend(values.formId)) return reply.redirect(`${BASE}?alreadyCreated`, 303);
    try {
      const { key, secret } = await createApiKey(ctx, actor, { name: values.name, expiresAt: expiry.expiresAt });
      return renderPage(request, reply, 'key-created', { key: row(key, now, lang), publicKey: key.publicKey, secret }, 201);
    } catch (error) {
      sentForms.delete(values.formId);
      const refused = refusal(error);
      if (!refused) throw error;
      return showForm(request, reply, values, refused.errors, refused.status);
    }
  });

  app.post<{ Params: { id: string } }>('/keys/:id/revoke', async (request, reply) => {
    const actor = manager(request);
    await revokeApiKey(ctx, actor, { id: pathId(request.params.id, 'API key') });
    return reply.redirect(`${BASE}?revoked`, 303);
  });
};

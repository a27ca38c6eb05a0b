/**
 * @module web/dashboard/routes/webhooks
 * Webhook endpoints, for administrators: the list (URL, events, status
 * with the reason a disabled endpoint gives), adding one (URL, description,
 * the events it wants), and per endpoint its details, enabling and
 * disabling, rotating the secret, deleting (after being asked), and the
 * delivery log with "resend". Through the same domain commands as
 * `/v3/webhooks`, with the member as the actor: the policy (ADMIN only)
 * is checked there, and every handler asks it first.
 *
 * A signing secret exists only in the answer to the form that issued it
 * (adding, rotating): rendered, never redirected to, never shown again.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../domain/actors.ts';
import { authorize } from '../../../domain/policies.ts';
import {
  DEFAULT_ROTATION_OVERLAP_HOURS,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  resendWebhookDelivery,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '../../../domain/webhooks/endpoints.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint } from '../../../domain/webhooks/types.ts';
import type { Lang } from '../../strings.ts';
import { formOf, otherErrors, pathId, refusal, text, texts, type FieldErrors } from '../forms.ts';
import { oneTimeForms } from '../form-ids.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, requireMember } from '../session.ts';
import { dashboardLang, translator, type Translate } from '../texts.ts';
import { moment } from '../times.ts';

const BASE = `${DASHBOARD}/webhooks`;
const SHOWN_FIELDS = ['url', 'description', 'events'];
const NOTICES = ['deleted', 'enabled', 'disabled', 'resent', 'alreadyCreated', 'alreadyRotated'] as const;

interface WebhookForm {
  url: string;
  description: string;
  events: string[];
  formId: string;
}

function endpointView(e: WebhookEndpoint, lang: Lang) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    created: moment(e.createdAt, lang),
    rotating: e.secrets.length > 1,
  };
}

function deliveryView(d: WebhookDelivery, lang: Lang) {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    lastStatus: d.lastStatus,
    lastError: d.lastError,
    latency: d.lastLatencyMs,
    created: moment(d.createdAt, lang),
    next: d.status === 'pending' && d.attempts > 0 ? moment(d.nextAttemptAt, lang) : null,
  };
}

/** The domain's reasons, in the page's language: which rule the field broke. */
function inLanguage(errors: FieldErrors, t: Translate): FieldErrors {
  const out: FieldErrors = { ...errors };
  if (errors.url) out.url = t(/private/.test(errors.url) ? 'webhooks.error.private' : /https/.test(errors.url) ? 'webhooks.error.https' : 'webhooks.error.url');
  if (errors.events) out.events = t('webhooks.error.events');
  if (errors.description) out.description = t('webhooks.error.description');
  return out;
}

export const webhookRoutes: DashboardRoutes = (app, { ctx }) => {
  const forms = oneTimeForms();
  const manager = (request: FastifyRequest): Actor => {
    const actor = requireMember(request);
    authorize(actor, 'webhook.manage');
    return actor;
  };

  const showForm = (request: FastifyRequest, reply: FastifyReply, values: WebhookForm, errors: FieldErrors, status: number) =>
    renderPage(request, reply, 'webhook-new', { values, errors, others: otherErrors(errors, SHOWN_FIELDS), eventTypes: WEBHOOK_EVENT_TYPES }, status);

  const noticeOf = (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    const found = NOTICES.find((n) => query[n] !== undefined);
    return found && `webhooks.notice.${found}`;
  };

  app.get('/webhooks', async (request, reply) => {
    const actor = manager(request);
    const lang = dashboardLang(request, reply);
    const endpoints = await listWebhookEndpoints(ctx, actor);
    return renderPage(request, reply, 'webhooks', { endpoints: endpoints.map((e) => endpointView(e, lang)), notice: noticeOf(request) });
  });

  app.get('/webhooks/new', async (request, reply) => {
    manager(request);
    return showForm(request, reply, { url: 'https://', description: '', events: ['meeting.created', 'meeting.started', 'meeting.ended'], formId: forms.issue() }, {}, 200);
  });

  app.post('/webhooks', async (request, reply) => {
    const actor = manager(request);
    const form = formOf(request);
    const values: WebhookForm = { url: text(form, 'url').trim(), description: text(form, 'description'), events: texts(form, 'events'), formId: text(form, 'formId') };
    if (!forms.firstSend(values.formId)) return reply.redirect(`${BASE}?alreadyCreated`, 303);
    try {
      const { endpoint, secret } = await createWebhookEndpoint(ctx, actor, values);
      const lang = dashboardLang(request, reply);
      return renderPage(request, reply, 'webhook-secret', { endpoint: endpointView(endpoint, lang), secret, rotated: false }, 201);
    } catch (error) {
      forms.forget(values.formId);
      const refused = refusal(error);
      if (!refused) throw error;
      return showForm(request, reply, values, inLanguage(refused.errors, translator(dashboardLang(request, reply))), refused.status);
    }
  });

  app.get<{ Params: { id: string } }>('/webhooks/:id', async (request, reply) => {
    const actor = manager(request);
    const lang = dashboardLang(request, reply);
    const id = pathId(request.params.id, 'webhook endpoint');
    const endpoint = await getWebhookEndpoint(ctx, actor, id);
    const deliveries = await listWebhookDeliveries(ctx, actor, id, 50);
    return renderPage(request, reply, 'webhook', {
      endpoint: endpointView(endpoint, lang),
      deliveries: deliveries.map((d) => deliveryView(d, lang)),
      overlapHours: DEFAULT_ROTATION_OVERLAP_HOURS,
      notice: noticeOf(request),
      rotateFormId: forms.issue(),
    });
  });

  for (const [action, enabled] of [['enable', true], ['disable', false]] as const) {
    app.post<{ Params: { id: string } }>(`/webhooks/:id/${action}`, async (request, reply) => {
      const actor = manager(request);
      const id = pathId(request.params.id, 'webhook endpoint');
      await updateWebhookEndpoint(ctx, actor, id, { enabled });
      return reply.redirect(`${BASE}/${id}?${enabled ? 'enabled' : 'disabled'}`, 303);
    });
  }

  app.post<{ Params: { id: string } }>('/webhooks/:id/rotate', async (request, reply) => {
    const actor = manager(request);
    const id = pathId(request.params.id, 'webhook endpoint');
    // Reloading the answer (which shows the new secret) must not rotate again.
    if (!forms.firstSend(text(formOf(request), 'formId'))) return reply.redirect(`${BASE}/${id}?alreadyRotated`, 303);
    const { endpoint, secret } = await rotateWebhookSecret(ctx, actor, id);
    const lang = dashboardLang(request, reply);
    return renderPage(request, reply, 'webhook-secret', { endpoint: endpointView(endpoint, lang), secret, rotated: true, overlapHours: DEFAULT_ROTATION_OVERLAP_HOURS });
  });

  app.post<{ Params: { id: string } }>('/webhooks/:id/delete', async (request, reply) => {
    const actor = manager(request);
    await deleteWebhookEndpoint(ctx, actor, pathId(request.params.id, 'webhook endpoint'));
    return reply.redirect(`${BASE}?deleted`, 303);
  });

  app.post<{ Params: { id: string; deliveryId: string } }>('/webhooks/:id/deliveries/:deliveryId/resend', async (request, reply) => {
    const actor = manager(request);
    const id = pathId(request.params.id, 'webhook endpoint');
    await getWebhookEndpoint(ctx, actor, id);
    const delivery = await resendWebhookDelivery(ctx, actor, pathId(request.params.deliveryId, 'webhook delivery'));
    return reply.redirect(`${BASE}/${delivery.endpointId}?resent`, 303);
  });
};

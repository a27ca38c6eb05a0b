/**
 * @module web/dashboard/routes/password-reset
 * "Forgot password?": a member asks for a reset link by mail. Exists only
 * when mail is configured (SMTP_URL); otherwise the page answers 404 and
 * the sign-in page does not offer it. The answer is the same whether the
 * address belongs to a member or not, and comes before any mail is sent,
 * so neither its words nor its timing tell; requests are limited per
 * client address (domain/member-links.ts).
 */
import { requestPasswordReset } from '../../../domain/member-links.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { dashboardLang } from '../texts.ts';

const PUBLIC = { config: { public: true } };

export const passwordResetRoutes: DashboardRoutes = (app, { ctx }) => {
  app.get('/forgot-password', PUBLIC, async (request, reply) => {
    if (!ctx.mailer) return reply.callNotFound();
    return renderPage(request, reply, 'forgot-password', { values: {}, errors: {} });
  });

  app.post('/forgot-password', PUBLIC, async (request, reply) => {
    if (!ctx.mailer) return reply.callNotFound();
    const form = (request.body ?? {}) as Record<string, string | undefined>;
    const email = (form.email ?? '').trim();
    if (!/^[^\s@]{1,200}@[^\s@]{1,200}$/.test(email)) {
      return renderPage(request, reply, 'forgot-password', { values: { email: form.email ?? '' }, errors: { email: 'forgotEmailInvalid' } }, 400);
    }
    const { throttled, delivery } = await requestPasswordReset(ctx, { email, address: request.ip, lang: dashboardLang(request, reply) });
    if (throttled) return renderPage(request, reply, 'forgot-password', { values: { email }, errors: {}, error: 'forgotThrottled' }, 429);
    // Not awaited: the answer must not wait for the mail server only when the address is known.
    delivery.catch((error: unknown) =>
      request.log.error({ failure: { name: (error as Error)?.name, code: (error as { code?: string })?.code } }, 'a password-reset mail could not be sent'),
    );
    return renderPage(request, reply, 'forgot-password', { values: {}, errors: {}, sent: true });
  });
};

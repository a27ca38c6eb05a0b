/**
 * @module web/dashboard/routes/auth
 * Signing in and out, and setting a password through an invitation or
 * reset link. Answers never say whether an email is known.
 */
import { NotFoundError, ValidationError } from '../../../domain/errors.ts';
import { memberOfLink, setPasswordWithLink } from '../../../domain/member-links.ts';
import { getOrganization } from '../../../domain/organizations.ts';
import { signIn, signOut } from '../../../domain/sign-in.ts';
import { anyOrganizationHasSso } from '../../../domain/sso.ts';
import type { DashboardRoutes } from '../section.ts';
import { renderPage } from '../render.ts';
import { clearSessionCookie, DASHBOARD, safeNext, SESSION_COOKIE, setSessionCookie } from '../session.ts';

type Form = Record<string, string | undefined>;

const NOTICES = { signedOut: 'signedOut', sessionEnded: 'sessionEnded', passwordSet: 'passwordSet' } as const;
/** These pages are for visitors without a session (see section.ts). */
const PUBLIC = { config: { public: true } };

export const authRoutes: DashboardRoutes = (app, { ctx, config }) => {
  /** The other ways in the sign-in page offers: "forgot password?" with mail, single sign-on when an organization has it. */
  const offers = async () => ({
    forgotPassword: Boolean(ctx.mailer),
    sso: Boolean(config.ssoSecretKey) && (await anyOrganizationHasSso(ctx)),
  });

  app.get('/sign-in', PUBLIC, async (request, reply) => {
    const query = request.query as Form;
    if (request.member) return reply.redirect(safeNext(query.next), 303);
    const notice = Object.keys(NOTICES).find((key) => query[key] !== undefined);
    return renderPage(request, reply, 'sign-in', {
      next: safeNext(query.next),
      values: {},
      notice: notice && NOTICES[notice as keyof typeof NOTICES],
      offers: await offers(),
    });
  });

  app.post('/sign-in', PUBLIC, async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    const next = safeNext(form.next);
    const result = await signIn(ctx, {
      email: form.email ?? '',
      password: form.password ?? '',
      address: request.ip,
      organizationId: form.organizationId || undefined,
    });
    if (result.ok) {
      setSessionCookie(reply, result.token, config.publicUrl);
      return reply.redirect(next, 303);
    }
    const values = { email: form.email ?? '' };
    if (result.reason === 'choose_organization') {
      return renderPage(request, reply, 'sign-in', { next, values, organizations: result.organizations, error: 'chooseOrganization', offers: await offers() }, 200);
    }
    if (result.reason === 'throttled') {
      reply.header('retry-after', String(result.retryAfterSeconds));
      return renderPage(request, reply, 'sign-in', { next, values, error: 'signInThrottled', offers: await offers() }, 429);
    }
    return renderPage(request, reply, 'sign-in', { next, values, error: 'signInInvalid', offers: await offers() }, 401);
  });

  app.post('/sign-out', PUBLIC, async (request, reply) => {
    await signOut(ctx, request.cookies[SESSION_COOKIE]);
    clearSessionCookie(reply, config.publicUrl);
    return reply.redirect(`${DASHBOARD}/sign-in?signedOut`, 303);
  });

  app.get<{ Params: { token: string } }>('/password/:token', PUBLIC, async (request, reply) => {
    try {
      const { user } = await memberOfLink(ctx, request.params.token);
      const organization = await getOrganization(ctx, user.organizationId);
      return renderPage(request, reply, 'password', { name: user.fullName, organization: organization.name, errors: {} });
    } catch (error) {
      if (error instanceof NotFoundError) return renderPage(request, reply, 'message', { titleKey: 'linkUnusableTitle', textKey: 'linkUnusable' }, 410);
      throw error;
    }
  });

  app.post<{ Params: { token: string } }>('/password/:token', PUBLIC, async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    const token = request.params.token;
    const again = async (errors: Record<string, string>) => {
      const { user } = await memberOfLink(ctx, token);
      const organization = await getOrganization(ctx, user.organizationId);
      return renderPage(request, reply, 'password', { name: user.fullName, organization: organization.name, errors }, 400);
    };
    try {
      if ((form.password ?? '') !== (form.confirm ?? '')) return await again({ confirm: 'passwordMismatch' });
      await setPasswordWithLink(ctx, token, form.password ?? '');
      return reply.redirect(`${DASHBOARD}/sign-in?passwordSet`, 303);
    } catch (error) {
      if (error instanceof ValidationError) return again({ password: error.fieldErrors[0]?.message ?? error.message });
      if (error instanceof NotFoundError) return renderPage(request, reply, 'message', { titleKey: 'linkUnusableTitle', textKey: 'linkUnusable' }, 410);
      throw error;
    }
  });
};

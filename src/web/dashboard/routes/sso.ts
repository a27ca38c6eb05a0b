/**
 * @module web/dashboard/routes/sso
 * Signing in through the organization's identity provider (OpenID
 * Connect). The member names their organization (its short name, which an
 * administrator can hand out as a link: /dashboard/sso?organization=NAME),
 * is sent to the provider, and comes back to the callback, which signs in
 * the member of that organization whose verified email the provider
 * vouches for (domain/sso.ts); everyone else is sent to a page saying
 * why, and gets no session.
 *
 * What the callback must check (state, nonce, PKCE verifier, organization,
 * where to go next) travels in a cookie sealed under SSO_SECRET_KEY
 * (AES-GCM: neither readable nor forgeable), scoped to /dashboard/sso and
 * living ten minutes; it is cleared at the callback, so it works once.
 * Without SSO_SECRET_KEY single sign-on does not exist: 404.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../domain/errors.ts';
import { seal, unseal } from '../../../domain/sealing.ts';
import { getOrganization } from '../../../domain/organizations.ts';
import { hasSso, signInWithSso, SSO_CALLBACK_PATH, ssoClient } from '../../../domain/sso.ts';
import type { Organization } from '../../../domain/types.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, safeNext, setSessionCookie } from '../session.ts';
import { authorizationRequest, completeSignIn, providerConfig, type Flow } from '../sso/provider.ts';

const PUBLIC = { config: { public: true } };
const FLOW_COOKIE = 'foyer_sso';
const FLOW_PURPOSE = 'sso-flow';
const FLOW_MINUTES = 10;
/** The form leads on to the provider; browsers check that redirect against the page's form-action. */
const TO_PROVIDER = { formAction: ['https:', 'http://localhost:*', 'http://127.0.0.1:*'] };

interface SealedFlow extends Flow {
  organizationId: string;
  next: string;
  expiresAt: number;
}

/** The callback as the provider was told it (PUBLIC_URL may carry a path), with the answer's query. */
function callbackUrl(publicUrl: string, requestUrl: string): URL {
  const query = requestUrl.includes('?') ? requestUrl.slice(requestUrl.indexOf('?')) : '';
  return new URL(`${publicUrl}${SSO_CALLBACK_PATH}${query}`);
}

const REFUSALS = ['ssoExpired', 'ssoFailed', 'ssoUnverified', 'ssoNotAMember', 'ssoUnavailable'] as const;
type Refusal = (typeof REFUSALS)[number];

export const ssoRoutes: DashboardRoutes = (app, { ctx, config }) => {
  const key = config.ssoSecretKey;
  const cookieOptions = { path: `${DASHBOARD}/sso`, httpOnly: true, sameSite: 'lax' as const, secure: config.publicUrl.startsWith('https:') };

  const form = (request: FastifyRequest, reply: FastifyReply, values: Record<string, string>, error?: string, status = 200) =>
    renderPage(request, reply, 'sso', { values, next: safeNext(values.next), errors: error ? { organization: error } : {} }, status, TO_PROVIDER);

  /** The organization of this slug (or id), if any. */
  const organizationAt = async (ref: string): Promise<Organization | undefined> => {
    try {
      return await getOrganization(ctx, ref);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };

  // To a page of its own, so that reloading it or switching its language does not replay the callback.
  const refuse = (reply: FastifyReply, reason: Refusal, organization?: Organization) =>
    reply.redirect(`${DASHBOARD}/sso/refused?reason=${reason}${organization ? `&organization=${encodeURIComponent(organization.slug)}` : ''}`, 303);

  app.get('/sso/refused', PUBLIC, async (request, reply) => {
    if (!key) return reply.callNotFound();
    const query = request.query as Record<string, string | undefined>;
    const reason = REFUSALS.find((r) => r === query.reason) ?? 'ssoFailed';
    const organization = /^[a-z0-9-]{1,100}$/.test(query.organization ?? '') ? query.organization : '';
    return renderPage(request, reply, 'sso-refused', { reason, organization }, reason === 'ssoExpired' || reason === 'ssoFailed' ? 400 : 403);
  });

  app.get('/sso', PUBLIC, async (request, reply) => {
    if (!key) return reply.callNotFound();
    const query = request.query as Record<string, string | undefined>;
    return form(request, reply, { organization: query.organization ?? '', next: query.next ?? '' });
  });

  app.post('/sso', PUBLIC, async (request, reply) => {
    if (!key) return reply.callNotFound();
    const body = (request.body ?? {}) as Record<string, string | undefined>;
    const values = { organization: (body.organization ?? '').trim().toLowerCase(), next: body.next ?? '' };
    const organization = values.organization ? await organizationAt(values.organization) : undefined;
    let client;
    try {
      if (!organization || organization.slug !== values.organization) throw new NotFoundError('sso');
      client = await ssoClient(ctx, organization);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      if (organization && (await hasSso(ctx, organization))) {
        request.log.warn({ organization: organization.slug }, 'single sign-on client secret cannot be unsealed: was SSO_SECRET_KEY changed? Set it again with foyer org sso');
      }
      return form(request, reply, values, values.organization ? 'ssoUnknownOrganization' : 'ssoOrganizationMissing', 400);
    }
    let started;
    try {
      started = await authorizationRequest(await providerConfig(client), `${config.publicUrl}${SSO_CALLBACK_PATH}`);
    } catch (error) {
      request.log.warn({ failure: { name: (error as Error).name, code: (error as { code?: string }).code } }, 'single sign-on provider unreachable');
      return form(request, reply, values, 'ssoProviderUnreachable', 502);
    }
    const flow: SealedFlow = { ...started.flow, organizationId: organization.id, next: safeNext(values.next), expiresAt: ctx.now().getTime() + FLOW_MINUTES * 60_000 };
    reply.setCookie(FLOW_COOKIE, seal(key, FLOW_PURPOSE, FLOW_COOKIE, JSON.stringify(flow)), { ...cookieOptions, maxAge: FLOW_MINUTES * 60 });
    return reply.redirect(started.url.href, 303);
  });

  app.get('/sso/callback', PUBLIC, async (request, reply) => {
    if (!key) return reply.callNotFound();
    const sealed = request.cookies[FLOW_COOKIE];
    reply.clearCookie(FLOW_COOKIE, cookieOptions);
    const opened = sealed ? unseal(key, FLOW_PURPOSE, FLOW_COOKIE, sealed) : undefined;
    const flow = opened ? (JSON.parse(opened) as SealedFlow) : undefined;
    if (!flow || flow.expiresAt <= ctx.now().getTime()) return refuse(reply, 'ssoExpired');
    const organization = await organizationAt(flow.organizationId);
    if (!organization) return refuse(reply, 'ssoUnavailable');
    let identity;
    try {
      const client = await ssoClient(ctx, organization);
      identity = await completeSignIn(await providerConfig(client), callbackUrl(config.publicUrl, request.url), flow);
    } catch (error) {
      if (error instanceof NotFoundError) return refuse(reply, 'ssoUnavailable', organization);
      // Names only: the provider's messages can echo codes or tokens.
      request.log.warn({ failure: { name: (error as Error).name, code: (error as { code?: string }).code } }, 'single sign-on refused');
      return refuse(reply, 'ssoFailed', organization);
    }
    const result = await signInWithSso(ctx, organization, identity);
    if (!result.ok) return refuse(reply, result.reason === 'email_unverified' ? 'ssoUnverified' : 'ssoNotAMember', organization);
    setSessionCookie(reply, result.token, config.publicUrl);
    return reply.redirect(flow.next, 303);
  });
};

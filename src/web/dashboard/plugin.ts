/**
 * @module web/dashboard/plugin
 * The dashboard at `/dashboard`, where an organization's members sign in
 * and manage what the API manages. Server-rendered pages (Eta templates in
 * views/dashboard/), forms posted as `application/x-www-form-urlencoded`,
 * every state-changing form protected against CSRF (@fastify/csrf-protection,
 * its token bound to the session), a session read once per request, and
 * one route module per section in routes/ (registered under the
 * `/dashboard` prefix, so their paths are relative). The composition root
 * mounts it as an encapsulated plugin beside the API, the pages and
 * signalling; its hooks (session, CSRF, NUL check) and errors stay inside. Every route checks
 * the member on the server: the domain's policies decide each action.
 */
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { createHmac } from 'node:crypto';
import { registerViews } from '../views.ts';
import { installDashboardErrors } from './errors.ts';
import { authRoutes } from './routes/auth.ts';
import { consoleRoutes } from './routes/consoles.ts';
import { keyRoutes } from './routes/keys.ts';
import { embeddingRoutes } from './routes/embedding.ts';
import { meetingRoutes } from './routes/meetings.ts';
import { memberRoutes } from './routes/members.ts';
import { overviewRoutes } from './routes/overview.ts';
import { passwordResetRoutes } from './routes/password-reset.ts';
import { roomRoutes } from './routes/rooms.ts';
import { spaceRoutes } from './routes/spaces.ts';
import { ssoRoutes } from './routes/sso.ts';
import { usageRoutes } from './routes/usage.ts';
import { waitingHistoryRoutes } from './routes/waiting-history.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import type { DashboardOptions, DashboardRoutes } from './section.ts';
import { csrfUserInfo, DASHBOARD, installSession } from './session.ts';

/** Sections of the dashboard, in the order of the navigation. */
const SECTIONS: DashboardRoutes[] = [
  authRoutes,
  passwordResetRoutes,
  ssoRoutes,
  overviewRoutes,
  meetingRoutes,
  roomRoutes,
  spaceRoutes,
  consoleRoutes,
  waitingHistoryRoutes,
  keyRoutes,
  webhookRoutes,
  usageRoutes,
  memberRoutes,
  embeddingRoutes,
];

export async function dashboardPlugin(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const { ctx, config } = options;
  // Mounted beside the other surfaces: its cookies (session, CSRF, language) and templates are its own.
  await app.register(fastifyCookie);
  await registerViews(app);
  // Forms are small; a larger body is not one of ours.
  await app.register(formbody, { bodyLimit: 32 * 1024 });
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'foyer_csrf',
    cookieOpts: { path: DASHBOARD, httpOnly: true, sameSite: 'strict', secure: config.publicUrl.startsWith('https:') },
    getUserInfo: csrfUserInfo,
    // Binds tokens to the session; derived from the server's secret so every instance agrees.
    csrfOpts: { userInfo: true, hmacKey: createHmac('sha256', config.secretPepper).update('foyer/csrf').digest('base64url') },
  });
  installSession(app, ctx);
  // Every state-changing request, whichever route: none can forget the check.
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done();
    app.csrfProtection(request, reply, done);
  });
  // No form field may carry U+0000: PostgreSQL text cannot hold it, and no browser sends one typed.
  app.addHook('preValidation', async (request) => {
    const body = request.body;
    if (!body || typeof body !== 'object') return;
    const values = Object.values(body as Record<string, unknown>).flat();
    if (values.some((v) => typeof v === 'string' && v.includes('\u0000'))) {
      throw Object.assign(new Error('A form field contains a NUL character.'), { statusCode: 400 });
    }
  });
  installDashboardErrors(app);
  for (const section of SECTIONS) await section(app, options);
}

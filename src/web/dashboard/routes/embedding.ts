/**
 * @module web/dashboard/routes/embedding
 * Embedding, for administrators: the origins allowed to put the
 * organization's meeting, waiting and console pages in an iframe (one per
 * line, saved as a whole through the same domain command as
 * `/v3/allowed-origins`, each bad line named beside the field), and how
 * to embed a meeting with the SDK Foyer serves.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../domain/actors.ts';
import { getAllowedOrigins, setAllowedOrigins } from '../../../domain/allowed-origins.ts';
import { ValidationError } from '../../../domain/errors.ts';
import { authorize } from '../../../domain/policies.ts';
import { formOf, text } from '../forms.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, requireMember } from '../session.ts';
import { dashboardLang, translator } from '../texts.ts';

const BASE = `${DASHBOARD}/embedding`;

export const embeddingRoutes: DashboardRoutes = (app, { ctx }) => {
  const admin = (request: FastifyRequest): Actor => {
    const actor = requireMember(request);
    authorize(actor, 'origins.manage');
    return actor;
  };

  const show = (request: FastifyRequest, reply: FastifyReply, origins: string, errors: string[], status = 200) =>
    renderPage(
      request,
      reply,
      'embedding',
      { origins, errors, saved: (request.query as Record<string, unknown>).saved !== undefined, sdkUrl: `${ctx.publicUrl}/sdk/foyer.js` },
      status,
    );

  app.get('/embedding', async (request, reply) => {
    const actor = admin(request);
    return show(request, reply, (await getAllowedOrigins(ctx, actor)).join('\n'), []);
  });

  app.post('/embedding', async (request, reply) => {
    const actor = admin(request);
    const typed = text(formOf(request), 'origins');
    const lines = typed.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
    try {
      await setAllowedOrigins(ctx, actor, lines);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const t = translator(dashboardLang(request, reply));
      const errors = error.fieldErrors.map((e) => {
        const line = /^origins\.(\d+)$/.exec(e.field);
        return line ? t('embedding.lineError', { line: lines[Number(line[1])] ?? '' }) : t('embedding.tooMany');
      });
      return show(request, reply, typed, errors, 400);
    }
    return reply.redirect(`${BASE}?saved`, 303);
  });
};

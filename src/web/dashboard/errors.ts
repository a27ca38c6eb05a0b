/**
 * @module web/dashboard/errors
 * What the dashboard shows when something fails: a visitor without a
 * session is sent to sign in (and brought back afterwards); another
 * organization's object, or no object, is a 404 page; an action the role
 * does not allow is a 403 page; a form whose CSRF token is missing or wrong
 * is refused with a page saying so, having changed nothing; anything else
 * is a 500 page, logged without its details.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { failureOf, isClientGone } from '../../logger.ts';
import { renderPage } from './render.ts';
import { DASHBOARD, SignInRequired } from './session.ts';

async function messagePage(request: FastifyRequest, reply: FastifyReply, status: number, title: string, text: string) {
  return renderPage(request, reply, 'message', { titleKey: title, textKey: text }, status);
}

export function installDashboardErrors(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof SignInRequired) {
      const next = request.method === 'GET' ? `?next=${encodeURIComponent(request.url)}` : '';
      return reply.redirect(`${DASHBOARD}/sign-in${next}`, 303);
    }
    if (error instanceof DomainError && error.code === 'not_found') return messagePage(request, reply, 404, 'notFoundTitle', 'notFoundText');
    if (error instanceof DomainError && error.code === 'forbidden') return messagePage(request, reply, 403, 'forbiddenTitle', 'forbiddenText');
    if (error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET') {
      return messagePage(request, reply, 403, 'csrfTitle', 'csrfText');
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return messagePage(request, reply, error.statusCode, 'errorTitle', 'notFoundText');
    }
    if (isClientGone(error)) {
      request.log.info({ failure: failureOf(error) }, 'client went away during the request');
      return messagePage(request, reply, 400, 'errorTitle', 'errorTitle');
    }
    request.log.error({ failure: failureOf(error) }, 'dashboard request failed');
    return messagePage(request, reply, 500, 'errorTitle', 'errorTitle');
  });
  app.setNotFoundHandler(async (request, reply) => messagePage(request, reply, 404, 'notFoundTitle', 'notFoundText'));
}

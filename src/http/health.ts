/**
 * @module http/health
 * `/health` (liveness: the process answers) and `/ready` (readiness: the
 * database answers), outside the API prefix and without keys, for process
 * supervisors and load balancers. Not part of the documented API.
 */
import type { Store } from '../store/store.ts';
import { sendProblem } from './plugins/errors.ts';
import type { AnyFastify } from './wire.ts';

export function installHealthRoutes(app: AnyFastify, store: Store): void {
  app.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/ready', { schema: { hide: true } }, async (request, reply) => {
    try {
      await store.ping();
    } catch {
      request.log.warn('readiness check: the database does not answer');
      return sendProblem(reply, {
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: 'The database does not answer.',
      });
    }
    return { status: 'ready' };
  });
}

/**
 * @module http/plugins/metrics
 * Counts every answered request into the metrics (by route pattern, so
 * ids and tokens in paths never become labels) and serves them to the
 * operator's Prometheus at `/metrics`, outside the API prefix and only
 * with `Authorization: Bearer <METRICS_TOKEN>`. Without a token nothing
 * is counted and the route does not exist: metrics name routes and
 * volumes an outsider should not see.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics.ts';

/** A 429 no request limit claimed, by the last part of its problem type (urn:foyer:problem:rate-limited → rate-limited). */
function refusalKind(payload: unknown): string {
  if (typeof payload !== 'string') return 'unknown';
  try {
    const type = (JSON.parse(payload) as { type?: unknown }).type;
    return typeof type === 'string' ? (type.split(/[:/]/).pop() ?? 'unknown') : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Constant-time comparison of the presented token with the configured one (hashed: equal lengths). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

export function installMetrics(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 429) metrics.refused(request.refusedBy ?? refusalKind(payload));
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    // Unmatched requests share one label: raw URLs would let anyone grow the label set without bound.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!tokenMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply.code(401).type('text/plain; charset=utf-8').send('A valid METRICS_TOKEN is required as a Bearer token.\n');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

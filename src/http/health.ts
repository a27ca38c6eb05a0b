/**
 * @module http/health
 * `/health` (liveness: the process answers) and `/ready` (readiness: the
 * database answers), outside the API prefix and without keys, for process
 * supervisors and load balancers. Not part of the documented API.
 *
 * Liveness checks nothing else, so a database outage does not get every
 * instance restarted. Readiness pings the database and, when configured,
 * Redis, each with a short timeout. Only the database decides readiness:
 * Foyer fails open when Redis is away (src/limits/redis-limiter.ts), so
 * Redis is reported, not required. The SFU pool, when there is one, is
 * reported too: `degraded` (still 200) while some Janus server does not
 * answer, and while none does: meetings then stay peer-to-peer, which still
 * serves them, and every instance shares the pool, so taking instances out
 * of a load balancer would help nobody. While shutting down, readiness
 * answers 503 so load balancers drain the instance first (docs/deployment.md).
 */
import type { Limits } from '../limits/limits.ts';
import type { StoreConnection } from '../domain/ports/store.ts';
import { sendProblem } from './plugins/errors.ts';
import type { Problem } from './problems.ts';
import type { AnyFastify } from './wire.ts';

const CHECK_TIMEOUT_MS = 1000;

export interface HealthOptions {
  /** Request limits, whose Redis (if any) is checked and reported. */
  limits?: Limits;
  /** True once shutdown has begun. */
  isShuttingDown?: () => boolean;
  /** The SFU pool's state, when one is configured. */
  sfu?: () => SfuReadiness;
}

export interface SfuReadiness {
  status: 'ok' | 'degraded' | 'down';
  /** Janus servers answering, of `total`. */
  up: number;
  total: number;
}

type Check = 'ok' | 'unavailable';

function check(probe: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), CHECK_TIMEOUT_MS);
  });
  const answer = probe().then(
    () => 'ok' as const,
    () => 'unavailable' as const,
  );
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}

export function installHealthRoutes(app: AnyFastify, connection: Pick<StoreConnection, 'ping'>, options: HealthOptions = {}): void {
  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/ready', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const limiter = options.limits?.limiter;
    const [database, redis] = await Promise.all([
      check(() => connection.ping()),
      limiter?.kind === 'redis' ? check(() => limiter.ping()) : Promise.resolve('not configured' as const),
    ]);
    const sfu = options.sfu?.();
    const checks = { database, redis, redisFailures: options.limits?.redisFailures() ?? 0, ...(sfu ? { sfu } : {}) };
    const unavailable = (detail: string) =>
      // RFC 9457 allows extension members: the checks say what is missing.
      sendProblem(reply, { type: 'about:blank', title: 'Service Unavailable', status: 503, detail, ...checks } as Problem);
    if (options.isShuttingDown?.()) return unavailable('This instance is shutting down.');
    if (database !== 'ok') {
      request.log.warn('readiness check: the database does not answer');
      return unavailable('The database does not answer.');
    }
    if (redis === 'unavailable') request.log.warn('readiness check: Redis does not answer; limits are per instance (fail open)');
    if (sfu && sfu.status !== 'ok') {
      request.log.warn(`readiness check: ${sfu.up} of ${sfu.total} Janus servers answer`);
      return { status: 'degraded', ...checks };
    }
    return { status: 'ready', ...checks };
  });
}

/**
 * @module limits/limits
 * Assembles the request limits of one Foyer process from its configuration:
 * the limiter (Redis-backed when REDIS_URL is set, else in memory), the
 * usage recorder that batches request totals into the database, and their
 * start and orderly stop. The HTTP plugin (src/http/plugins/limits.ts) only
 * talks to what this returns.
 */
import type { Config } from '../config.ts';
import { DAY_MS } from '../domain/usage.ts';
import type { Store } from '../domain/ports/store.ts';
import type { Limiter } from './limiter.ts';
import { MemoryLimiter, type TotalsLoader } from './memory-limiter.ts';
import { RedisLimiter } from './redis-limiter.ts';
import { UsageRecorder } from './usage-recorder.ts';

export type LimitsConfig = Pick<
  Config,
  'redisUrl' | 'redisKeyPrefix' | 'rateLimitPerMinute' | 'authFailuresPerMinute' | 'usageFlushSeconds'
>;

export interface Limits {
  limiter: Limiter;
  usage: UsageRecorder;
  /** Redis calls answered by the fallback so far (0 without Redis). */
  redisFailures(): number;
  /** Flushes usage totals and closes the Redis connection. Does not close the store. */
  close(): Promise<void>;
}

export interface LimitsOptions {
  config: LimitsConfig;
  store: Store;
  warn: (message: string) => void;
  now?: () => number;
}

export async function createLimits({ config, store, warn, now }: LimitsOptions): Promise<Limits> {
  const usage = new UsageRecorder(store, {
    flushMs: config.usageFlushSeconds * 1000,
    now,
    onError: (error) =>
      warn(`Writing request totals failed; kept for the next flush (${error instanceof Error ? error.message : String(error)}).`),
  });

  // Database totals plus what this process has not written yet: exact for a single instance.
  const loadTotals: TotalsLoader = async (organizationId, hour, day) => {
    const rows = await store.listHourlyUsage(organizationId, new Date(day), new Date(day + DAY_MS));
    const local = usage.unflushed(organizationId, hour, day);
    let hourTotal = local.hour;
    let dayTotal = local.day;
    for (const row of rows) {
      dayTotal += row.requests;
      if (row.hourStart === hour) hourTotal += row.requests;
    }
    return { hour: hourTotal, day: dayTotal };
  };

  const memory = new MemoryLimiter({
    ratePerMinute: config.rateLimitPerMinute,
    authFailuresPerMinute: config.authFailuresPerMinute,
    loadTotals,
    now,
  });

  let limiter: Limiter = memory;
  let redis: RedisLimiter | undefined;
  if (config.redisUrl) {
    redis = new RedisLimiter({
      url: config.redisUrl,
      keyPrefix: config.redisKeyPrefix,
      ratePerMinute: config.rateLimitPerMinute,
      authFailuresPerMinute: config.authFailuresPerMinute,
      fallback: memory,
      warn,
    });
    if (!(await redis.connected())) warn('Redis is not reachable at start; serving with per-instance limits until it is.');
    limiter = redis;
  }
  usage.start();

  return {
    limiter,
    usage,
    redisFailures: () => redis?.failures ?? 0,
    async close() {
      try {
        await usage.stop();
      } finally {
        await limiter.close();
      }
    },
  };
}

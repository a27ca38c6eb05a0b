/**
 * @module realtime/realtime
 * Assembles the realtime side of one instance from the configuration: the
 * bus (Redis with REDIS_URL, else in process) and the hub over a live
 * domain context. The composition root calls this; the web plugin only
 * mounts the hub's WebSocket route.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.ts';
import type { DomainContext } from '../domain/context.ts';
import { liveContext } from '../domain/lifecycle.ts';
import { LocalBus, type Bus } from './bus.ts';
import { Hub, type HubLogger, type HubOptions } from './hub.ts';
import { RedisBus } from './redis-bus.ts';

export interface RealtimeTuning extends HubOptions {
  /** Interval of server WebSocket pings. */
  pingIntervalMs?: number;
  /** An instance not heard from for this long is taken for dead. */
  instanceTtlMs?: number;
  instanceId?: string;
}

export interface Realtime {
  hub: Hub;
  pingIntervalMs: number;
}

/** Warnings about an unreachable Redis at most this often: ioredis reports every reconnect attempt. */
const REDIS_WARNING_INTERVAL_MS = 60_000;

export function createRealtime(
  ctx: DomainContext,
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>,
  log: HubLogger,
  tuning: RealtimeTuning = {},
): Realtime {
  const live = liveContext(ctx, {
    instanceId: tuning.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`,
    instanceTtlMs: tuning.instanceTtlMs ?? 15_000,
  });
  let lastRedisWarning = 0;
  const bus: Bus = config.redisUrl
    ? new RedisBus(config.redisUrl, config.redisKeyPrefix, (error) => {
        if (Date.now() - lastRedisWarning < REDIS_WARNING_INTERVAL_MS) return;
        lastRedisWarning = Date.now();
        log.warn({ err: error.message }, 'realtime: Redis unavailable; meetings across instances cannot connect until it is back');
      })
    : new LocalBus();
  return { hub: new Hub(live, bus, log, tuning), pingIntervalMs: tuning.pingIntervalMs ?? 5000 };
}

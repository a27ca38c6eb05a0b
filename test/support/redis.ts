/**
 * @module test/support/redis
 * The local Redis for tests (TEST_REDIS_URL, default redis://127.0.0.1:6379)
 * and a unique key prefix per test, so parallel test files never share
 * counters. When Redis is unreachable the suites skip with a printed
 * reason, except under CI=true, where that is an error.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let probe: Promise<string | undefined> | undefined;

export function redisSkipReason(): Promise<string | undefined> {
  probe ??= (async () => {
    const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => {});
    try {
      await redis.connect();
      await redis.ping();
      return undefined;
    } catch (error) {
      const reason = `Redis not reachable at ${TEST_REDIS_URL}: ${(error as Error).message}`;
      if (process.env.CI === 'true') throw new Error(`${reason} (CI=true requires the Redis suites)`);
      console.log(`# skipping Redis tests: ${reason}`);
      return reason;
    } finally {
      redis.disconnect();
    }
  })();
  return probe;
}

/** A key prefix no other test uses. */
export function uniquePrefix(): string {
  return `foyer-test:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix`. */
export async function deletePrefix(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

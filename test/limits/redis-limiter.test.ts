/**
 * The Redis limiter against the real local Redis: the same contract as the
 * in-memory one (clock injected into the Lua scripts), atomicity across
 * two limiter instances, and failing open when Redis is unreachable.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { MemoryLimiter } from '../../src/limits/memory-limiter.ts';
import { RedisLimiter } from '../../src/limits/redis-limiter.ts';
import { closedPort, deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { limiterContract } from './limiter.contract.ts';

const skip = await redisSkipReason();

function memory(ratePerMinute: number, authFailuresPerMinute: number, now?: () => number) {
  return new MemoryLimiter({ ratePerMinute, authFailuresPerMinute, loadTotals: async () => ({ hour: 0, day: 0 }), now });
}

describe('Redis limiter', { skip }, () => {
  limiterContract(async ({ ratePerMinute, authFailuresPerMinute = 30, start }) => {
    const clock = { t: start };
    const keyPrefix = uniquePrefix();
    const limiter = new RedisLimiter({
      url: TEST_REDIS_URL,
      keyPrefix,
      ratePerMinute,
      authFailuresPerMinute,
      fallback: memory(ratePerMinute, authFailuresPerMinute),
      warn: (m) => assert.fail(`unexpected warning: ${m}`),
      now: () => clock.t,
    });
    assert.equal(await limiter.connected(), true);
    return {
      limiter,
      clock,
      async dispose() {
        assert.equal(limiter.failures, 0, 'every call was answered by Redis');
        await limiter.close();
        await deletePrefix(keyPrefix);
      },
    };
  });

  it('shares one exact window between instances racing on the same key', async () => {
    const keyPrefix = uniquePrefix();
    const make = () =>
      new RedisLimiter({
        url: TEST_REDIS_URL,
        keyPrefix,
        ratePerMinute: 50,
        authFailuresPerMinute: 10,
        fallback: memory(50, 10),
        warn: () => {},
      });
    const a = make();
    const b = make();
    try {
      await Promise.all([a.connected(), b.connected()]);
      const request = { apiKeyId: 'shared', organizationId: 'o', quota: { hourly: null, daily: null } };
      const results = await Promise.all(
        Array.from({ length: 120 }, (_, i) => (i % 2 ? a : b).admit(request)),
      );
      assert.equal(results.filter((r) => r.outcome === 'accepted').length, 50);
      assert.equal(results.filter((r) => r.outcome === 'rate_limited').length, 70);
      assert.equal(a.failures + b.failures, 0);
    } finally {
      await a.close();
      await b.close();
      await deletePrefix(keyPrefix);
    }
  });
});

describe('Redis limiter memory bound', { skip }, () => {
  it('leaves only keys that expire within their period and windows no longer than their limit', async () => {
    const keyPrefix = uniquePrefix();
    const limiter = new RedisLimiter({
      url: TEST_REDIS_URL,
      keyPrefix,
      ratePerMinute: 5,
      authFailuresPerMinute: 3,
      fallback: memory(5, 3),
      warn: (m) => assert.fail(`unexpected warning: ${m}`),
    });
    const redis = new Redis(TEST_REDIS_URL);
    try {
      assert.equal(await limiter.connected(), true);
      const request = { apiKeyId: 'burst', organizationId: 'o', quota: { hourly: 1000, daily: 10_000 } };
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => limiter.admit(request)));
      assert.equal(outcomes.filter((o) => o.outcome === 'accepted').length, 5);

      const window = `${keyPrefix}rl:burst`;
      const ttl = await redis.pttl(window);
      assert.ok(ttl > 0 && ttl <= 60_000, `window PTTL ${ttl}`);
      assert.ok((await redis.llen(window)) <= 5, 'refused requests add nothing to the window');
      for (const [pattern, max] of [['h', 2 * 3_600_000], ['d', 25 * 3_600_000]] as const) {
        const [counter] = await redis.keys(`${keyPrefix}q:o:${pattern}:*`);
        assert.ok(counter, `${pattern} counter exists`);
        const counterTtl = await redis.pttl(counter);
        assert.ok(counterTtl > 0 && counterTtl <= max, `${pattern} counter PTTL ${counterTtl}`);
      }

      const attempts = await Promise.all(Array.from({ length: 30 }, () => limiter.reserveAuth('192.0.2.1')));
      assert.equal(attempts.filter((a) => a.reservation).length, 3);
      const failures = `${keyPrefix}af:192.0.2.1`;
      const failuresTtl = await redis.pttl(failures);
      assert.ok(failuresTtl > 0 && failuresTtl <= 60_000, `failed-auth PTTL ${failuresTtl}`);
      assert.equal(await redis.llen(failures), 3);

      // A client with valid credentials leaves no failed-auth key behind.
      const ok = await limiter.reserveAuth('192.0.2.2');
      await limiter.admit({ apiKeyId: 'other', organizationId: 'o', quota: { hourly: null, daily: null }, release: ok.reservation });
      assert.equal(await redis.exists(`${keyPrefix}af:192.0.2.2`), 0);
      assert.equal(limiter.failures, 0);
    } finally {
      redis.disconnect();
      await limiter.close();
      await deletePrefix(keyPrefix);
    }
  });
});

describe('Redis limiter with Redis unreachable', () => {
  it('fails open: serves from the instance limiter, counts the failures and warns', async () => {
    const port = await closedPort();
    const warnings: string[] = [];
    const limiter = new RedisLimiter({
      url: `redis://127.0.0.1:${port}`,
      keyPrefix: uniquePrefix(),
      ratePerMinute: 3,
      authFailuresPerMinute: 2,
      fallback: memory(3, 2),
      warn: (m) => warnings.push(m),
      commandTimeoutMs: 200,
    });
    try {
      assert.equal(await limiter.connected(300), false);
      const request = { apiKeyId: 'k', organizationId: 'o', quota: { hourly: null, daily: null } };
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push((await limiter.admit(request)).outcome);
      // Still limited, by this instance alone.
      assert.deepEqual(outcomes, ['accepted', 'accepted', 'accepted', 'rate_limited']);
      const first = await limiter.reserveAuth('10.1.1.1');
      assert.equal(first.reservation?.local, true, 'taken from the instance limiter');
      assert.ok((await limiter.reserveAuth('10.1.1.1')).reservation);
      assert.equal((await limiter.reserveAuth('10.1.1.1')).state.allowed, false);
      assert.equal(limiter.failures, 7);
      // Given back to the instance limiter, without asking Redis.
      await limiter.releaseAuth(first.reservation!);
      assert.equal(limiter.failures, 7);
      assert.equal((await limiter.reserveAuth('10.1.1.1')).state.allowed, true);
      assert.ok(warnings.length >= 1, 'a warning was logged');
      assert.ok(warnings.length <= 2, 'warnings are throttled, not one per request');
      await assert.rejects(limiter.ping());
    } finally {
      await limiter.close();
    }
  });
});

/**
 * The Redis limiter against the real local Redis: the same contract as the
 * in-memory one (clock injected into the Lua scripts), atomicity across
 * two limiter instances, and failing open when Redis is unreachable.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
      await limiter.authFailed('10.1.1.1');
      await limiter.authFailed('10.1.1.1');
      assert.equal((await limiter.authAllowed('10.1.1.1')).allowed, false);
      assert.equal(limiter.failures, 7);
      assert.ok(warnings.length >= 1, 'a warning was logged');
      assert.ok(warnings.length <= 2, 'warnings are throttled, not one per request');
      await assert.rejects(limiter.ping());
    } finally {
      await limiter.close();
    }
  });
});

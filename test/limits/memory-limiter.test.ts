/**
 * The in-process limiter (one instance, no Redis): the shared limiter
 * contract plus what only it does (seeding quota counters from totals).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryLimiter } from '../../src/limits/memory-limiter.ts';
import { SlidingWindow } from '../../src/limits/sliding-window.ts';
import { limiterContract } from './limiter.contract.ts';

describe('in-memory limiter', () => {
  limiterContract(async ({ ratePerMinute, authFailuresPerMinute = 30, start, totals }) => {
    const clock = { t: start };
    const limiter = new MemoryLimiter({
      ratePerMinute,
      authFailuresPerMinute,
      loadTotals: async () => totals ?? { hour: 0, day: 0 },
      now: () => clock.t,
    });
    return { limiter, clock, dispose: async () => {} };
  });

  it('starts quota counting from the totals already recorded for the hour and day', async () => {
    const T = Date.UTC(2024, 4, 6, 10, 30);
    const loads: string[] = [];
    const limiter = new MemoryLimiter({
      ratePerMinute: 100,
      authFailuresPerMinute: 10,
      loadTotals: async (org, hour, day) => {
        loads.push(`${org}@${new Date(hour).toISOString()}/${new Date(day).toISOString()}`);
        return { hour: 8, day: 18 };
      },
      now: () => T,
    });
    const quota = { hourly: 10, daily: 20 };
    const request = { apiKeyId: 'k', organizationId: 'o', quota };
    const outcomes = await Promise.all([1, 2, 3].map(() => limiter.admit(request)));
    assert.deepEqual(outcomes.map((o) => o.outcome), ['accepted', 'accepted', 'quota_exceeded']);
    assert.deepEqual(loads, ['o@2024-05-06T10:00:00.000Z/2024-05-06T00:00:00.000Z'], 'loaded once, for the current periods');
  });

  it('does not load totals for organizations without a quota', async () => {
    let loads = 0;
    const limiter = new MemoryLimiter({
      ratePerMinute: 100,
      authFailuresPerMinute: 10,
      loadTotals: async () => {
        loads++;
        return { hour: 0, day: 0 };
      },
    });
    await limiter.admit({ apiKeyId: 'k', organizationId: 'o', quota: { hourly: null, daily: null } });
    assert.equal(loads, 0);
  });
});

describe('sliding window', () => {
  it('forgets keys that have been idle for a whole window', () => {
    const clock = { t: 0 };
    const window = new SlidingWindow(3, 60_000, () => clock.t);
    window.hit('a');
    window.hit('b');
    assert.equal(window.size, 2);
    clock.t = 30_000;
    window.hit('b');
    clock.t = 61_000;
    window.hit('c');
    assert.equal(window.size, 2, 'a is gone, b (hit at 30 s) and c stay');
  });

  it('releases exactly the entry taken, also when the ring has wrapped around', () => {
    const clock = { t: 0 };
    const window = new SlidingWindow(4, 60_000, () => clock.t);
    for (const t of [0, 10, 20, 30]) window.hit('k', t);
    clock.t = 60_015; // 0 and 10 have left: the ring's head is now in its middle
    window.hit('k', 60_015);
    window.hit('k', 60_016);
    window.release('k', 30);
    assert.equal(window.peek('k').remaining, 1);
    assert.equal(window.peek('k').resetMs, 5, 'the oldest left is the one at 20');
    window.release('k', 60_016);
    window.release('k', 12_345); // not there: nothing changes
    assert.equal(window.peek('k').remaining, 2);
    clock.t = 60_020;
    assert.equal(window.peek('k').resetMs, 60_015 + 60_000 - 60_020, 'then the one at 60 015');
  });

  it('grows its ring up to the limit and stays exact for large limits', () => {
    const clock = { t: 0 };
    const window = new SlidingWindow(1000, 60_000, () => clock.t);
    for (let i = 0; i < 1000; i++) {
      assert.equal(window.hit('k').allowed, true);
      clock.t += 10;
    }
    assert.equal(window.hit('k').allowed, false);
    // First hit at 0 s leaves at 60 s; at 60 s exactly one slot is free again.
    clock.t = 60_000;
    assert.equal(window.hit('k').allowed, true);
    assert.equal(window.hit('k').allowed, false);
    assert.equal(window.peek('k').resetMs, 10, 'the next oldest (at 10 ms) leaves 10 ms later');
  });
});

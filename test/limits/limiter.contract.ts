/**
 * @module test/limits/limiter.contract
 * Behaviour both limiters (memory, Redis) must have, driven with an
 * injected clock so window edges are tested exactly, without waiting.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Limiter } from '../../src/limits/limiter.ts';
import type { OrganizationQuota } from '../../src/domain/types.ts';
import { NO_QUOTA } from '../../src/domain/usage.ts';

export interface LimiterFixture {
  limiter: Limiter;
  clock: { t: number };
  dispose(): Promise<void>;
}

export type LimiterFactory = (options: {
  ratePerMinute: number;
  authFailuresPerMinute?: number;
  start: number;
  totals?: { hour: number; day: number };
}) => Promise<LimiterFixture>;

const req = (apiKeyId: string, quota: OrganizationQuota = NO_QUOTA, organizationId = 'org-1') => ({
  apiKeyId,
  organizationId,
  quota,
});

// 2024-05-06T10:00:00Z: an hour boundary, handy for quota tests.
const T0 = Date.UTC(2024, 4, 6, 10, 0, 0);

export function limiterContract(open: LimiterFactory): void {
  async function withLimiter(
    options: Parameters<LimiterFactory>[0],
    fn: (f: LimiterFixture) => Promise<void>,
  ): Promise<void> {
    const fixture = await open(options);
    try {
      await fn(fixture);
    } finally {
      await fixture.dispose();
    }
  }

  it('accepts exactly the limit within a minute and refuses the next with a retry time', async () => {
    await withLimiter({ ratePerMinute: 5, start: T0 }, async ({ limiter, clock }) => {
      const remaining: number[] = [];
      for (let i = 0; i < 5; i++) {
        const a = await limiter.admit(req('k1'));
        assert.equal(a.outcome, 'accepted');
        remaining.push(a.rate.remaining);
        clock.t += 1000;
      }
      assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
      const refused = await limiter.admit(req('k1'));
      assert.equal(refused.outcome, 'rate_limited');
      assert.equal(refused.rate.remaining, 0);
      // The first hit was at T0; it leaves the window at T0 + 60 s, 55 s from now.
      assert.equal(refused.rate.resetMs, 55_000);
    });
  });

  it('does not let twice the limit through around a calendar-minute boundary', async () => {
    // Fixed windows would accept 10 at 00:59.5 and 10 more at 01:00.5.
    await withLimiter({ ratePerMinute: 10, start: T0 + 59_500 }, async ({ limiter, clock }) => {
      for (let i = 0; i < 10; i++) assert.equal((await limiter.admit(req('k1'))).outcome, 'accepted');
      clock.t = T0 + 60_500;
      for (let i = 0; i < 10; i++) assert.equal((await limiter.admit(req('k1'))).outcome, 'rate_limited');
      clock.t = T0 + 119_499;
      assert.equal((await limiter.admit(req('k1'))).outcome, 'rate_limited');
      // Exactly 60 s after the first burst the window (59.5 s, 119.5 s] is empty again.
      clock.t = T0 + 119_500;
      for (let i = 0; i < 10; i++) assert.equal((await limiter.admit(req('k1'))).outcome, 'accepted');
      assert.equal((await limiter.admit(req('k1'))).outcome, 'rate_limited');
    });
  });

  it('never accepts more than the limit in any rolling minute, and refuses only when the window is full', async () => {
    const limit = 7;
    await withLimiter({ ratePerMinute: limit, start: T0 }, async ({ limiter, clock }) => {
      // Deterministic pseudo-random arrivals over ~5 minutes, in bursts and gaps.
      let seed = 42;
      const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      const accepted: number[] = [];
      for (let i = 0; i < 300; i++) {
        clock.t += Math.floor(rand() < 0.7 ? rand() * 500 : rand() * 20_000);
        const a = await limiter.admit(req('k1'));
        const inWindow = accepted.filter((x) => x > clock.t - 60_000).length;
        if (a.outcome === 'accepted') {
          assert.ok(inWindow < limit, `accepted with ${inWindow} already in the window at ${clock.t}`);
          accepted.push(clock.t);
        } else {
          assert.equal(inWindow, limit, `refused with only ${inWindow} in the window at ${clock.t}`);
        }
      }
      assert.ok(accepted.length > limit * 3, 'the run crossed several windows');
    });
  });

  it('keeps separate windows per API key', async () => {
    await withLimiter({ ratePerMinute: 2, start: T0 }, async ({ limiter }) => {
      assert.equal((await limiter.admit(req('a'))).outcome, 'accepted');
      assert.equal((await limiter.admit(req('a'))).outcome, 'accepted');
      assert.equal((await limiter.admit(req('a'))).outcome, 'rate_limited');
      assert.equal((await limiter.admit(req('b'))).outcome, 'accepted');
    });
  });

  it('refuses with quota_exceeded once the hourly quota is spent, and starts over the next hour', async () => {
    await withLimiter({ ratePerMinute: 1000, start: T0 + 1000 }, async ({ limiter, clock }) => {
      const quota = { hourly: 3, daily: null };
      for (let i = 0; i < 3; i++) assert.equal((await limiter.admit(req('k1', quota))).outcome, 'accepted');
      const refused = await limiter.admit(req('k2', quota));
      assert.equal(refused.outcome, 'quota_exceeded', 'the quota is per organization, across its keys');
      assert.equal(refused.quota?.period, 'hour');
      assert.equal(refused.quota?.limit, 3);
      assert.equal(refused.quota?.resetMs, 3_600_000 - 1000);
      clock.t = T0 + 3_600_000;
      assert.equal((await limiter.admit(req('k1', quota))).outcome, 'accepted');
      assert.equal((await limiter.admit(req('k1', quota, 'org-2'))).outcome, 'accepted');
    });
  });

  it('enforces the daily quota across hours and does not count refused requests', async () => {
    await withLimiter({ ratePerMinute: 2, start: T0 }, async ({ limiter, clock }) => {
      const quota = { hourly: null, daily: 4 };
      assert.equal((await limiter.admit(req('k1', quota))).outcome, 'accepted');
      assert.equal((await limiter.admit(req('k1', quota))).outcome, 'accepted');
      // Rate-limited: must not use up quota.
      assert.equal((await limiter.admit(req('k1', quota))).outcome, 'rate_limited');
      clock.t += 3_600_000;
      assert.equal((await limiter.admit(req('k1', quota))).outcome, 'accepted');
      assert.equal((await limiter.admit(req('k1', quota))).outcome, 'accepted');
      const refused = await limiter.admit(req('k2', quota));
      assert.equal(refused.outcome, 'quota_exceeded');
      assert.equal(refused.quota?.period, 'day');
    });
  });

  it('reports the later reset when both the hourly and the daily quota are spent', async () => {
    await withLimiter({ ratePerMinute: 1000, start: T0 + 1000 }, async ({ limiter }) => {
      const quota = { hourly: 2, daily: 2 };
      for (let i = 0; i < 2; i++) assert.equal((await limiter.admit(req('k1', quota))).outcome, 'accepted');
      const refused = await limiter.admit(req('k1', quota));
      assert.equal(refused.outcome, 'quota_exceeded');
      // Retrying at the end of the hour would only be refused again by the daily quota.
      assert.equal(refused.quota?.period, 'day');
      assert.equal(refused.quota?.limit, 2);
      assert.equal(refused.quota?.resetMs, 14 * 3_600_000 - 1000, 'until 2024-05-07T00:00Z');
    });
  });

  it('reserves failed-authentication slots per address and refuses the address once they are used up', async () => {
    await withLimiter({ ratePerMinute: 100, authFailuresPerMinute: 3, start: T0 }, async ({ limiter, clock }) => {
      for (let i = 0; i < 3; i++) {
        const attempt = await limiter.reserveAuth('10.0.0.1');
        assert.equal(attempt.state.allowed, true);
        assert.ok(attempt.reservation, 'a slot was taken');
      }
      const blocked = await limiter.reserveAuth('10.0.0.1');
      assert.equal(blocked.state.allowed, false);
      assert.equal(blocked.reservation, undefined, 'a refused attempt takes no slot');
      assert.equal(blocked.state.resetMs, 60_000);
      assert.equal((await limiter.reserveAuth('10.0.0.2')).state.allowed, true);
      clock.t += 60_000;
      assert.equal((await limiter.reserveAuth('10.0.0.1')).state.allowed, true);
    });
  });

  it('vouches, once an address is over its budget, only for credentials verified in an admission, until told to forget them', async () => {
    await withLimiter({ ratePerMinute: 100, authFailuresPerMinute: 2, start: T0 }, async ({ limiter, clock }) => {
      await limiter.admit({ ...req('k1'), verified: 'good-pair' });
      assert.equal((await limiter.reserveAuth('10.0.0.1', 'good-pair')).vouched, undefined, 'with room, a slot is taken instead');
      await limiter.reserveAuth('10.0.0.1');
      const full = await limiter.reserveAuth('10.0.0.1', 'good-pair');
      assert.equal(full.state.allowed, false);
      assert.equal(full.reservation, undefined);
      assert.equal(full.vouched, true);
      assert.equal((await limiter.reserveAuth('10.0.0.2', 'good-pair')).reservation !== undefined, true, 'another address has its own window');
      for (const other of ['bad-pair', undefined]) {
        assert.equal((await limiter.reserveAuth('10.0.0.1', other)).vouched, undefined, `${other}`);
      }
      // A week later, unless renewed, the pair is no longer vouched for.
      clock.t += 7 * 86_400_000 - 1000;
      await limiter.reserveAuth('10.0.0.1');
      await limiter.reserveAuth('10.0.0.1');
      assert.equal((await limiter.reserveAuth('10.0.0.1', 'good-pair')).vouched, true);
      await limiter.forgetVerified('good-pair');
      assert.equal((await limiter.reserveAuth('10.0.0.1', 'good-pair')).vouched, undefined, 'forgotten');
      await limiter.admit({ ...req('k1'), verified: 'good-pair' });
      clock.t += 7 * 86_400_000 + 1;
      await limiter.reserveAuth('10.0.0.1');
      await limiter.reserveAuth('10.0.0.1');
      assert.equal((await limiter.reserveAuth('10.0.0.1', 'good-pair')).vouched, undefined, 'expired');
    });
  });

  it('gives at most the limit of concurrent attempts from a new address a slot', async () => {
    await withLimiter({ ratePerMinute: 100, authFailuresPerMinute: 5, start: T0 }, async ({ limiter }) => {
      const attempts = await Promise.all(Array.from({ length: 40 }, () => limiter.reserveAuth('10.0.0.9')));
      assert.equal(attempts.filter((a) => a.reservation).length, 5);
    });
  });

  it('takes back the slot of valid credentials, in the admission or on its own', async () => {
    await withLimiter({ ratePerMinute: 1, authFailuresPerMinute: 2, start: T0 }, async ({ limiter, clock }) => {
      // Valid credentials, whatever the admission decides, are not a failure.
      for (let i = 0; i < 5; i++) {
        const attempt = await limiter.reserveAuth('10.0.0.1');
        assert.ok(attempt.reservation, `attempt ${i} got a slot`);
        const outcome = (await limiter.admit({ ...req('k1'), release: attempt.reservation })).outcome;
        assert.equal(outcome, i === 0 ? 'accepted' : 'rate_limited');
        clock.t += 10;
      }
      const lookupFailed = await limiter.reserveAuth('10.0.0.1');
      await limiter.releaseAuth(lookupFailed.reservation!);
      // Two real failures still fit: nothing above was left counted.
      assert.ok((await limiter.reserveAuth('10.0.0.1')).reservation);
      clock.t += 10;
      assert.ok((await limiter.reserveAuth('10.0.0.1')).reservation);
      assert.equal((await limiter.reserveAuth('10.0.0.1')).state.allowed, false);
    });
  });
}

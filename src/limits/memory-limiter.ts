/**
 * @module limits/memory-limiter
 * The limiter of a single instance: sliding windows and quota counters in
 * process memory. Also the fallback of the Redis limiter while Redis is
 * unreachable (see redis-limiter.ts).
 *
 * Quota counters need the organization's totals so far in the current hour
 * and day. They are loaded once per organization (only for organizations
 * that have a quota) from the database plus this process's unflushed
 * counts, then kept up to date in memory; with a single instance nothing
 * else adds to them, so they stay exact.
 */
import type { OrganizationQuota } from '../domain/types.ts';
import { dayStart, hourStart } from '../domain/usage.ts';
import {
  RATE_WINDOW_MS,
  VERIFIED_CREDENTIALS_TTL_MS,
  periodResetMs,
  type Admission,
  type AdmissionRequest,
  type AuthAttempt,
  type AuthReservation,
  type Limiter,
} from './limiter.ts';
import { SlidingWindow } from './sliding-window.ts';
import { VerifiedCredentials } from './verified-credentials.ts';

/** Totals of an organization in the hour and day starting at the given epoch ms. */
export type TotalsLoader = (organizationId: string, hourStart: number, dayStart: number) => Promise<{ hour: number; day: number }>;

interface Counter {
  hourStart: number;
  hour: number;
  dayStart: number;
  day: number;
}

export interface MemoryLimiterOptions {
  ratePerMinute: number;
  authFailuresPerMinute: number;
  loadTotals: TotalsLoader;
  now?: () => number;
}

export class MemoryLimiter implements Limiter {
  readonly kind = 'memory' as const;
  private readonly rate: SlidingWindow;
  private readonly auth: SlidingWindow;
  private readonly verified: VerifiedCredentials;
  private readonly counters = new Map<string, Counter>();
  private readonly loading = new Map<string, Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly options: MemoryLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.rate = new SlidingWindow(options.ratePerMinute, RATE_WINDOW_MS, this.now);
    this.auth = new SlidingWindow(options.authFailuresPerMinute, RATE_WINDOW_MS, this.now);
    this.verified = new VerifiedCredentials(VERIFIED_CREDENTIALS_TTL_MS, this.now);
  }

  async admit(request: AdmissionRequest): Promise<Admission> {
    // First, so that a failing totals load below cannot leave the slot counted.
    if (request.release) this.releaseNow(request.release);
    // Valid credentials, whatever the admission decides.
    if (request.verified) this.verified.remember(request.verified);
    if (hasQuota(request.quota) && !this.counters.has(request.organizationId)) {
      await this.seed(request.organizationId);
    }
    // From here on no await: the checks and the counting happen as one step.
    const t = this.now();
    const window = this.rate.peek(request.apiKeyId);
    if (!window.allowed) return { outcome: 'rate_limited', rate: window };

    const counter = this.counters.get(request.organizationId);
    if (counter) {
      roll(counter, t);
      const { hourly, daily } = request.quota;
      // Daily first: when both are spent, the day's end is the earliest time a retry can succeed.
      if (daily !== null && counter.day >= daily) {
        return { outcome: 'quota_exceeded', rate: window, quota: { period: 'day', limit: daily, resetMs: periodResetMs('day', t) } };
      }
      if (hourly !== null && counter.hour >= hourly) {
        return { outcome: 'quota_exceeded', rate: window, quota: { period: 'hour', limit: hourly, resetMs: periodResetMs('hour', t) } };
      }
      counter.hour++;
      counter.day++;
    }
    return { outcome: 'accepted', rate: this.rate.hit(request.apiKeyId) };
  }

  async reserveAuth(address: string, fingerprint?: string): Promise<AuthAttempt> {
    return this.reserveNow(address, false, fingerprint);
  }

  async forgetVerified(fingerprint: string): Promise<void> {
    this.verified.forget(fingerprint);
  }

  async releaseAuth(reservation: AuthReservation): Promise<void> {
    this.releaseNow(reservation);
  }

  /** Synchronous, hence atomic within this process; `local` marks a fallback slot of the Redis limiter. */
  reserveNow(address: string, local: boolean, fingerprint?: string): AuthAttempt {
    const at = this.now();
    const state = this.auth.hit(address, at);
    if (state.allowed) return { state, reservation: { address, at, local } };
    return fingerprint !== undefined && this.verified.has(fingerprint) ? { state, vouched: true } : { state };
  }

  /** The Redis limiter keeps this copy for when Redis is away. */
  rememberVerified(fingerprint: string): void {
    this.verified.remember(fingerprint);
  }

  forgetVerifiedNow(fingerprint: string): void {
    this.verified.forget(fingerprint);
  }

  releaseNow(reservation: AuthReservation): void {
    this.auth.release(reservation.address, reservation.at);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  private seed(organizationId: string): Promise<void> {
    let pending = this.loading.get(organizationId);
    if (!pending) {
      const t = this.now();
      const h = hourStart(t);
      const d = dayStart(t);
      pending = this.options
        .loadTotals(organizationId, h, d)
        .then(({ hour, day }) => {
          this.counters.set(organizationId, { hourStart: h, hour, dayStart: d, day });
        })
        .finally(() => this.loading.delete(organizationId));
      this.loading.set(organizationId, pending);
    }
    return pending;
  }
}

export function hasQuota(quota: OrganizationQuota): boolean {
  return quota.hourly !== null || quota.daily !== null;
}

/** Moves a counter into the period containing `t`; a new period starts from zero. */
function roll(counter: Counter, t: number): void {
  const h = hourStart(t);
  if (h !== counter.hourStart) {
    counter.hourStart = h;
    counter.hour = 0;
  }
  const d = dayStart(t);
  if (d !== counter.dayStart) {
    counter.dayStart = d;
    counter.day = 0;
  }
}

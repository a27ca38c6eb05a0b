/**
 * @module limits/limiter
 * What the HTTP layer asks of a limiter, independent of where the counts
 * live (process memory for one instance, Redis for several).
 *
 * One `admit` call decides a request atomically against both the per-key
 * sliding window and the organization's hourly/daily quotas, and counts it
 * only when it is accepted: a refused request consumes neither a window slot
 * nor quota, so clients that back off recover on time.
 */
import type { OrganizationQuota, QuotaPeriod } from '../domain/usage.ts';
import type { WindowState } from './sliding-window.ts';

export const RATE_WINDOW_MS = 60_000;

export interface AdmissionRequest {
  apiKeyId: string;
  organizationId: string;
  quota: OrganizationQuota;
}

export type Outcome = 'accepted' | 'rate_limited' | 'quota_exceeded';

export interface Admission {
  outcome: Outcome;
  /** The key's sliding window after this request: what the RateLimit-* headers report. */
  rate: WindowState;
  /** Set when outcome is quota_exceeded: which quota, and ms until its period ends. */
  quota?: { period: QuotaPeriod; limit: number; resetMs: number };
}

export interface Limiter {
  readonly kind: 'memory' | 'redis';
  admit(request: AdmissionRequest): Promise<Admission>;
  /** Whether `address` may still try to authenticate (does not count). */
  authAllowed(address: string): Promise<WindowState>;
  /** Counts one failed authentication of `address`. */
  authFailed(address: string): Promise<void>;
  /** Health of the shared backend; resolves for the in-memory limiter. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Ms until the end of the UTC hour or day that contains `now`. */
export function periodResetMs(period: QuotaPeriod, now: number): number {
  const length = period === 'hour' ? 3_600_000 : 86_400_000;
  return length - (now % length);
}

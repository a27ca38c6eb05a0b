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
import type { OrganizationQuota } from '../domain/types.ts';
import type { QuotaPeriod } from '../domain/usage.ts';
import type { WindowState } from './sliding-window.ts';

export const RATE_WINDOW_MS = 60_000;

/**
 * How long credentials that authenticated are remembered as good (see
 * `AuthAttempt.vouched`); every authentication whose lookup reaches the
 * database renews it. A week, so that a client using its key daily, or
 * weekly, is never taken for an attacker; the fingerprints are small and
 * only valid credentials ever get one.
 */
export const VERIFIED_CREDENTIALS_TTL_MS = 7 * 86_400_000;

export interface AdmissionRequest {
  apiKeyId: string;
  organizationId: string;
  quota: OrganizationQuota;
  /**
   * The failed-authentication slot this request reserved before its lookup,
   * given back in the same step (and, with Redis, the same round trip):
   * valid credentials are not a failure.
   */
  release?: AuthReservation | undefined;
  /**
   * The fingerprint of the credentials (domain/keys.ts
   * `credentialFingerprint`), remembered as good in the same step.
   */
  verified?: string | undefined;
}

/**
 * One failed-authentication slot of a client address, taken before a lookup
 * of its credentials that would reach the database. Why reserve instead of
 * checking and counting after the lookup: concurrent requests from a new
 * address would all pass a check made before any of them had failed, and
 * all reach the database. Taking the slot atomically up front bounds the
 * database lookups in flight plus the failures in the window by the limit.
 * The slot is a failure unless released.
 */
export interface AuthReservation {
  readonly address: string;
  /** The window entry taken (epoch ms of the limiter's clock); identifies it for the release. */
  readonly at: number;
  /** Taken from the in-memory fallback because Redis was unreachable. */
  readonly local: boolean;
}

export interface AuthAttempt {
  /** The address's failure window after the call; `allowed` false when it was full. */
  state: WindowState;
  /** Set when a slot was taken, i.e. when `state.allowed`. */
  reservation?: AuthReservation;
  /**
   * Set when the window was full but the credentials whose fingerprint was
   * given authenticated within VERIFIED_CREDENTIALS_TTL_MS (on any
   * instance sharing the limiter): their lookup may go ahead without a slot.
   */
  vouched?: boolean;
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
  /**
   * Takes a failed-authentication slot of `address` if its window has room
   * (see AuthReservation). Also how a failure is counted after the fact:
   * take a slot and keep it. With a full window, `fingerprint` is looked up
   * among the credentials that recently authenticated (`vouched`).
   */
  reserveAuth(address: string, fingerprint?: string): Promise<AuthAttempt>;
  /** Stops vouching for credentials that turned out bad (e.g. the key was revoked since); never throws. */
  forgetVerified(fingerprint: string): Promise<void>;
  /** Gives a slot back outside `admit` (e.g. when the lookup itself failed); never throws. */
  releaseAuth(reservation: AuthReservation): Promise<void>;
  /** Health of the shared backend; resolves for the in-memory limiter. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Ms until the end of the UTC hour or day that contains `now`. */
export function periodResetMs(period: QuotaPeriod, now: number): number {
  const length = period === 'hour' ? 3_600_000 : 86_400_000;
  return length - (now % length);
}

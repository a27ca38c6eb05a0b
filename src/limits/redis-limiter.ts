/**
 * @module limits/redis-limiter
 * The limiter shared by several instances through Redis (REDIS_URL): the
 * per-key window, the organization quota counters and the failed-auth
 * windows all live in Redis and change only inside Lua scripts
 * (redis-scripts.ts), as do the markers of credentials that recently
 * authenticated. A request whose key lookup is answered from memory costs
 * one round trip, its admission; one whose lookup would reach the database
 * costs two: reserving a slot of its address's failed-auth window (or,
 * when the window is full, asking whether its credentials are vouched
 * for), then the admission, which gives a reserved slot back and renews
 * the credentials' marker in the same script.
 *
 * When Redis is unreachable Foyer FAILS OPEN: requests keep being served,
 * limited by this instance's in-memory limiter (so each instance still
 * enforces the per-key rate on its own; together N instances may accept up
 * to N x the limit while Redis is down). Every failed Redis call is counted
 * (`failures`) and logged, at most one log line per 10 s. Refusing all
 * traffic would turn a cache outage into a full API outage; the database,
 * which holds the real data, is what readiness depends on.
 *
 * Commands fail fast instead of queueing while disconnected
 * (enableOfflineQueue off) and time out after `commandTimeoutMs`, so an
 * unreachable or hung Redis adds at most that to a request.
 */
import { Redis } from 'ioredis';
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
import type { MemoryLimiter } from './memory-limiter.ts';
import { ADMIT_SCRIPT, AUTH_SCRIPT } from './redis-scripts.ts';
import type { WindowState } from './sliding-window.ts';

type Reply = Array<number>;

interface ScriptedRedis extends Redis {
  foyerAdmit(k1: string, k2: string, k3: string, k4: string, k5: string, ...args: Array<string | number>): Promise<Reply>;
  foyerAuth(k1: string, k2: string, ...args: Array<string | number>): Promise<Reply>;
}

export interface RedisLimiterOptions {
  url: string;
  keyPrefix: string;
  ratePerMinute: number;
  authFailuresPerMinute: number;
  /** Serves while Redis is unreachable. */
  fallback: MemoryLimiter;
  warn: (message: string) => void;
  commandTimeoutMs?: number;
  /** Fixed clock for tests; by default the window uses Redis's clock. */
  now?: () => number;
}

const HOUR_MS = 3_600_000;
const WARN_EVERY_MS = 10_000;

export class RedisLimiter implements Limiter {
  readonly kind = 'redis' as const;
  /** Redis calls that failed and were answered by the fallback instead. */
  failures = 0;
  private readonly redis: ScriptedRedis;
  private lastWarning = 0;
  private readonly now: () => number;
  /** KEYS[4] or KEYS[5] of a script that does not touch it (nothing to release, no credentials to mark). */
  private readonly unusedKey: string;

  constructor(private readonly options: RedisLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.unusedKey = `${options.keyPrefix}af:`;
    const redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 500,
      connectTimeout: 2000,
      // Keep trying forever, backing off to 2 s: Redis may come back.
      retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    });
    // Without a listener an 'error' event would crash the process.
    redis.on('error', (error: Error) => this.warnThrottled(`Redis unavailable (${error.message}); limits fall back to this instance.`));
    redis.defineCommand('foyerAdmit', { numberOfKeys: 5, lua: ADMIT_SCRIPT });
    redis.defineCommand('foyerAuth', { numberOfKeys: 2, lua: AUTH_SCRIPT });
    this.redis = redis as ScriptedRedis;
  }

  /** Waits (bounded) for the first connection, so a healthy start does not begin in fallback. */
  async connected(timeoutMs = 2000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.redis.once('ready', onReady);
    });
  }

  async admit(request: AdmissionRequest): Promise<Admission> {
    const p = this.options.keyPrefix;
    // Periods follow this host's clock (UTC hours; hosts are NTP-synced), the window Redis's.
    const t = this.now();
    const h = hourStart(t);
    const d = dayStart(t);
    const { release, verified } = request;
    // A slot the fallback took is the fallback's to give back; Redis never saw it.
    if (release?.local) this.options.fallback.releaseNow(release);
    // Kept here too, to vouch from while Redis is away.
    if (verified) this.options.fallback.rememberVerified(verified);
    const shared = release && !release.local ? release : undefined;
    let reply: Reply;
    try {
      reply = await this.redis.foyerAdmit(
        `${p}rl:${request.apiKeyId}`,
        `${p}q:${request.organizationId}:h:${h}`,
        `${p}q:${request.organizationId}:d:${d}`,
        shared ? this.authKey(shared.address) : this.unusedKey,
        verified ? this.verifiedKey(verified) : this.unusedKey,
        this.options.ratePerMinute,
        RATE_WINDOW_MS,
        this.options.now ? this.now() : -1,
        request.quota.hourly ?? -1,
        request.quota.daily ?? -1,
        h + 2 * HOUR_MS - t,
        d + 86_400_000 + HOUR_MS - t,
        shared ? String(shared.at) : '-1',
        verified ? VERIFIED_CREDENTIALS_TTL_MS : -1,
      );
    } catch (error) {
      this.failed(error);
      // The shared slot stays counted in Redis until it expires (at most a minute): Redis is away anyway.
      return this.options.fallback.admit({ ...request, release: undefined, verified: undefined });
    }
    const [code, count, resetMs] = reply as [number, number, number];
    const limit = this.options.ratePerMinute;
    const rate: WindowState = { allowed: code !== 1, limit, remaining: Math.max(0, limit - count), resetMs };
    if (code === 0) return { outcome: 'accepted', rate };
    if (code === 1) return { outcome: 'rate_limited', rate };
    const period = code === 2 ? 'hour' : 'day';
    const quotaLimit = (code === 2 ? request.quota.hourly : request.quota.daily) ?? 0;
    return { outcome: 'quota_exceeded', rate, quota: { period, limit: quotaLimit, resetMs: periodResetMs(period, t) } };
  }

  async reserveAuth(address: string, fingerprint?: string): Promise<AuthAttempt> {
    let reply: Reply;
    try {
      reply = await this.redis.foyerAuth(
        this.authKey(address),
        fingerprint ? this.verifiedKey(fingerprint) : this.unusedKey,
        this.options.authFailuresPerMinute,
        RATE_WINDOW_MS,
        this.options.now ? this.now() : -1,
        fingerprint ? '1' : '0',
      );
    } catch (error) {
      this.failed(error);
      return this.options.fallback.reserveNow(address, true, fingerprint);
    }
    const [taken, count, resetMs, at, vouched] = reply as [number, number, number, number, number];
    const limit = this.options.authFailuresPerMinute;
    const state: WindowState = { allowed: taken === 1, limit, remaining: Math.max(0, limit - count), resetMs };
    if (taken === 1) return { state, reservation: { address, at, local: false } };
    return vouched === 1 ? { state, vouched: true } : { state };
  }

  async forgetVerified(fingerprint: string): Promise<void> {
    this.options.fallback.forgetVerifiedNow(fingerprint);
    try {
      await this.redis.del(this.verifiedKey(fingerprint));
    } catch (error) {
      this.failed(error);
    }
  }

  async releaseAuth(reservation: AuthReservation): Promise<void> {
    if (reservation.local) {
      this.options.fallback.releaseNow(reservation);
      return;
    }
    try {
      await this.redis.lrem(this.authKey(reservation.address), -1, String(reservation.at));
    } catch (error) {
      this.failed(error);
    }
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private authKey(address: string): string {
    return `${this.options.keyPrefix}af:${address}`;
  }

  private verifiedKey(fingerprint: string): string {
    return `${this.options.keyPrefix}vc:${fingerprint}`;
  }

  private failed(error: unknown): void {
    this.failures++;
    const reason = error instanceof Error ? error.message : String(error);
    this.warnThrottled(`Redis call failed (${reason}); served by this instance's own limiter (failures so far: ${this.failures}).`);
  }

  private warnThrottled(message: string): void {
    const t = Date.now();
    if (t - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = t;
    this.options.warn(message);
  }
}

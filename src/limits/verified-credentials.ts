/**
 * @module limits/verified-credentials
 * The fingerprints of credentials that recently authenticated, in process
 * memory: what the in-memory limiter vouches from (see `AuthAttempt.vouched`
 * in limiter.ts), and the Redis limiter's copy for when Redis is away.
 *
 * Bounded: beyond `max` fingerprints the least recently verified one is
 * dropped. Only valid credentials get in, so the bound is only reached by a
 * deployment with that many keys in use; a dropped one is merely not
 * vouched for while its address is over its failure budget.
 */
export class VerifiedCredentials {
  /** Fingerprint → expiry (epoch ms), least recently verified first. */
  private readonly entries = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly max = 10_000,
  ) {}

  remember(fingerprint: string): void {
    this.entries.delete(fingerprint);
    this.entries.set(fingerprint, this.now() + this.ttlMs);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  has(fingerprint: string): boolean {
    const expires = this.entries.get(fingerprint);
    if (expires === undefined) return false;
    if (expires > this.now()) return true;
    this.entries.delete(fingerprint);
    return false;
  }

  forget(fingerprint: string): void {
    this.entries.delete(fingerprint);
  }
}

/**
 * @module limits/sliding-window
 * Exact sliding-window counting in process memory.
 *
 * The rule: a hit at time t is accepted only if fewer than `limit` hits
 * were accepted in (t - window, t]. So no half-open window of `window` ms
 * anywhere on the time line ever holds more than `limit` accepted hits —
 * unlike fixed (calendar) windows, which let 2 x limit through around a
 * boundary.
 *
 * Why a ring of timestamps and not a counter or two-bucket estimate: the
 * estimate is not exact, and a ring of the last `limit` accepted times is
 * exact at O(1) amortized per hit (each timestamp is written once and
 * dropped once). The ring grows on demand up to `limit` entries, so an idle
 * or slow key costs a few bytes, not `limit` slots.
 */

export interface WindowState {
  /** Whether this hit was accepted (for `peek`: whether one would be). */
  allowed: boolean;
  limit: number;
  /** Hits still acceptable in the window right now (after this one). */
  remaining: number;
  /** Ms until the oldest counted hit leaves the window and frees a slot; 0 when nothing is counted. */
  resetMs: number;
}

/** The accepted timestamps of one key, oldest first, in a growable ring. */
export class TimestampRing {
  private buf: Float64Array;
  private head = 0;
  private size = 0;

  constructor(private readonly limit: number) {
    this.buf = new Float64Array(Math.min(limit, 8));
  }

  /** Forgets timestamps that are out of the window ending at `now`. */
  expire(now: number, windowMs: number): void {
    const cutoff = now - windowMs;
    while (this.size > 0 && this.buf[this.head]! <= cutoff) {
      this.head = (this.head + 1) % this.buf.length;
      this.size--;
    }
  }

  get count(): number {
    return this.size;
  }

  get oldest(): number | undefined {
    return this.size > 0 ? this.buf[this.head] : undefined;
  }

  get newest(): number | undefined {
    return this.size > 0 ? this.buf[(this.head + this.size - 1) % this.buf.length] : undefined;
  }

  /**
   * Removes one entry equal to `at`, searching from the newest: a refunded
   * reservation is almost always the newest entry or close to it.
   */
  remove(at: number): boolean {
    const len = this.buf.length;
    for (let i = this.size - 1; i >= 0; i--) {
      const v = this.buf[(this.head + i) % len]!;
      if (v === at) {
        for (let j = i; j < this.size - 1; j++) this.buf[(this.head + j) % len] = this.buf[(this.head + j + 1) % len]!;
        this.size--;
        return true;
      }
      // Entries are in time order: anything older cannot match.
      if (v < at) return false;
    }
    return false;
  }

  push(at: number): void {
    if (this.size === this.buf.length) this.grow();
    this.buf[(this.head + this.size) % this.buf.length] = at;
    this.size++;
  }

  private grow(): void {
    const next = new Float64Array(Math.min(this.limit, this.buf.length * 2));
    for (let i = 0; i < this.size; i++) next[i] = this.buf[(this.head + i) % this.buf.length]!;
    this.buf = next;
    this.head = 0;
  }
}

/** One limit (e.g. 1000 per 60 s) applied separately to any number of keys. */
export class SlidingWindow {
  private readonly rings = new Map<string, TimestampRing>();
  private lastSweep: number;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSweep = now();
  }

  /** Counts a hit for `key` at `t` (now by default) if the window has room. */
  hit(key: string, t: number = this.now()): WindowState {
    return this.check(key, true, t);
  }

  /** Reports whether a hit would be accepted, without counting one. */
  peek(key: string): WindowState {
    return this.check(key, false, this.now());
  }

  /** Takes back a hit counted at `at`, as if it had never been made (no-op once it left the window). */
  release(key: string, at: number): void {
    this.rings.get(key)?.remove(at);
  }

  /** Number of keys currently tracked (for tests and metrics). */
  get size(): number {
    return this.rings.size;
  }

  private check(key: string, count: boolean, t: number): WindowState {
    const ring = this.ring(key, t);
    if (ring.count >= this.limit) return this.state(ring, t, false);
    if (count) ring.push(t);
    return this.state(ring, t, true);
  }

  private ring(key: string, t: number): TimestampRing {
    this.maybeSweep(t);
    let ring = this.rings.get(key);
    if (!ring) {
      ring = new TimestampRing(this.limit);
      this.rings.set(key, ring);
    }
    ring.expire(t, this.windowMs);
    return ring;
  }

  private state(ring: TimestampRing, t: number, allowed: boolean): WindowState {
    const oldest = ring.oldest;
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - ring.count),
      resetMs: oldest === undefined ? 0 : Math.max(0, oldest + this.windowMs - t),
    };
  }

  /** Drops keys with nothing in the window, at most once per window, so memory follows active keys. */
  private maybeSweep(t: number): void {
    if (t - this.lastSweep < this.windowMs) return;
    this.lastSweep = t;
    for (const [key, ring] of this.rings) {
      const newest = ring.newest;
      if (newest === undefined || newest <= t - this.windowMs) this.rings.delete(key);
    }
  }
}

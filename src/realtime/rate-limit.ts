/**
 * @module realtime/rate-limit
 * A token bucket: a burst of `burst` at once, then one more every
 * `everyMs`. Used per participant for what fans out to everyone in a
 * place (chat messages, reactions, new publishing connections on the SFU),
 * so that one page cannot flood a call while staying under the
 * connection's general message budget.
 */
export interface RateLimit {
  /** How many at once. */
  readonly burst: number;
  /** One more allowed per this many milliseconds. */
  readonly everyMs: number;
}

export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = limit.burst;
    this.at = now();
  }

  /** Takes one token; false (and nothing taken) when there is none. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** How long until a token is there (0: now). Takes nothing. */
  waitMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) * this.limit.everyMs);
  }

  /** Resolves once a token is there (taking none), or at once when `signal` aborts. */
  async wait(signal: AbortSignal): Promise<void> {
    for (let ms = this.waitMs(); ms > 0 && !signal.aborted; ms = this.waitMs()) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  private refill(): void {
    const now = this.now();
    // A clock set back adds nothing (rather than leaving the bucket owing tokens for as long), and counts on from there.
    this.tokens = Math.min(this.limit.burst, this.tokens + Math.max(0, now - this.at) / this.limit.everyMs);
    this.at = now;
  }
}

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

  private refill(): void {
    const now = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + (now - this.at) / this.limit.everyMs);
    this.at = now;
  }
}

/**
 * @module realtime/rate-limit
 * A token bucket: a burst of `burst` at once, then one more every
 * `everyMs`. Used per participant for what fans out to everyone in a
 * place (chat messages, reactions), so that one page cannot flood a call
 * while staying under the connection's general message budget.
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
    const now = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + (now - this.at) / this.limit.everyMs);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

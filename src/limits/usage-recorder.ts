/**
 * @module limits/usage-recorder
 * Counts accepted requests per API key and UTC hour in memory and writes
 * them to the database in batches: every `flushMs` and on shutdown, never
 * once per request. A flush that fails keeps its counts for the next one,
 * so a database hiccup delays totals but does not lose them (only a crash
 * loses the counts of at most one flush interval).
 */
import type { UsageIncrement } from '../domain/types.ts';
import { hourStart } from '../domain/usage.ts';
import type { Store } from '../domain/ports/store.ts';

export interface UsageRecorderOptions {
  flushMs: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

export class UsageRecorder {
  private pending = new Map<string, UsageIncrement>();
  /** Counts handed to a flush that has not committed yet. */
  private inFlight: UsageIncrement[] = [];
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(
    private readonly store: Pick<Store, 'recordUsage'>,
    private readonly options: UsageRecorderOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Starts the periodic flush; the timer never keeps the process alive on its own. */
  start(): void {
    this.timer ??= setInterval(() => void this.flush().catch(() => {}), this.options.flushMs);
    this.timer.unref();
  }

  record(apiKeyId: string, organizationId: string): void {
    const h = hourStart(this.now());
    const id = `${apiKeyId}\u0000${h}`;
    const entry = this.pending.get(id);
    if (entry) entry.requests++;
    else this.pending.set(id, { apiKeyId, organizationId, hourStart: h, requests: 1 });
  }

  /** Counts of an organization not yet committed to the database, for the given hour and day. */
  unflushed(organizationId: string, hour: number, day: number): { hour: number; day: number } {
    let hourCount = 0;
    let dayCount = 0;
    const add = (u: UsageIncrement) => {
      if (u.organizationId !== organizationId) return;
      if (u.hourStart === hour) hourCount += u.requests;
      if (u.hourStart >= day && u.hourStart < day + 86_400_000) dayCount += u.requests;
    };
    for (const u of this.pending.values()) add(u);
    for (const u of this.inFlight) add(u);
    return { hour: hourCount, day: dayCount };
  }

  /** Writes everything counted so far; concurrent callers share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flushing?.catch(() => {});
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.inFlight = batch;
    try {
      await this.store.recordUsage(batch);
    } catch (error) {
      // Put the counts back (merging with what arrived meanwhile) for the next flush.
      for (const u of batch) {
        const id = `${u.apiKeyId}\u0000${u.hourStart}`;
        const entry = this.pending.get(id);
        if (entry) entry.requests += u.requests;
        else this.pending.set(id, u);
      }
      this.options.onError?.(error);
      throw error;
    } finally {
      this.inFlight = [];
    }
  }
}

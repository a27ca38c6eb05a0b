/**
 * @module limits/usage-recorder
 * Counts requests per API key and UTC hour in memory (accepted ones, and
 * those refused with 429), with each key's latest use, and writes them to
 * the database in batches: every `flushMs` and on shutdown, never once per
 * request. A key's "last used" is therefore at most one flush old. A flush that fails keeps its counts for the next one,
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

  /** An accepted request of the key: it counts towards quotas. */
  record(apiKeyId: string, organizationId: string): void {
    this.entry(apiKeyId, organizationId).requests++;
  }

  /** A request of the key refused with 429 (its rate limit or a quota): shown, never counted towards quotas. */
  refuse(apiKeyId: string, organizationId: string): void {
    const entry = this.entry(apiKeyId, organizationId);
    entry.refused = (entry.refused ?? 0) + 1;
  }

  private entry(apiKeyId: string, organizationId: string): UsageIncrement {
    const at = this.now();
    const h = hourStart(at);
    const id = `${apiKeyId}\u0000${h}`;
    let entry = this.pending.get(id);
    if (!entry) {
      entry = { apiKeyId, organizationId, hourStart: h, requests: 0, refused: 0, lastUsedAt: at };
      this.pending.set(id, entry);
    }
    entry.lastUsedAt = Math.max(entry.lastUsedAt ?? at, at);
    return entry;
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
        if (entry) {
          entry.requests += u.requests;
          entry.refused = (entry.refused ?? 0) + (u.refused ?? 0);
          entry.lastUsedAt = Math.max(entry.lastUsedAt ?? 0, u.lastUsedAt ?? 0);
        } else this.pending.set(id, u);
      }
      this.options.onError?.(error);
      throw error;
    } finally {
      this.inFlight = [];
    }
  }
}

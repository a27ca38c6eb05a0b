/**
 * @module webhooks/worker
 * Sends what the outbox holds. Every instance runs one worker; it claims
 * due deliveries under a lease (so of several instances exactly one sends
 * a given attempt), sends each on its own (a delivery is claimable only
 * when no earlier one of its meeting is pending, so order per meeting is
 * kept), and records each outcome. It claims on an interval, at once when
 * this instance commits an event worth telling, and whenever an attempt
 * ends, so a message usually leaves within milliseconds of its change.
 * What a crashed instance had claimed is sent by another once its lease
 * ends.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { DomainContext } from '../domain/context.ts';
import { attemptRequest, claimDueDeliveries, recordAttempt, type DeliverySettings } from '../domain/webhooks/delivery.ts';
import { webhookMessage } from '../domain/webhooks/outbox.ts';
import type { AttemptResult, ClaimedDelivery } from '../domain/webhooks/types.ts';
import { sendWebhook, type SendOptions, type WebhookRequest } from './sender.ts';

export interface WebhookWorkerOptions extends DeliverySettings, SendOptions {
  /** How often due deliveries (retries, other instances' events) are looked for. */
  pollMs: number;
  /** Finished deliveries older than this are pruned (hourly); unset: never. */
  logRetentionMs?: number;
  /** Attempts in flight at most. */
  batchSize?: number;
  /** Replaces the HTTP sender (tests of the worker alone). */
  send?: (request: WebhookRequest, options: SendOptions) => Promise<AttemptResult>;
}

export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** How long wake-ups are gathered before one claim serves them all. */
const SOON_MS = 3;
const PRUNE_INTERVAL_MS = 3_600_000;

export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private readonly inFlight = new Set<Promise<void>>();
  private soonTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ctx: DomainContext,
    private readonly options: WebhookWorkerOptions,
    private readonly log: WorkerLogger,
  ) {}

  private get capacity(): number {
    return this.options.batchSize ?? 50;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.ctx.events.subscribe((event) => {
      if (webhookMessage(event)) this.soon();
    });
    this.wake();
    if (this.options.logRetentionMs) {
      this.pruneTimer = setInterval(() => void this.prune(), PRUNE_INTERVAL_MS);
      this.pruneTimer.unref();
    }
  }

  /** Forgets finished deliveries past the log's retention. */
  async prune(): Promise<number> {
    if (!this.options.logRetentionMs) return 0;
    try {
      return await this.ctx.store.pruneWebhookDeliveries(new Date(this.ctx.now().getTime() - this.options.logRetentionMs));
    } catch (error) {
      this.log.error({ err: error }, 'webhooks: pruning the delivery log failed');
      return 0;
    }
  }

  /** Stops claiming; waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    clearTimeout(this.soonTimer);
    clearInterval(this.pruneTimer);
    await this.claiming;
    await Promise.all([...this.inFlight]);
  }

  /** Claims in a moment: a burst of events or finished attempts makes one claim, not one each. */
  private soon(): void {
    if (this.soonTimer || this.stopped) return;
    this.soonTimer = setTimeout(() => {
      this.soonTimer = undefined;
      this.wake();
    }, SOON_MS);
  }

  /**
   * Claims now (or right after the claim under way): attempts run on their
   * own, so a slow receiver never holds up the next claim. At most
   * `batchSize` attempts are in flight at once.
   */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.claiming = this.claimLoop().finally(() => {
      this.claiming = undefined;
      if (!this.stopped) this.timer = setTimeout(() => this.wake(), this.options.pollMs);
    });
  }

  private async claimLoop(): Promise<void> {
    do {
      this.again = false;
      const room = this.capacity - this.inFlight.size;
      if (room <= 0) return; // an attempt finishing wakes the worker again
      try {
        const claimed = await claimDueDeliveries(this.ctx, this.options, randomBytes(12).toString('base64url'), room);
        for (const c of claimed) this.track(this.attempt(c));
        if (claimed.length === room) this.again = true;
      } catch (error) {
        this.log.error({ err: error }, 'webhooks: claiming deliveries failed');
        return;
      }
    } while (this.again && !this.stopped);
  }

  private track(attempt: Promise<void>): void {
    this.inFlight.add(attempt);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      // A finished delivery may release the next one of its meeting.
      this.soon();
    });
  }

  /** One claim and its attempts, awaited together (tests and tools). Returns how many were claimed. */
  async round(): Promise<number> {
    const claimed = await claimDueDeliveries(this.ctx, this.options, randomBytes(12).toString('base64url'), this.capacity);
    await Promise.all(claimed.map((c) => this.attempt(c)));
    return claimed.length;
  }

  private async attempt(claimed: ClaimedDelivery): Promise<void> {
    const { delivery, endpoint } = claimed;
    let result: AttemptResult;
    try {
      result = await (this.options.send ?? sendWebhook)(attemptRequest(this.ctx, claimed, this.ctx.now()), this.options);
    } catch (error) {
      result = { ok: false, retryable: true, status: null, error: `sender failed: ${(error as Error).message}`, latencyMs: 0 };
    }
    try {
      const record = await recordAttempt(this.ctx, claimed, result, this.options);
      const about = { endpointId: endpoint.id, deliveryId: delivery.id, eventType: delivery.eventType, attempt: record.outcome.attempts };
      if (!result.ok) this.log.info({ ...about, error: result.error, next: record.outcome.status === 'pending' ? record.outcome.nextAttemptAt : null }, 'webhooks: attempt failed');
      if (record.disabledReason) this.log.warn({ endpointId: endpoint.id, reason: record.disabledReason }, 'webhooks: endpoint disabled');
    } catch (error) {
      // The lease runs out and the delivery is tried again: at least once.
      this.log.error({ err: error, deliveryId: delivery.id }, 'webhooks: recording an attempt failed');
    }
  }
}

type WorkerConfig = Pick<
  Config,
  'webhookAllowPrivate' | 'webhookRetryDelaysMs' | 'webhookConnectTimeoutMs' | 'webhookResponseTimeoutMs' | 'webhookDisableAfterMs' | 'webhookPollMs' | 'webhookLogDays'
>;

/** The worker as the configuration describes it. */
export function createWebhookWorker(ctx: DomainContext, config: WorkerConfig, log: WorkerLogger, extra: Partial<WebhookWorkerOptions> = {}): WebhookWorker {
  return new WebhookWorker(
    ctx,
    {
      allowPrivate: config.webhookAllowPrivate,
      retryDelaysMs: config.webhookRetryDelaysMs,
      connectTimeoutMs: config.webhookConnectTimeoutMs,
      responseTimeoutMs: config.webhookResponseTimeoutMs,
      disableAfterMs: config.webhookDisableAfterMs,
      pollMs: config.webhookPollMs,
      logRetentionMs: config.webhookLogDays * 86_400_000,
      // Three times the longest attempt, so a lease ends only when its worker is gone (or stuck).
      leaseMs: 3 * (config.webhookConnectTimeoutMs + config.webhookResponseTimeoutMs),
      ...extra,
    },
    log,
  );
}

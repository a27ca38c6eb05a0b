/**
 * @module webhooks/worker
 * Sends what the outbox holds. Every instance runs one worker; each round
 * claims a batch of due deliveries under a lease (so of several
 * instances exactly one sends a given attempt), sends them concurrently
 * (a batch holds at most one delivery per ordering key, so order per
 * meeting is kept), and records each outcome. Rounds run on an interval,
 * and at once when this instance commits an event worth telling, so a
 * message usually leaves within milliseconds of its change. What a
 * crashed instance had claimed is sent by another once its lease ends.
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
  /** Deliveries claimed per round. */
  batchSize?: number;
  /** Replaces the HTTP sender (tests of the worker alone). */
  send?: (request: WebhookRequest, options: SendOptions) => Promise<AttemptResult>;
}

export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly ctx: DomainContext,
    private readonly options: WebhookWorkerOptions,
    private readonly log: WorkerLogger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.ctx.events.subscribe((event) => {
      if (webhookMessage(event)) this.wake();
    });
    this.wake();
  }

  /** Stops claiming; waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs a round now (or right after the current one). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.rounds().finally(() => {
      this.running = undefined;
      if (!this.stopped) this.timer = setTimeout(() => this.wake(), this.options.pollMs);
    });
  }

  private async rounds(): Promise<void> {
    do {
      this.again = false;
      try {
        const full = await this.round();
        if (full) this.again = true;
      } catch (error) {
        this.log.error({ err: error }, 'webhooks: a delivery round failed');
      }
    } while (this.again && !this.stopped);
  }

  /** One claim and its sends; true when the batch was full (more may be due). */
  async round(): Promise<boolean> {
    const limit = this.options.batchSize ?? 50;
    const token = randomBytes(12).toString('base64url');
    const claimed = await claimDueDeliveries(this.ctx, this.options, token, limit);
    await Promise.all(claimed.map((c) => this.attempt(c)));
    return claimed.length === limit;
  }

  private async attempt(claimed: ClaimedDelivery): Promise<void> {
    const { delivery, endpoint } = claimed;
    let result: AttemptResult;
    try {
      result = await (this.options.send ?? sendWebhook)(attemptRequest(this.ctx, claimed, this.ctx.now()), this.options);
    } catch (error) {
      result = { ok: false, retryable: true, status: null, error: `sender failed: ${(error as Error).message}`, latencyMs: 0 };
    }
    const record = await recordAttempt(this.ctx, claimed, result, this.options);
    const about = { endpointId: endpoint.id, deliveryId: delivery.id, eventType: delivery.eventType, attempt: record.outcome.attempts };
    if (!result.ok) this.log.info({ ...about, error: result.error, next: record.outcome.status === 'pending' ? record.outcome.nextAttemptAt : null }, 'webhooks: attempt failed');
    if (record.disabledReason) this.log.warn({ endpointId: endpoint.id, reason: record.disabledReason }, 'webhooks: endpoint disabled');
  }
}

type WorkerConfig = Pick<
  Config,
  'webhookAllowPrivate' | 'webhookRetryDelaysMs' | 'webhookConnectTimeoutMs' | 'webhookResponseTimeoutMs' | 'webhookDisableAfterMs' | 'webhookPollMs'
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
      // Three times the longest attempt, so a lease ends only when its worker is gone (or stuck).
      leaseMs: 3 * (config.webhookConnectTimeoutMs + config.webhookResponseTimeoutMs),
      ...extra,
    },
    log,
  );
}

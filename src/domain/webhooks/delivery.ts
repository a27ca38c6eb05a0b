/**
 * @module domain/webhooks/delivery
 * The rules of sending, apart from the network: which attempt is due,
 * what it carries (Standard Webhooks headers signed by every secret that
 * signs now), and what its outcome means:
 * - a 2xx delivers;
 * - a timeout, connection error, 5xx, 408 or 429 is retried after the next
 *   delay of the schedule, stretched by up to a fifth at random (jitter,
 *   so a receiver that comes back is not hit by every sender at once);
 *   after the last delay the delivery fails;
 * - any other answer fails the delivery at once (the receiver refused it);
 * - an endpoint failing without a single success for `disableAfterMs` is
 *   disabled with the reason shown beside it.
 */
import type { DomainContext } from '../context.ts';
import type { DeliveryOutcome, WebhookPorts } from './ports.ts';
import { signedHeaders, signingSecrets, unsealSecret } from './secrets.ts';
import type { AttemptResult, ClaimedDelivery } from './types.ts';

export interface DeliverySettings {
  /** Delay before each retry; the delivery fails after the last. */
  retryDelaysMs: number[];
  /** An endpoint failing this long without a success is disabled. */
  disableAfterMs: number;
  /** How long a worker holds a claimed delivery before another may take it. */
  leaseMs: number;
}

/** The default schedule: about 28 hours of retries, as receivers of the peers' webhooks expect. */
export const DEFAULT_RETRY_DELAYS_MS = [5, 300, 1800, 7200, 18_000, 36_000, 36_000].map((s) => s * 1000);

export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Claims due deliveries for one worker round. */
export async function claimDueDeliveries(ctx: DomainContext<WebhookPorts>, settings: DeliverySettings, leaseToken: string, limit: number): Promise<ClaimedDelivery[]> {
  const now = ctx.now();
  const claimed = await ctx.store.claimWebhookDeliveries({ now, leaseUntil: new Date(now.getTime() + settings.leaseMs), leaseToken, limit });
  return claimed.map((c) => ({ ...c, leaseToken }));
}

/** What one attempt sends: the stored body and headers signed at `now`. */
export function attemptRequest(ctx: DomainContext<WebhookPorts>, claimed: ClaimedDelivery, now: Date): { url: string; headers: Record<string, string>; body: string } {
  const secrets = signingSecrets(claimed.endpoint.secrets, now).map((s) => unsealSecret(ctx.secretPepper, s.sealed));
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    url: claimed.endpoint.url,
    body: claimed.delivery.payload,
    headers: { 'content-type': 'application/json', 'user-agent': 'Foyer-Webhooks/1', ...signedHeaders(secrets, claimed.delivery.eventId, timestamp, claimed.delivery.payload) },
  };
}

/** The delivery's state after an attempt that ended at `now`. */
export function outcomeOf(claimed: ClaimedDelivery, result: AttemptResult, now: Date, settings: DeliverySettings, random: () => number = Math.random): DeliveryOutcome {
  const attempts = claimed.delivery.attempts + 1;
  const common = { attempts, lastLatencyMs: result.latencyMs, lastAttemptAt: now };
  if (result.ok) {
    return { ...common, status: 'delivered', nextAttemptAt: now, lastStatus: result.status, lastError: null, deliveredAt: now };
  }
  const delay = settings.retryDelaysMs[attempts - 1];
  const retry = result.retryable && delay !== undefined;
  const nextAttemptAt = retry ? new Date(now.getTime() + Math.round(delay * (1 + random() / 5))) : now;
  return { ...common, status: retry ? 'pending' : 'failed', nextAttemptAt, lastStatus: result.status, lastError: result.error, deliveredAt: null };
}

export interface AttemptRecord {
  /** False when the lease had passed to another worker (the outcome was not written). */
  recorded: boolean;
  outcome: DeliveryOutcome;
  /** Set when this attempt made the endpoint count as failing too long: it is now disabled for this reason. */
  disabledReason?: string;
}

/** Writes an attempt's outcome and the endpoint's health; disables an endpoint that keeps failing. */
export async function recordAttempt(ctx: DomainContext<WebhookPorts>, claimed: ClaimedDelivery, result: AttemptResult, settings: DeliverySettings): Promise<AttemptRecord> {
  const now = ctx.now();
  const outcome = outcomeOf(claimed, result, now, settings);
  const recorded = await ctx.store.finishWebhookDelivery(claimed.delivery.id, claimed.leaseToken, outcome);
  // A success of an endpoint that was not failing changes nothing: no write on the common path.
  if (result.ok && claimed.endpoint.failingSince === null) return { recorded, outcome };
  const endpoint = await ctx.store.recordEndpointHealth(claimed.endpoint.id, result.ok, now);
  if (result.ok || !endpoint?.enabled || !endpoint.failingSince) return { recorded, outcome };
  if (now.getTime() - endpoint.failingSince.getTime() < settings.disableAfterMs) return { recorded, outcome };
  const reason = `Disabled automatically: every attempt failed since ${endpoint.failingSince.toISOString()} (last: ${result.error}).`;
  await ctx.store.updateWebhookEndpoint(endpoint.organizationId, endpoint.id, { enabled: false, disabledReason: reason.slice(0, 300) }, now);
  return { recorded, outcome, disabledReason: reason };
}

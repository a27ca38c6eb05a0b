/**
 * The rules of an attempt's outcome: retry after the schedule's next delay
 * stretched by at most a fifth, fail after the last delay or at once on a
 * refusal, and the schedule lasting at least a day by default.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RETRY_DELAYS_MS, outcomeOf, type DeliverySettings } from './delivery.ts';
import { webhookMessage } from './outbox.ts';
import type { ClaimedDelivery } from './types.ts';

const settings: DeliverySettings = { retryDelaysMs: [1000, 60_000], disableAfterMs: 3_600_000, leaseMs: 30_000 };
const now = new Date('2026-01-01T10:00:00Z');
const claimed = (attempts: number) => ({ delivery: { attempts }, endpoint: {}, leaseToken: 't' }) as unknown as ClaimedDelivery;
const failure = (retryable: boolean) => ({ ok: false as const, retryable, status: retryable ? 503 : 400, error: 'HTTP', latencyMs: 5 });

describe('webhook delivery rules', () => {
  it('retries after the next delay of the schedule, stretched by at most a fifth', () => {
    const earliest = outcomeOf(claimed(0), failure(true), now, settings, () => 0);
    const latest = outcomeOf(claimed(0), failure(true), now, settings, () => 0.999);
    assert.deepEqual([earliest.status, earliest.attempts, earliest.nextAttemptAt.getTime() - now.getTime()], ['pending', 1, 1000]);
    assert.ok(latest.nextAttemptAt.getTime() - now.getTime() <= 1200);
    assert.equal(outcomeOf(claimed(1), failure(true), now, settings, () => 0).nextAttemptAt.getTime() - now.getTime(), 60_000);
  });

  it('fails after the last delay, and at once when the receiver refused', () => {
    assert.equal(outcomeOf(claimed(2), failure(true), now, settings).status, 'failed');
    assert.deepEqual([outcomeOf(claimed(0), failure(false), now, settings).status], ['failed']);
    const ok = outcomeOf(claimed(1), { ok: true, status: 204, latencyMs: 3 }, now, settings);
    assert.deepEqual([ok.status, ok.attempts, ok.deliveredAt], ['delivered', 2, now]);
  });

  it('retries for more than 24 hours by default', () => {
    assert.ok(DEFAULT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) >= 24 * 3_600_000);
  });

  it('tells ids the API returns and never the internal events', () => {
    const at = now;
    assert.deepEqual(webhookMessage({ type: 'participant.joined', organizationId: 'o', place: { kind: 'session', id: 's' }, participantId: 'p', displayName: 'Ann', media: { audio: true, video: false, screen: false }, host: false, at }), {
      type: 'participant.joined',
      orderingKey: 'session:s',
      data: { sessionId: 's', participantId: 'p', displayName: 'Ann' },
    });
    assert.deepEqual(
      webhookMessage({ type: 'participant.removed', organizationId: 'o', meetingId: 'm', participantId: 'p', displayName: 'Eve', byUserId: 'u', at }),
      { type: 'participant.removed', orderingKey: 'meeting:m', data: { meetingId: 'm', participantId: 'p', byUserId: 'u' } },
    );
    assert.equal(webhookMessage({ type: 'meeting.locked', organizationId: 'o', meetingId: 'm', byUserId: 'u', at })?.type, 'meeting.locked');
    assert.equal(webhookMessage({ type: 'waiting.changed', organizationId: 'o', spaceId: 's', at }), undefined);
    assert.equal(webhookMessage({ type: 'api_key.revoked', organizationId: 'o', publicKey: 'fk_x', at }), undefined);
  });
});

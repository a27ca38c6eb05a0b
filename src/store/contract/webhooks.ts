/**
 * @module store/contract/webhooks
 * The storage contract: webhook endpoints scoped by organization, and the
 * outbox of deliveries: claimed once under a lease, in order per ordering
 * key, finished only by the lease holder.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../../domain/webhooks/types.ts';
import { T0, later, meeting, org, seed, type ContractEnv } from './fixtures.ts';

function endpoint(organizationId: string, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    id: randomUUID(),
    organizationId,
    url: 'https://hooks.example.test/foyer',
    events: ['meeting.created', 'meeting.ended'],
    description: 'Practice software',
    enabled: true,
    disabledReason: null,
    secrets: [{ sealed: 'v1.a.b.c', createdAt: T0, expiresAt: null }],
    failingSince: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

function delivery(e: WebhookEndpoint, overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: randomUUID(),
    eventId: `msg_${randomUUID()}`,
    organizationId: e.organizationId,
    endpointId: e.id,
    eventType: 'meeting.created',
    orderingKey: `meeting:${randomUUID()}`,
    payload: '{"type":"meeting.created"}',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: T0,
    lastStatus: null,
    lastError: null,
    lastLatencyMs: null,
    lastAttemptAt: null,
    deliveredAt: null,
    createdAt: T0,
    ...overrides,
  };
}

const delivered = (attempts: number) => ({
  status: 'delivered' as const,
  attempts,
  nextAttemptAt: later(10),
  lastStatus: 204,
  lastError: null,
  lastLatencyMs: 12,
  lastAttemptAt: later(10),
  deliveredAt: later(10),
});

export function webhooksContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  const claim = (token: string, at = later(1), limit = 10) =>
    store.claimWebhookDeliveries({ now: at, leaseUntil: new Date(at.getTime() + 60_000), leaseToken: token, limit });

  describe('webhooks', () => {
    it("keeps an organization's endpoints, and another organization's are not found", async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const mine = endpoint(o.id);
      await store.insertWebhookEndpoint(mine);
      await store.insertWebhookEndpoint(endpoint(other.id));
      assert.deepEqual(await store.findWebhookEndpoint(o.id, mine.id), mine);
      assert.equal(await store.findWebhookEndpoint(other.id, mine.id), undefined);
      assert.deepEqual(await store.listWebhookEndpoints(o.id), [mine]);
      assert.equal(await store.deleteWebhookEndpoint(other.id, mine.id), undefined);
    });

    it('updates only the fields given, and enabling again forgets the failing run', async () => {
      const { o } = await seed(store);
      const e = endpoint(o.id, { enabled: false, disabledReason: 'failing', failingSince: later(5) });
      await store.insertWebhookEndpoint(e);
      const updated = await store.updateWebhookEndpoint(o.id, e.id, { enabled: true, disabledReason: null, events: ['meeting.started'] }, later(9));
      assert.deepEqual(updated, { ...e, enabled: true, disabledReason: null, failingSince: null, events: ['meeting.started'], updatedAt: later(9) });
    });

    it('records failing since the first failure, kept until a success', async () => {
      const { o } = await seed(store);
      const e = endpoint(o.id);
      await store.insertWebhookEndpoint(e);
      assert.deepEqual((await store.recordEndpointHealth(e.id, false, later(1)))?.failingSince, later(1));
      assert.deepEqual((await store.recordEndpointHealth(e.id, false, later(2)))?.failingSince, later(1));
      assert.equal((await store.recordEndpointHealth(e.id, true, later(3)))?.failingSince, null);
    });

    it('leases a due delivery to one claimer only, until the lease runs out', async () => {
      const { o } = await seed(store);
      const e = endpoint(o.id);
      await store.insertWebhookEndpoint(e);
      const d = delivery(e);
      await store.insertWebhookDeliveries([d, delivery(e, { nextAttemptAt: later(100_000) })]);
      const [first, second] = await Promise.all([claim('a'), claim('b')]);
      assert.deepEqual([...first!, ...second!].map((c) => c.delivery.id), [d.id]);
      assert.deepEqual([...first!, ...second!][0]!.endpoint, e);
      assert.deepEqual(await claim('c', later(30_000)), [], 'the lease still runs');
      assert.deepEqual((await claim('c', later(61_001))).map((c) => c.delivery.id), [d.id], 'the lease ran out');
    });

    it('writes an outcome only for the holder of the lease', async () => {
      const { o } = await seed(store);
      const e = endpoint(o.id);
      await store.insertWebhookEndpoint(e);
      const d = delivery(e);
      await store.insertWebhookDeliveries([d]);
      await claim('holder');
      assert.equal(await store.finishWebhookDelivery(d.id, 'someone-else', delivered(1)), false);
      assert.equal(await store.finishWebhookDelivery(d.id, 'holder', delivered(1)), true);
      const [logged] = await store.listWebhookDeliveries(o.id, e.id, 10);
      assert.equal(logged?.status, 'delivered');
      assert.equal(logged?.lastStatus, 204);
      assert.equal(logged?.lastLatencyMs, 12);
      assert.deepEqual(await claim('again', later(100_000)), []);
    });

    it('holds back a delivery while an earlier one of its ordering key is pending', async () => {
      const { o } = await seed(store);
      const e = endpoint(o.id);
      await store.insertWebhookEndpoint(e);
      const first = delivery(e, { orderingKey: 'meeting:1', nextAttemptAt: later(5_000) });
      const second = delivery(e, { orderingKey: 'meeting:1' });
      const unrelated = delivery(e, { orderingKey: 'meeting:2' });
      await store.insertWebhookDeliveries([first, second, unrelated]);
      assert.deepEqual((await claim('a')).map((c) => c.delivery.id), [unrelated.id]);
      const [c1] = await claim('b', later(5_000));
      assert.equal(c1?.delivery.id, first.id);
      await store.finishWebhookDelivery(first.id, 'b', delivered(1));
      assert.deepEqual((await claim('c', later(5_001))).map((c) => c.delivery.id), [second.id]);
    });

    it("does not claim deliveries of a disabled endpoint; deleting an endpoint deletes its deliveries", async () => {
      const { o } = await seed(store);
      const e = endpoint(o.id, { enabled: false });
      await store.insertWebhookEndpoint(e);
      const d = delivery(e);
      await store.insertWebhookDeliveries([d]);
      assert.deepEqual(await claim('a'), []);
      assert.deepEqual((await store.deleteWebhookEndpoint(o.id, e.id))?.id, e.id);
      assert.deepEqual(await store.listWebhookDeliveries(o.id, e.id, 10), []);
    });

    it("resends a finished delivery of the organization, not another organization's", async () => {
      const { o } = await seed(store);
      const e = endpoint(o.id);
      await store.insertWebhookEndpoint(e);
      const d = delivery(e);
      await store.insertWebhookDeliveries([d]);
      await claim('a');
      await store.finishWebhookDelivery(d.id, 'a', { ...delivered(3), status: 'failed', deliveredAt: null, lastStatus: 500, lastError: 'HTTP 500' });
      assert.equal(await store.resendWebhookDelivery(randomUUID(), d.id, later(20)), undefined);
      const again = await store.resendWebhookDelivery(o.id, d.id, later(20));
      assert.equal(again?.status, 'pending');
      assert.equal(again?.attempts, 0);
      assert.equal(again?.eventId, d.eventId);
      assert.deepEqual((await claim('b', later(20))).map((c) => c.delivery.id), [d.id]);
    });

    it('prunes finished deliveries older than a moment, never pending ones', async () => {
      const { o } = await seed(store);
      const e = endpoint(o.id);
      await store.insertWebhookEndpoint(e);
      const old = delivery(e, { status: 'delivered', createdAt: later(1) });
      const oldPending = delivery(e, { createdAt: later(1) });
      const recent = delivery(e, { status: 'failed', createdAt: later(100) });
      await store.insertWebhookDeliveries([old, oldPending, recent]);
      assert.equal(await store.pruneWebhookDeliveries(later(50)), 1);
      assert.deepEqual((await store.listWebhookDeliveries(o.id, e.id, 10)).map((d) => d.id).sort(), [oldPending.id, recent.id].sort());
    });

    it("marks a meeting started the first time only", async () => {
      const { o } = await seed(store);
      const m = meeting(o.id);
      await store.insertMeeting(m);
      assert.equal(await store.markMeetingStarted(m.id, later(1)), true);
      assert.equal(await store.markMeetingStarted(m.id, later(2)), false);
    });
  });
}

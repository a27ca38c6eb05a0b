/**
 * The outbox and its workers on both databases: messages written with the
 * change or not at all; two workers (two instances, each with its own
 * connection) never send the same event twice; order per meeting kept
 * under concurrency; an endpoint that keeps failing disabled with a
 * reason.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { createContext, type FoyerContext } from '../../src/context.ts';
import { operatorActor } from '../../src/domain/actors.ts';
import { raise, transact } from '../../src/domain/context.ts';
import { createMeeting, deleteMeeting } from '../../src/domain/meetings.ts';
import { createOrganization } from '../../src/domain/organizations.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import type { Organization } from '../../src/domain/types.ts';
import { createWebhookEndpoint } from '../../src/domain/webhooks/endpoints.ts';
import { openStore } from '../../src/store/open.ts';
import { WebhookWorker, type WebhookWorkerOptions } from '../../src/webhooks/worker.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { Receiver, waitUntil } from './receiver.ts';

const quiet = { info() {}, warn() {}, error() {} };
const options: WebhookWorkerOptions = {
  allowPrivate: true,
  connectTimeoutMs: 1000,
  responseTimeoutMs: 2000,
  retryDelaysMs: [20, 20, 20, 20, 20],
  disableAfterMs: 60_000,
  leaseMs: 30_000,
  pollMs: 20,
  batchSize: 20,
};

for (const database of await testDatabases()) {
  describe(`webhook workers on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let second: StoreConnection | undefined;
    let ctx: FoyerContext;
    let org: Organization;
    let receiver: Receiver;
    const workers: WebhookWorker[] = [];
    const contextOn = (store: StoreConnection) =>
      createContext({ databaseUrl: db.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: 60, secretPepper: 'test', webhookAllowPrivate: true }, { store });
    const worker = (context: FoyerContext, extra: Partial<WebhookWorkerOptions> = {}) => {
      const w = new WebhookWorker(context, { ...options, ...extra }, quiet);
      workers.push(w);
      return w;
    };

    before(async () => {
      receiver = await Receiver.start();
    });
    after(() => receiver.close());
    beforeEach(async () => {
      db = await database.open();
      ctx = await contextOn(db.store);
      org = await createOrganization(ctx, { name: 'Acme', type: 'basic' });
      receiver.received.length = 0;
      receiver.behaviour = () => ({ status: 204 });
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await second?.close();
      second = undefined;
      await db.dispose();
    });

    async function endpoint(events = ['meeting.created', 'meeting.ended']) {
      const issued = await createWebhookEndpoint(ctx, operatorActor(org), { url: receiver.url, events });
      receiver.secrets = [issued.secret];
      return issued.endpoint;
    }

    it('writes nothing to the outbox when the change rolls back', async () => {
      const e = await endpoint();
      await assert.rejects(
        transact(ctx, async (tx) => {
          raise(tx, { type: 'meeting.created', organizationId: org.id, meetingId: '0b3a4c56-1111-4222-8333-944455556666', at: tx.now() });
          throw new Error('the change failed');
        }),
      );
      await createMeeting(ctx, operatorActor(org), {});
      assert.equal((await db.store.listWebhookDeliveries(org.id, e.id, 10)).length, 1);
    });

    it('two workers with their own connections never send the same event twice', async () => {
      await endpoint();
      if (database.name === 'postgres') second = await openStore(db.url);
      const other = second ? await contextOn(second) : ctx;
      const made = [];
      for (let i = 0; i < 60; i++) made.push(await createMeeting(ctx, operatorActor(org), {}));
      for (const m of made.slice(0, 30)) await deleteMeeting(ctx, operatorActor(org), m.id);
      worker(ctx).start();
      worker(other).start();
      await waitUntil(() => receiver.received.length >= 90, 20_000, '90 deliveries');
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(receiver.received.length, 90);
      assert.equal(new Set(receiver.received.map((r) => r.id)).size, 90, 'each event once');
      assert.ok(receiver.received.every((r) => r.verified));
      for (const m of made.slice(0, 30)) {
        assert.deepEqual(receiver.received.filter((r) => r.body.data.meetingId === m.id).map((r) => r.body.type), ['meeting.created', 'meeting.ended']);
      }
    });

    it('disables an endpoint that keeps failing, with the reason, and stops sending to it', async () => {
      const e = await endpoint();
      receiver.behaviour = () => ({ status: 503 });
      worker(ctx, { disableAfterMs: 100, retryDelaysMs: Array(50).fill(30) }).start();
      await createMeeting(ctx, operatorActor(org), {});
      let disabled;
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        disabled = await db.store.findWebhookEndpoint(org.id, e.id);
        if (!disabled?.enabled) break;
        await new Promise((r) => setTimeout(r, 30));
      }
      assert.equal(disabled?.enabled, false);
      assert.match(disabled!.disabledReason!, /HTTP 503/);
      const count = receiver.received.length;
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(receiver.received.length, count, 'nothing more is sent');
      const [delivery] = await db.store.listWebhookDeliveries(org.id, e.id, 1);
      assert.equal(delivery?.status, 'pending', 'kept for when the endpoint is enabled again');
    });

    it('fails a delivery at once on a 4xx other than 408 and 429', async () => {
      const e = await endpoint();
      receiver.behaviour = () => ({ status: 410 });
      worker(ctx).start();
      await createMeeting(ctx, operatorActor(org), {});
      await waitUntil(() => receiver.received.length === 1, 10_000, 'one attempt');
      await new Promise((r) => setTimeout(r, 150));
      assert.equal(receiver.received.length, 1);
      const [delivery] = await db.store.listWebhookDeliveries(org.id, e.id, 1);
      assert.deepEqual([delivery?.status, delivery?.attempts, delivery?.lastStatus], ['failed', 1, 410]);
    });
  });
}

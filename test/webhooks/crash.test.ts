/**
 * Durability across a crash: a Foyer process (`src/main.ts`) is killed
 * with SIGKILL while its webhook deliveries are in flight or waiting for a
 * retry; the restarted process delivers every one of them, each accepted
 * once, after the dead process's leases run out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createContext } from '../../src/context.ts';
import { operatorActor } from '../../src/domain/actors.ts';
import { createWebhookEndpoint } from '../../src/domain/webhooks/endpoints.ts';
import { openStore } from '../../src/store/open.ts';
import { freshDatabaseUrl, type FreshDatabaseUrl } from '../support/databases.ts';
import { startFoyer, type FoyerProcess } from '../support/processes.ts';
import { request, seedOrganization, type SeededOrganization } from '../support/server.ts';
import { Receiver, waitUntil } from './receiver.ts';

const PEPPER = 'crash-test-pepper';

describe('webhooks across a SIGKILL', () => {
  let database: FreshDatabaseUrl;
  let receiver: Receiver;
  let org: SeededOrganization;
  let running: FoyerProcess | undefined;
  const env = () => ({
    DATABASE_URL: database.url,
    API_SECRET_PEPPER: PEPPER,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_CONNECT_TIMEOUT_MS: '200',
    WEBHOOK_RESPONSE_TIMEOUT_MS: '500',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
    WEBHOOK_POLL_MS: '100',
    LOG_LEVEL: 'silent',
  });

  before(async () => {
    database = await freshDatabaseUrl('sqlite');
    receiver = await Receiver.start();
    const store = await openStore(database.url, { migrate: true });
    const ctx = await createContext({ databaseUrl: database.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: PEPPER, webhookAllowPrivate: true }, { store });
    org = await seedOrganization(ctx, 'basic');
    const { secret } = await createWebhookEndpoint(ctx, operatorActor(org.organization), { url: receiver.url, events: ['meeting.created', 'meeting.ended'] });
    receiver.secrets = [secret];
    await store.close();
  });
  after(async () => {
    if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
    await receiver.close();
    await database.dispose();
  });

  it('delivers what a killed instance had claimed or not yet sent, once each, after a restart', async () => {
    // The receiver is slow: the first instance's attempts time out or are in flight when it dies.
    receiver.behaviour = () => ({ status: 503, delayMs: 3000 });
    const first = await startFoyer(env());
    running = first;
    const meetingIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await request(`${first.base}/api/v3/meeting`, 'POST', { headers: org.headers, json: {} });
      assert.equal(created.status, 201, created.text);
      meetingIds.push(created.body.meetingId ?? created.body.id);
      await request(`${first.base}/api/v3/meeting/${meetingIds.at(-1)}`, 'DELETE', { headers: org.headers });
    }
    await waitUntil(() => receiver.arrivals > 0, 10_000, 'attempts in flight');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    receiver.behaviour = () => ({ status: 204 });
    const second = await startFoyer(env());
    running = second;
    const ours = () => receiver.accepted.filter((r) => meetingIds.includes(r.body?.data?.meetingId));
    await waitUntil(() => ours().length >= 10, 20_000, 'every event after the restart');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(ours().length, 10, 'each of the 10 events accepted once');
    assert.equal(new Set(ours().map((r) => r.id)).size, 10);
    assert.ok(ours().every((r) => r.verified));
    for (const id of meetingIds) {
      assert.deepEqual(ours().filter((r) => r.body.data.meetingId === id).map((r) => r.body.type), ['meeting.created', 'meeting.ended']);
    }
    assert.equal(await second.stop(), 0);
    running = undefined;
  });
});

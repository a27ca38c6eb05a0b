/**
 * The dashboard's webhooks, through real HTTP: an administrator adds an
 * endpoint and sees its signing secret once, in the answer to the form;
 * refused input shows beside its field with nothing added; the delivery
 * log shows what a real receiver got, and "resend" sends it again;
 * disabling, rotating (a new secret, shown once) and deleting after being
 * asked. A USER is refused (see route-table.test.ts for every route).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { signedIn, type DashboardClient } from '../support/dashboard-client.ts';
import { errorBeside, tableRows, textById } from '../support/html.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { Receiver, waitUntil } from '../webhooks/receiver.ts';

const USERS = [
  { email: 'ada.hooks@clinic.test', fullName: 'Ada Hooks', role: 'ADMIN' as const },
  { email: 'uma.hooks@clinic.test', fullName: 'Uma Hooks', role: 'USER' as const },
];

describe('dashboard webhooks', () => {
  let db: TestDatabase;
  let server: TestServer;
  let org: SeededOrganization;
  let ada: DashboardClient;
  let uma: DashboardClient;
  let receiver: Receiver;

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { passwordHashCost: 14, webhookAllowPrivate: true, webhookPollMs: 50 });
    org = await seedOrganization(server.ctx, 'medical', USERS);
    ada = await signedIn(server.origin, server.ctx, org.organization, USERS[0]!.email);
    uma = await signedIn(server.origin, server.ctx, org.organization, USERS[1]!.email);
    receiver = await Receiver.start();
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await db.dispose();
  });

  it('shows an empty state, then adds an endpoint showing its secret once; the receiver verifies with it', async () => {
    const empty = await ada.get('/dashboard/webhooks?lang=en');
    assert.equal(empty.status, 200);
    assert.match(empty.text, /No webhook endpoints yet/);
    const form = await ada.get('/dashboard/webhooks/new');
    const formId = /name="formId" value="([^"]+)"/.exec(form.text)![1]!;
    const sent = { url: receiver.url, description: 'Practice software', events: ['meeting.created', 'meeting.ended'], formId };
    const created = await ada.post('/dashboard/webhooks', sent);
    assert.equal(created.status, 201, created.text.slice(0, 400));
    assert.equal(created.location, undefined);
    assert.equal(created.headers.get('cache-control'), 'no-store');
    const secret = textById(created.text, 'new-secret')!;
    assert.match(secret, /^whsec_/);
    receiver.secrets = [secret];
    const again = await ada.post('/dashboard/webhooks', sent);
    assert.equal(again.location, '/dashboard/webhooks?alreadyCreated', 'a reloaded answer adds no second endpoint');

    const list = await ada.get('/dashboard/webhooks');
    const rows = tableRows(list.text, 'webhooks');
    assert.equal(rows.length, 1);
    assert.match(rows[0]!.text, /Practice software/);
    assert.match(rows[0]!.text, /Enabled/);
    assert.doesNotMatch(list.text, /whsec_/);

    const meeting = await createMeeting(server.ctx, operatorActor(org.organization), { ownerEmail: USERS[0]!.email });
    await waitUntil(() => receiver.received.some((r) => r.body?.data?.meetingId === meeting.id), 10_000, 'delivery');
    assert.equal(receiver.received.at(-1)!.verified, true);

    const id = /id="webhook-([0-9a-f-]+)"/.exec(list.text)![1]!;
    const detail = await ada.get(`/dashboard/webhooks/${id}`);
    assert.doesNotMatch(detail.text, /whsec_/);
    const log = tableRows(detail.text, 'deliveries');
    assert.equal(log.length, 1);
    assert.match(log[0]!.text, /meeting\.created.*Delivered.*1.*204/s);

    const deliveryId = /id="delivery-([0-9a-f-]+)"/.exec(detail.text)![1]!;
    const resent = await ada.post(`/dashboard/webhooks/${id}/deliveries/${deliveryId}/resend`, {});
    assert.equal(resent.status, 303);
    await waitUntil(() => receiver.received.filter((r) => r.body?.data?.meetingId === meeting.id).length === 2, 10_000, 'resend');
    assert.equal(new Set(receiver.received.map((r) => r.id)).size, 1, 'resent with the same webhook-id');
  });

  it('shows refused input beside its field and adds nothing', async () => {
    const before = (await server.ctx.store.listWebhookEndpoints(org.organization.id)).length;
    await ada.get('/dashboard/webhooks/new');
    const refused = await ada.post('/dashboard/webhooks', { url: 'not a url', description: '' });
    assert.equal(refused.status, 400);
    assert.ok(errorBeside(refused.text, 'url'));
    assert.ok(errorBeside(refused.text, 'events'));
    assert.equal((await server.ctx.store.listWebhookEndpoints(org.organization.id)).length, before);
  });

  it('disables and enables an endpoint, rotates its secret (shown once) and deletes it', async () => {
    const [endpoint] = await server.ctx.store.listWebhookEndpoints(org.organization.id);
    const id = endpoint!.id;
    await ada.get(`/dashboard/webhooks/${id}`);
    const disabled = await ada.post(`/dashboard/webhooks/${id}/disable`, {});
    assert.equal(disabled.location, `/dashboard/webhooks/${id}?disabled`);
    const page = await ada.get(disabled.location!);
    assert.match(textById(page.text, 'disabled-reason')!, /Ada Hooks/);
    await ada.post(`/dashboard/webhooks/${id}/enable`, {});
    assert.equal((await server.ctx.store.findWebhookEndpoint(org.organization.id, id))!.enabled, true);

    const details = await ada.get(`/dashboard/webhooks/${id}`);
    const rotateForm = { formId: /name="formId" value="([^"]+)"/.exec(details.text)![1]! };
    const rotated = await ada.post(`/dashboard/webhooks/${id}/rotate`, rotateForm);
    assert.equal(rotated.status, 200);
    const secret = textById(rotated.text, 'new-secret')!;
    assert.match(secret, /^whsec_/);
    assert.notEqual(secret, receiver.secrets[0]);
    assert.equal((await server.ctx.store.findWebhookEndpoint(org.organization.id, id))!.secrets.length, 2, 'the old secret signs during the overlap');
    // Reloading the answer sends the form again: no second rotation, and the secret is not shown again.
    const again = await ada.post(`/dashboard/webhooks/${id}/rotate`, rotateForm);
    assert.equal(again.location, `/dashboard/webhooks/${id}?alreadyRotated`);
    assert.equal((await server.ctx.store.findWebhookEndpoint(org.organization.id, id))!.secrets.length, 2, 'rotated once');
    assert.ok(!(await ada.get(again.location!)).text.includes(secret));

    assert.equal((await uma.get('/dashboard/webhooks')).status, 403);
    assert.doesNotMatch((await uma.get('/dashboard')).text, /href="\/dashboard\/webhooks"/);

    const deleted = await ada.post(`/dashboard/webhooks/${id}/delete`, {});
    assert.equal(deleted.location, '/dashboard/webhooks?deleted');
    assert.equal(await server.ctx.store.findWebhookEndpoint(org.organization.id, id), undefined);
  });
});

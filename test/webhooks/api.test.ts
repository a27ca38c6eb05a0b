/**
 * /v3/webhooks, the REST extension: the shapes of the answers (the secret
 * only at creation and rotation), what is refused, and another
 * organization's endpoints not existing for the caller; a rotated secret
 * and the old one both signing during the overlap.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { request, seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { Receiver, verify, waitUntil } from './receiver.ts';

describe('/v3/webhooks', () => {
  let db: TestDatabase;
  let server: TestServer;
  let strict: TestServer;
  let org: SeededOrganization;
  let other: SeededOrganization;
  let receiver: Receiver;
  const hooks = () => `${server.baseUrl}/v3/webhooks`;

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { webhookAllowPrivate: true, webhookPollMs: 50 });
    strict = await startServer(db.store, { webhookPollMs: 60_000 });
    org = await seedOrganization(server.ctx, 'basic');
    other = await seedOrganization(server.ctx, 'basic');
    receiver = await Receiver.start();
  });
  after(async () => {
    await server.close();
    await strict.close();
    await receiver.close();
    await db.dispose();
  });

  it('creates an endpoint and answers its secret only then', async () => {
    const created = await request(hooks(), 'POST', { headers: org.headers, json: { url: receiver.url, events: ['meeting.ended', 'meeting.created'], description: 'CRM' } });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), ['enabled', 'events', 'id', 'secret', 'url']);
    assert.deepEqual(created.body.events, ['meeting.created', 'meeting.ended']);
    assert.equal(created.body.enabled, true);
    assert.equal(Buffer.from(created.body.secret.slice(6), 'base64').length, 32);

    const read = await request(`${hooks()}/${created.body.id}`, 'GET', { headers: org.headers });
    assert.equal(read.status, 200);
    assert.equal(read.body.description, 'CRM');
    assert.doesNotMatch(read.text, /whsec_/);
    const listed = await request(hooks(), 'GET', { headers: org.headers });
    assert.deepEqual(listed.body.webhooks.map((w: any) => w.id), [created.body.id]);
    assert.doesNotMatch(listed.text, /whsec_/);
    assert.doesNotMatch(JSON.stringify(await db.store.findWebhookEndpoint(org.organization.id, created.body.id)), new RegExp(created.body.secret.slice(6, 30).replace(/[+/]/g, '.')), 'not stored in plain text');

    const disabled = await request(`${hooks()}/${created.body.id}`, 'POST', { headers: org.headers, json: { enabled: false } });
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.enabled, false);
    assert.match(disabled.body.disabledReason, /API client/);
    const deleted = await request(`${hooks()}/${created.body.id}`, 'DELETE', { headers: org.headers });
    assert.equal(deleted.status, 200);
    assert.equal((await request(`${hooks()}/${created.body.id}`, 'GET', { headers: org.headers })).status, 404);
  });

  it("answers 404 for another organization's endpoint", async () => {
    const created = await request(hooks(), 'POST', { headers: other.headers, json: { url: receiver.url, events: ['meeting.created'] } });
    const url = `${hooks()}/${created.body.id}`;
    assert.equal((await request(url, 'GET', { headers: org.headers })).status, 404);
    assert.equal((await request(url, 'POST', { headers: org.headers, json: { enabled: false } })).status, 404);
    assert.equal((await request(url, 'DELETE', { headers: org.headers })).status, 404);
    assert.equal((await request(`${url}/secret`, 'POST', { headers: org.headers, json: {} })).status, 404);
    assert.equal((await request(`${url}/deliveries`, 'GET', { headers: org.headers })).status, 404);
    assert.deepEqual((await request(hooks(), 'GET', { headers: org.headers })).body.webhooks.filter((w: any) => w.id === created.body.id), []);
    assert.equal((await request(url, 'GET', { headers: other.headers })).status, 200);
    assert.equal((await request(`${hooks()}/not-a-uuid`, 'GET', { headers: org.headers })).status, 404);
  });

  it('refuses unknown events, missing fields, and private or plain-http URLs unless the operator allows them', async () => {
    const unknown = await request(hooks(), 'POST', { headers: org.headers, json: { url: receiver.url, events: ['meeting.exploded'] } });
    assert.equal(unknown.status, 400);
    assert.match(unknown.text, /events/);
    assert.equal((await request(hooks(), 'POST', { headers: org.headers, json: { url: receiver.url, events: [] } })).status, 400);
    assert.equal((await request(hooks(), 'POST', { headers: org.headers, json: { events: ['meeting.created'] } })).status, 400);
    const privateUrl = await request(`${strict.baseUrl}/v3/webhooks`, 'POST', { headers: org.headers, json: { url: receiver.url, events: ['meeting.created'] } });
    assert.equal(privateUrl.status, 400);
    assert.match(privateUrl.text, /https|private/);
    const local = await request(`${strict.baseUrl}/v3/webhooks`, 'POST', { headers: org.headers, json: { url: 'https://10.0.0.8/hook', events: ['meeting.created'] } });
    assert.equal(local.status, 400);
    assert.match(local.text, /private/);
  });

  it('signs with the new and the old secret during the overlap of a rotation, with the new one alone after it', async () => {
    const created = await request(hooks(), 'POST', { headers: org.headers, json: { url: receiver.url, events: ['meeting.created'] } });
    const oldSecret: string = created.body.secret;
    const rotated = await request(`${hooks()}/${created.body.id}/secret`, 'POST', { headers: org.headers, json: { overlapHours: 1 } });
    assert.equal(rotated.status, 200, rotated.text);
    const newSecret: string = rotated.body.secret;
    assert.notEqual(newSecret, oldSecret);
    receiver.secrets = [newSecret];

    const made = await request(`${server.baseUrl}/v3/meeting`, 'POST', { headers: org.headers, json: {} });
    const meetingId = made.body.meetingId ?? made.body.id;
    await waitUntil(() => receiver.received.some((r) => r.body?.data?.meetingId === meetingId), 10_000, 'delivery');
    const got = receiver.received.find((r) => r.body?.data?.meetingId === meetingId)!;
    assert.equal(got.verified, true);
    // Each secret verifies on its own: the header carries one signature per secret.
    const deliveries = await request(`${hooks()}/${created.body.id}/deliveries`, 'GET', { headers: org.headers });
    assert.equal(deliveries.body.deliveries[0].status, 'delivered');
    assert.equal(got.signatures, 2, 'one signature per secret during the overlap');
    receiver.secrets = [oldSecret];
    const resend = await request(`${hooks()}/${created.body.id}/deliveries/${deliveries.body.deliveries[0].id}/resend`, 'POST', { headers: org.headers });
    assert.equal(resend.status, 200, resend.text);
    await waitUntil(() => receiver.received.filter((r) => r.id === got.id).length === 2, 10_000, 'resend');
    assert.equal(receiver.received.filter((r) => r.id === got.id)[1]!.verified, true, 'the old secret still verifies');

    const immediate = await request(`${hooks()}/${created.body.id}/secret`, 'POST', { headers: org.headers, json: { overlapHours: 0 } });
    receiver.secrets = [newSecret];
    const again = await request(`${hooks()}/${created.body.id}/deliveries/${deliveries.body.deliveries[0].id}/resend`, 'POST', { headers: org.headers });
    assert.equal(again.status, 200);
    await waitUntil(() => receiver.received.filter((r) => r.id === got.id).length === 3, 10_000, 'second resend');
    assert.equal(immediate.status, 200, immediate.text);
    const third = receiver.received.filter((r) => r.id === got.id)[2]!;
    assert.equal(third.verified, false, 'replaced secrets stop signing');
    assert.equal(third.signatures, 1, 'the new secret alone after an overlap of none');
    receiver.secrets = [immediate.body.secret];
    assert.equal(verify(immediate.body.secret, third.headers, third.raw), true, 'signed with the newest secret');
  });
});

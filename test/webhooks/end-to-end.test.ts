/**
 * Webhooks end to end: an organization registers a receiver through
 * /v3/webhooks, a meeting is created through the API, joined and left
 * over signalling and closed by the idle rule; the receiver (a real HTTP
 * server) gets every event once, in order, signed by the Standard
 * Webhooks rules; and a receiver that fails for a while still gets each
 * event exactly once after it recovers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { request, seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { TestClient } from '../realtime/ws-client.ts';
import { Receiver, waitUntil } from './receiver.ts';

const MEETING_EVENTS = ['meeting.created', 'meeting.started', 'participant.joined', 'participant.left', 'meeting.ended'];

describe('webhooks end to end', () => {
  let db: TestDatabase;
  let server: TestServer;
  let org: SeededOrganization;
  let receiver: Receiver;

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(
      db.store,
      { webhookAllowPrivate: true, idleCloseSeconds: 1, webhookPollMs: 50, webhookRetryDelaysMs: [50, ...Array(30).fill(100)] },
      { realtime: { sweepIntervalMs: 100, pingIntervalMs: 500 } },
    );
    org = await seedOrganization(server.ctx, 'basic');
    receiver = await Receiver.start();
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await db.dispose();
  });

  async function register(events: string[]): Promise<string> {
    const created = await request(`${server.baseUrl}/v3/webhooks`, 'POST', { headers: org.headers, json: { url: receiver.url, events, description: 'Practice software' } });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    receiver.secrets = [created.body.secret];
    return created.body.id;
  }

  it('tells the receiver of a meeting created, started, joined, left and ended, each once, in order, signed', async () => {
    const endpointId = await register(MEETING_EVENTS);
    const created = await request(`${server.baseUrl}/v3/meeting`, 'POST', { headers: org.headers, json: {} });
    assert.equal(created.status, 201, created.text);
    const meetingId = created.body.meetingId ?? created.body.id;

    const client = await TestClient.connect(server.origin);
    const welcome = await client.join({ meetingId }, 'Ann');
    assert.equal(welcome.type, 'welcome', JSON.stringify(welcome));
    client.close();
    await client.closed;

    const forMeeting = () => receiver.accepted.filter((r) => r.body?.data?.meetingId === meetingId);
    await waitUntil(() => forMeeting().some((r) => r.body.type === 'meeting.ended'), 15_000, 'meeting.ended');
    await new Promise((r) => setTimeout(r, 200)); // would show a late duplicate

    const got = forMeeting();
    assert.deepEqual(got.map((r) => r.body.type), MEETING_EVENTS);
    assert.ok(got.every((r) => r.verified), 'every delivery verifies with the secret');
    assert.equal(new Set(got.map((r) => r.id)).size, got.length, 'distinct webhook-ids');
    assert.ok(got.every((r) => r.body.id === r.id && r.body.organizationId === org.organization.id));
    assert.equal(got[2]!.body.data.displayName, 'Ann');
    assert.equal(got[4]!.body.data.reason, 'closed');
    assert.doesNotMatch(got.map((r) => r.raw).join('\n'), /@|secret|whsec/i, 'no emails or secrets in payloads');

    const log = await request(`${server.baseUrl}/v3/webhooks/${endpointId}/deliveries`, 'GET', { headers: org.headers });
    assert.equal(log.status, 200);
    const ofMeeting = log.body.deliveries.filter((d: any) => got.some((r) => r.id === d.eventId));
    assert.equal(ofMeeting.length, 5);
    assert.ok(ofMeeting.every((d: any) => d.status === 'delivered' && d.attempts === 1 && d.lastStatus === 204));
    await request(`${server.baseUrl}/v3/webhooks/${endpointId}`, 'DELETE', { headers: org.headers });
  });

  it('delivers every event exactly once after a receiver that answered 500 for a while recovers', async () => {
    const endpointId = await register(['meeting.created', 'meeting.ended']);
    let failing = true;
    receiver.behaviour = () => ({ status: failing ? 500 : 200 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await request(`${server.baseUrl}/v3/meeting`, 'POST', { headers: org.headers, json: {} });
      ids.push(created.body.meetingId ?? created.body.id);
      await request(`${server.baseUrl}/v3/meeting/${ids.at(-1)}`, 'DELETE', { headers: org.headers });
    }
    await waitUntil(() => receiver.received.filter((r) => r.status === 500 && ids.includes(r.body?.data?.meetingId)).length >= 20, 10_000, 'failed attempts');
    failing = false;
    const ours = () => receiver.accepted.filter((r) => ids.includes(r.body?.data?.meetingId));
    await waitUntil(() => ours().length >= 10, 15_000, 'recovery');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(ours().length, 10, 'each event accepted once');
    assert.equal(new Set(ours().map((r) => r.id)).size, 10);
    for (const id of ids) {
      assert.deepEqual(ours().filter((r) => r.body.data.meetingId === id).map((r) => r.body.type), ['meeting.created', 'meeting.ended'], 'in order per meeting');
    }
    assert.ok(ours().every((r) => r.verified));
    receiver.behaviour = () => ({ status: 204 });
    await request(`${server.baseUrl}/v3/webhooks/${endpointId}`, 'DELETE', { headers: org.headers });
  });
});

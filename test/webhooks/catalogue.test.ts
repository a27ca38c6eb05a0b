/**
 * Every event the host and a waiting list raise reaches a receiver that
 * checks it with the reference Standard Webhooks library
 * (`standardwebhooks`), on SQLite and PostgreSQL: the host's admit, turn
 * away and mute request are events an endpoint subscribes to; the host's
 * End names them in `meeting.ended` while an idle close names nobody; a
 * wait that ends says its final state (as the signalling protocol names
 * it) and, in a word, why.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { startSession } from '../../src/domain/sign-in.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/types.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { request, seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { TestClient } from '../realtime/ws-client.ts';
import { Receiver, waitUntil, type Received } from './receiver.ts';

for (const database of await testDatabases()) {
  describe(`webhook catalogue as the reference library reads it (${database.name})`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let org: SeededOrganization;
    let receiver: Receiver;
    let verifier: Webhook;
    const clients: TestClient[] = [];

    before(async () => {
      db = await database.open();
      server = await startServer(
        db.store,
        { webhookAllowPrivate: true, idleCloseSeconds: 1, webhookPollMs: 50 },
        { realtime: { sweepIntervalMs: 100, pingIntervalMs: 500 } },
      );
      org = await seedOrganization(server.ctx, 'basic');
      receiver = await Receiver.start();
      const created = await request(`${server.baseUrl}/v3/webhooks`, 'POST', {
        headers: org.headers,
        json: { url: receiver.url, events: [...WEBHOOK_EVENT_TYPES], description: 'Everything' },
      });
      assert.equal(created.status, 201, created.text);
      receiver.secrets = [created.body.secret];
      verifier = new Webhook(created.body.secret);
    });
    after(async () => {
      for (const c of clients) c.close();
      await server.close();
      await receiver.close();
      await db.dispose();
    });

    /** The deliveries about `key` (a meetingId or spaceId), each verified by the reference library. */
    const about = (field: string, value: string): Received[] => receiver.accepted.filter((r) => r.body?.data?.[field] === value);
    const verified = (r: Received): any => verifier.verify(r.raw, r.headers as Record<string, string>);

    const connect = async (member = false) => {
      const cookies = [`foyer_participant=${randomBytes(18).toString('base64url')}`];
      if (member) cookies.push(`foyer_session=${(await startSession(server.ctx, org.users[0]!, 'password')).token}`);
      const c = await TestClient.connect(server.origin, { headers: { origin: server.origin, cookie: cookies.join('; ') } });
      clients.push(c);
      return c;
    };
    const newMeeting = async () => {
      const created = await request(`${server.baseUrl}/v3/meeting`, 'POST', { headers: org.headers, json: {} });
      assert.equal(created.status, 201, created.text);
      return created.body.id as string;
    };

    it('offers every documented event for subscription, the host’s admit, turn away and mute request included', async () => {
      for (const type of ['participant.admitted', 'participant.turned_away', 'participant.mute_requested']) {
        const created = await request(`${server.baseUrl}/v3/webhooks`, 'POST', { headers: org.headers, json: { url: receiver.url, events: [type] } });
        assert.equal(created.status, 201, `${type}: ${created.text}`);
        assert.deepEqual(created.body.events, [type]);
        assert.equal((await request(`${server.baseUrl}/v3/webhooks/${created.body.id}`, 'DELETE', { headers: org.headers })).status, 200);
      }
    });

    it('tells of the host’s admit, turn away, mute request and End, naming the host, each verified by standardwebhooks', async () => {
      const meetingId = await newMeeting();
      const host = await connect(true);
      const hostWelcome = await host.join({ meetingId }, 'Ann Host');
      assert.equal(hostWelcome.host, true, JSON.stringify(hostWelcome));
      const guest = await connect();
      const guestWelcome = await guest.join({ meetingId }, 'Gus');
      assert.equal(guestWelcome.type, 'welcome');
      host.send({ type: 'lock' });
      await host.next((m) => m.type === 'lock' && m.locked === true);

      const knocker = await connect();
      knocker.send({ type: 'join', meetingId, name: 'Kim', audio: true, video: true });
      await knocker.next((m) => m.type === 'knocking');
      const kimKnock = await host.latest('knocks', (m) => m.knocks.some((k: any) => k.name === 'Kim'));
      host.send({ type: 'admit', knockId: kimKnock.knocks[0].id });
      await knocker.next((m) => m.type === 'welcome');

      const stranger = await connect();
      stranger.send({ type: 'join', meetingId, name: 'Sly', audio: true, video: true });
      await stranger.next((m) => m.type === 'knocking');
      const slyKnock = await host.latest('knocks', (m) => m.knocks.some((k: any) => k.name === 'Sly'));
      host.send({ type: 'turn_away', knockId: slyKnock.knocks.find((k: any) => k.name === 'Sly').id });
      await stranger.next((m) => m.type === 'error' && m.code === 'turned_away');

      host.send({ type: 'ask_mute', participantId: guestWelcome.you.id });
      await guest.next((m) => m.type === 'mute_requested');
      host.send({ type: 'end' });
      await guest.next((m) => m.type === 'ended');

      await waitUntil(() => about('meetingId', meetingId).some((r) => r.body.type === 'meeting.ended'), 15_000, 'meeting.ended');
      const bodies = about('meetingId', meetingId).map(verified);
      const byType = (type: string) => bodies.filter((b) => b.type === type).map((b) => b.data);
      const hostId = org.users[0]!.id;
      assert.deepEqual(byType('participant.admitted'), [{ meetingId, knockId: kimKnock.knocks[0].id, displayName: 'Kim', byUserId: hostId }]);
      assert.deepEqual(byType('participant.turned_away'), [
        { meetingId, knockId: slyKnock.knocks.find((k: any) => k.name === 'Sly').id, displayName: 'Sly', byUserId: hostId },
      ]);
      assert.deepEqual(byType('participant.mute_requested'), [{ meetingId, participantId: guestWelcome.you.id, byUserId: hostId }]);
      assert.deepEqual(byType('meeting.ended'), [{ meetingId, reason: 'closed', byUserId: hostId }]);
    });

    it('names nobody when a meeting closes by the idle rule', async () => {
      const meetingId = await newMeeting();
      const guest = await connect();
      assert.equal((await guest.join({ meetingId }, 'Gus')).type, 'welcome');
      guest.send({ type: 'leave' });
      await waitUntil(() => about('meetingId', meetingId).some((r) => r.body.type === 'meeting.ended'), 20_000, 'idle meeting.ended');
      const ended = about('meetingId', meetingId).map(verified).filter((b) => b.type === 'meeting.ended');
      assert.deepEqual(ended.map((b) => b.data), [{ meetingId, reason: 'closed' }]);
    });

    it('says how a wait ended: its final state and, in a word, why', async () => {
      const board = await request(`${server.baseUrl}/v3/rooms/board`, 'POST', {
        headers: org.headers,
        json: { name: 'Reception', slug: `reception-${randomBytes(4).toString('hex')}`, membersIds: [org.users[0]!.id] },
      });
      assert.equal(board.status, 201, board.text);
      const boardId = board.body.id as string;
      const slug = (await request(`${server.baseUrl}/v3/rooms/board/${boardId}`, 'GET', { headers: org.headers })).body.slug as string;
      const wait = async (name: string) => {
        const c = await connect();
        c.send({ type: 'wait', slug, name, token: null });
        assert.equal((await c.next((m) => m.type === 'waiting' || m.type === 'error')).type, 'waiting');
        return c;
      };
      const pat = await wait('Pat');
      await wait('Sam');
      const line = await request(`${server.baseUrl}/v3/rooms/board/${boardId}/waiting`, 'GET', { headers: org.headers });
      const entry = (name: string) => line.body.waiting.find((w: any) => w.displayName === name).entryId as string;
      pat.send({ type: 'leave' });
      const declined = await request(`${server.baseUrl}/v3/rooms/board/${boardId}/waiting/${entry('Sam')}/decline`, 'POST', {
        headers: org.headers,
        json: { message: 'Please call us.' },
      });
      assert.equal(declined.status, 200, declined.text);

      await waitUntil(() => about('spaceId', boardId).filter((r) => r.body.type === 'waiting.client.left').length >= 2, 15_000, 'waiting.client.left');
      const left = about('spaceId', boardId).map(verified).filter((b) => b.type === 'waiting.client.left').map((b) => b.data);
      assert.deepEqual(
        left.sort((a, b) => a.outcome.localeCompare(b.outcome)),
        [
          { spaceId: boardId, entryId: entry('Pat'), state: 'left', outcome: 'client_left' },
          { spaceId: boardId, entryId: entry('Sam'), state: 'declined', outcome: 'declined' },
        ],
      );
    });

    it('fails the reference library’s check for a delivery altered on the way', () => {
      const one = receiver.accepted[0]!;
      assert.throws(() => verifier.verify(one.raw.replace('"data":{', '"data":{"x":1,'), one.headers as Record<string, string>));
    });
  });
}

/**
 * The v3 extensions that run meetings and waiting lists from a server,
 * through real HTTP on SQLite and PostgreSQL: every one answers 404 for
 * another organization's meeting, board, queue or client, exactly as for
 * an unknown one, and changes nothing there; bodies are checked (a
 * userId, a message); a meeting's state and closing time; and the calls
 * are counted in the organization's request totals and limited like any
 * other; the line shows each client's device and network check as their
 * page reported it. (Who is in a call, removing and ending, accepting for a member:
 * test/realtime/server-control.test.ts, across two instances.)
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { createMeeting, deleteMeeting } from '../../src/domain/meetings.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type SeededOrganization, type TestServer } from '../support/server.ts';
import { TestClient } from '../realtime/ws-client.ts';
import { assertProblem } from './harness.ts';

for (const database of await testDatabases()) {
  describe(`running meetings and waiting lists through the API, on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let clinic: SeededOrganization;
    let other: SeededOrganization;
    let api: Client;
    let otherApi: Client;

    before(async () => {
      db = await database.open();
      server = await startServer(db.store, { rateLimitPerMinute: 40 }, { limits: true });
      clinic = await seedOrganization(server.ctx, 'basic', [{ email: 'lee@clinic.test', fullName: 'Dr Lee' }]);
      other = await seedOrganization(server.ctx, 'basic', [{ email: 'zed@other.test', fullName: 'Dr Zed' }]);
      api = client(server.baseUrl, clinic);
      otherApi = client(server.baseUrl, other);
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    it('reads a meeting with its state: open with no closing time, then closed with when', async () => {
      const created = await api.post('/v3/meeting', { json: {} });
      const open = await api.get(`/v3/meeting/${created.body.id}`);
      assert.deepEqual(open.body, { ...created.body, state: 'open', closedAt: null });
      const ended = await api.post(`/v3/meeting/${created.body.id}/end`);
      assert.equal(ended.status, 200);
      assert.equal(ended.body.state, 'closed');
      const read = await api.get(`/v3/meeting/${created.body.id}`);
      assert.deepEqual(read.body, ended.body);
      assert.equal(new Date(read.body.closedAt).toISOString(), read.body.closedAt);
      assertProblem(await api.post(`/v3/meeting/${created.body.id}/end`), 409, 'conflict');
    });

    it('answers 404 for another organization’s meeting, board, queue and client, as for unknown ones, and changes nothing', async () => {
      const theirOperator = operatorActor(other.organization);
      const meeting = await createMeeting(server.ctx, theirOperator, {});
      const board = await createSpace(server.ctx, theirOperator, 'board', { name: 'Theirs', slug: `theirs-board-${database.name}` });
      await updateSpace(server.ctx, theirOperator, 'board', board.id, { memberIds: [other.users[0]!.id] });
      const queue = await createSpace(server.ctx, theirOperator, 'queue', { name: 'Theirs', slug: `theirs-queue-${database.name}` });
      const lee = clinic.users[0]!.id;
      const entry = randomUUID();
      for (const id of [meeting.id, randomUUID(), 'not-an-id']) {
        assertProblem(await api.get(`/v3/meeting/${id}/participants`), 404, 'not-found');
        assertProblem(await api.post(`/v3/meeting/${id}/end`), 404, 'not-found');
        assertProblem(await api.delete(`/v3/meeting/${id}/participants/c_anyone`), 404, 'not-found');
      }
      for (const id of [board.id, randomUUID(), 'not-an-id']) {
        assertProblem(await api.get(`/v3/rooms/board/${id}/waiting`), 404, 'not-found');
        assertProblem(await api.post(`/v3/rooms/board/${id}/waiting/${entry}/accept`, { json: { userId: lee } }), 404, 'not-found');
        assertProblem(await api.post(`/v3/rooms/board/${id}/waiting/${entry}/decline`), 404, 'not-found');
      }
      for (const id of [queue.id, randomUUID()]) {
        assertProblem(await api.get(`/v3/rooms/queue/${id}/waiting`), 404, 'not-found');
        assertProblem(await api.post(`/v3/rooms/queue/${id}/next`, { json: { userId: lee } }), 404, 'not-found');
      }
      // A board is not a queue, nor the reverse.
      assertProblem(await otherApi.get(`/v3/rooms/queue/${board.id}/waiting`), 404, 'not-found');
      const stillOpen = await otherApi.get(`/v3/meeting/${meeting.id}`);
      assert.equal(stillOpen.body.state, 'open');
      assert.deepEqual((await otherApi.get(`/v3/rooms/board/${board.id}/waiting`)).body, { waiting: [] });
    });

    it('checks what is sent: a userId of the board, a message of at most 500 characters, a known client', async () => {
      const operator = operatorActor(clinic.organization);
      const board = await createSpace(server.ctx, operator, 'board', { name: 'Surgery', slug: `surgery-${database.name}` });
      const queue = await createSpace(server.ctx, operator, 'queue', { name: 'Desk', slug: `desk-${database.name}` });
      const entry = randomUUID();
      assertProblem(await api.post(`/v3/rooms/board/${board.id}/waiting/${entry}/accept`, { json: {} }), 400, 'validation-failed', ['userId']);
      assertProblem(await api.post(`/v3/rooms/board/${board.id}/waiting/${entry}/accept`, { json: { userId: clinic.users[0]!.id } }), 400, 'validation-failed', ['userId']);
      assertProblem(await api.post(`/v3/rooms/queue/${queue.id}/next`, { json: { userId: other.users[0]!.id } }), 400, 'validation-failed', ['userId']);
      assertProblem(await api.post(`/v3/rooms/board/${board.id}/waiting/${entry}/decline`, { json: { message: 'x'.repeat(501) } }), 400, 'validation-failed', ['message']);
      assertProblem(await api.post(`/v3/rooms/board/${board.id}/waiting/${entry}/decline`, { json: { message: 'Sorry' } }), 404, 'not-found');
      await updateSpace(server.ctx, operator, 'board', board.id, { memberIds: [clinic.users[0]!.id] });
      assertProblem(await api.post(`/v3/rooms/board/${board.id}/waiting/${entry}/accept`, { json: { userId: clinic.users[0]!.id } }), 404, 'not-found');
      assert.deepEqual((await api.get(`/v3/rooms/board/${board.id}/waiting`)).body, { waiting: [] });
    });

    it("shows each waiting client's device and network check in the line, as their page last reported it, and refuses a malformed one", async () => {
      const operator = operatorActor(clinic.organization);
      const queue = await createSpace(server.ctx, operator, 'queue', { name: 'Checked', slug: `checked-${database.name}` });
      const clients: TestClient[] = [];
      const wait = async (name: string, readiness?: unknown) => {
        const c = await TestClient.connect(server.origin);
        clients.push(c);
        c.send({ type: 'wait', slug: queue.slug, name, token: null, ...(readiness === undefined ? {} : { readiness }) });
        return c;
      };
      try {
        const ada = await wait('Ada', { camera: 'ok', microphone: 'ok', network: 'fair' });
        await ada.next((m) => m.type === 'waiting');
        // As her page does: a place keeps its grace period only once the page answered.
        ada.send({ type: 'here' });
        await ada.roundTrip();
        const ben = await wait('Ben');
        await ben.next((m) => m.type === 'waiting');
        const line = async () => (await api.get(`/v3/rooms/queue/${queue.id}/waiting`)).body.waiting as Array<{ displayName: string; readiness: unknown }>;
        assert.deepEqual(
          (await line()).map((w) => [w.displayName, w.readiness]),
          [
            ['Ada', { camera: 'ok', microphone: 'ok', network: 'fair' }],
            ['Ben', null],
          ],
        );
        // Ada fixes nothing but turns her camera off; Ben's page reports late.
        ada.send({ type: 'readiness', readiness: { camera: 'off', microphone: 'ok', network: 'good' } });
        ben.send({ type: 'readiness', readiness: { camera: 'blocked', microphone: 'missing', network: 'unknown' } });
        await Promise.all([ada.roundTrip(), ben.roundTrip()]);
        // Every read counts against the key's 40 a minute, as the later tests' calls do: a few reads at most.
        const deadline = Date.now() + 5000;
        let now = await line();
        while (Date.now() < deadline && (now[1]?.readiness === null || (now[0]?.readiness as { camera: string }).camera !== 'off')) {
          await new Promise((r) => setTimeout(r, 500));
          now = await line();
        }
        assert.deepEqual(now.map((w) => w.readiness), [
          { camera: 'off', microphone: 'ok', network: 'good' },
          { camera: 'blocked', microphone: 'missing', network: 'unknown' },
        ]);

        for (const bad of [{ camera: 'ok', microphone: 'ok' }, { camera: 'great', microphone: 'ok', network: 'good' }, 'ok', ['ok', 'ok', 'good']]) {
          const c = await wait('Cy', bad);
          const error = await c.next((m) => m.type === 'error');
          assert.match(error.message, /readiness/);
          assert.equal(await c.closed, 4400);
        }
        ada.send({ type: 'readiness', readiness: { camera: 'ok', microphone: 'ok', network: 'excellent' } });
        assert.equal(await ada.closed, 4400, 'a malformed report closes the socket');
        const after = await line();
        assert.deepEqual(after.map((w) => w.displayName), ['Ada', 'Ben'], 'nobody new in line; Ada keeps her place for the grace period');
        assert.deepEqual(after[0]!.readiness, { camera: 'off', microphone: 'ok', network: 'good' }, 'what was stored stays');
      } finally {
        for (const c of clients) c.close();
      }
    });

    it('does not end or list a deleted meeting: it is gone', async () => {
      const meeting = await createMeeting(server.ctx, operatorActor(clinic.organization), {});
      await deleteMeeting(server.ctx, operatorActor(clinic.organization), meeting.id);
      assertProblem(await api.get(`/v3/meeting/${meeting.id}/participants`), 404, 'not-found');
      assertProblem(await api.post(`/v3/meeting/${meeting.id}/end`), 404, 'not-found');
    });

    it('counts these calls in the organization’s request totals and limits them like any call', async () => {
      await server.limits!.usage.flush();
      const range = [new Date(Date.now() - 7_200_000), new Date(Date.now() + 3_600_000)] as const;
      const before = (await db.store.listHourlyUsage(other.organization.id, ...range)).reduce((n, r) => n + r.requests, 0);
      const meeting = await createMeeting(server.ctx, operatorActor(other.organization), {});
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++) statuses.push((await otherApi.get(`/v3/meeting/${meeting.id}/participants`)).status);
      assert.ok(statuses.includes(429), statuses.join(','));
      await server.limits!.usage.flush();
      const after = (await db.store.listHourlyUsage(other.organization.id, ...range)).reduce((n, r) => n + r.requests, 0);
      assert.equal(after - before, statuses.filter((s) => s === 200).length);
    });
  });
}

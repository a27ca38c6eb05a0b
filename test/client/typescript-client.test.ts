/**
 * The typed client in clients/typescript/: its committed types are exactly
 * what openapi-typescript makes of the document Foyer serves now (change an
 * API schema without `npm run client:generate`, and this fails), and it
 * works against a live Foyer: create a meeting, see who is in it, end it;
 * create a board, read its line, accept a waiting client for a member.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createFoyerClient, type FoyerClient } from '../../clients/typescript/src/index.ts';
import { SCHEMA_FILE, schemaSource, servedDocument } from '../../clients/typescript/generate.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { TestClient } from '../realtime/ws-client.ts';

describe('the typed TypeScript client', () => {
  it('has committed types equal to those generated from the served OpenAPI document (npm run client:generate)', async () => {
    const expected = await schemaSource(await servedDocument());
    assert.ok(readFileSync(SCHEMA_FILE, 'utf8') === expected, 'clients/typescript/src/schema.d.ts is out of date: run `npm run client:generate`');
  });

  describe('against a live Foyer', () => {
    let db: TestDatabase;
    let server: TestServer;
    let org: SeededOrganization;
    let foyer: FoyerClient;
    const sockets: TestClient[] = [];

    before(async () => {
      db = await openTestDatabase('sqlite');
      server = await startServer(db.store);
      org = await seedOrganization(server.ctx, 'basic', [{ email: 'lee@clinic.test', fullName: 'Dr Lee' }]);
      foyer = createFoyerClient({ baseUrl: server.origin, apiKey: org.key.publicKey, apiSecret: org.secret });
    });
    after(async () => {
      for (const s of sockets) s.terminate();
      await server?.close();
      await db?.dispose();
    });

    const socket = async () => {
      const s = await TestClient.connect(server.origin, { headers: { origin: server.origin } });
      sockets.push(s);
      return s;
    };

    it('creates a meeting with a bare POST, as a basic organization may, and reads its typed answer', async () => {
      const created = await foyer.POST('/api/v3/meeting');
      assert.equal(created.response.status, 201);
      assert.equal(created.response.headers.get('location'), `/api/v3/meeting/${created.data!.id}`);
      const read = await foyer.GET('/api/v3/meeting/{id}', { params: { path: { id: created.data!.id } } });
      assert.equal(read.data?.state, 'open');
    });

    it('creates a meeting, lists who is in it, and ends it', async () => {
      const created = await foyer.POST('/api/v3/meeting', { body: { type: 'MEETING' } });
      assert.equal(created.response.status, 201);
      const id = created.data!.id;
      const guest = await socket();
      const welcome = await guest.join({ meetingId: id }, 'Pat');
      const { data: list } = await foyer.GET('/api/v3/meeting/{id}/participants', { params: { path: { id } } });
      assert.deepEqual(list!.participants.map((p) => [p.participantId, p.displayName, p.host]), [[welcome.you.id, 'Pat', false]]);
      const ended = await foyer.POST('/api/v3/meeting/{id}/end', { params: { path: { id } } });
      assert.equal(ended.data!.state, 'closed');
      await guest.next((m) => m.type === 'ended');
      const again = await foyer.POST('/api/v3/meeting/{id}/end', { params: { path: { id } } });
      assert.equal(again.response.status, 409);
      assert.equal(again.error!.type, 'urn:foyer:problem:conflict');
    });

    it('creates a board, reads its line and accepts a waiting client for a member', async () => {
      const lee = org.users[0]!;
      const board = await foyer.POST('/api/v3/rooms/board', { body: { name: 'Cardiology', slug: 'client-cardiology', hasWaitingList: true } });
      const boardId = board.data!.id;
      await foyer.POST('/api/v3/rooms/board/{id}', { params: { path: { id: boardId } }, body: { membersIds: [lee.id] } });
      const client = await socket();
      client.send({ type: 'wait', slug: 'client-cardiology', name: 'Wanda', token: null });
      await client.next((m) => m.type === 'waiting');
      const { data: line } = await foyer.GET('/api/v3/rooms/board/{id}/waiting', { params: { path: { id: boardId } } });
      assert.deepEqual(line!.waiting.map((w) => [w.displayName, w.position]), [['Wanda', 1]]);
      const accepted = await foyer.POST('/api/v3/rooms/board/{id}/waiting/{entryId}/accept', {
        params: { path: { id: boardId, entryId: line!.waiting[0]!.entryId } },
        body: { userId: lee.id },
      });
      assert.equal(accepted.response.status, 200);
      assert.equal(accepted.data!.userId, lee.id);
      assert.match(accepted.data!.redirectUrl, /\/meetings\/[0-9a-f-]+\?pass=/);
      await client.latest('waiting', (m) => m.view.meetingId === accepted.data!.meetingId);
    });
  });
});

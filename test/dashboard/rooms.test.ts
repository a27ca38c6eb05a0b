/**
 * The dashboard's rooms, through real HTTP on SQLite and PostgreSQL: a
 * member creates a room by slug and title and finds it in the list with
 * its link (the room the REST API reads); a refused form keeps what was
 * typed, shows the API's message beside the field (a taken slug is a
 * conflict) and creates nothing; no other organization's room shows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import { createSpace } from '../../src/domain/spaces.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { signedIn, type DashboardClient } from '../support/dashboard-client.ts';
import { errorBeside, tableRows, textById, valueOf } from '../support/html.ts';
import { client, seedOrganization, startServer, type Client, type SeededOrganization, type TestServer } from '../support/server.ts';

const EMAIL = 'rita.rooms@clinic.test';
let sequence = 0;
const slug = (name: string) => `${name}-${Date.now().toString(36)}-${++sequence}`;

for (const database of await testDatabases()) {
  describe(`dashboard rooms on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let org: SeededOrganization;
    let other: SeededOrganization;
    let rita: DashboardClient;
    let api: Client;

    before(async () => {
      db = await database.open();
      server = await startServer(db.store, { passwordHashCost: 14 });
      org = await seedOrganization(server.ctx, 'basic', [{ email: EMAIL, fullName: 'Rita Rooms', role: 'USER' }]);
      other = await seedOrganization(server.ctx, 'basic');
      rita = await signedIn(server.origin, server.ctx, org.organization, EMAIL);
      api = client(server.baseUrl, org);
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    const count = async () => (await db.store.listRooms(org.organization.id, { limit: 1000 })).length;

    it('shows an empty list with a way to create the first room', async () => {
      const page = await rita.get('/dashboard/rooms?lang=en');
      assert.equal(page.status, 200);
      assert.match(page.text, /No rooms yet/);
      assert.match(page.text, /href="\/dashboard\/rooms\/new"/);
    });

    it('creates a room and shows its link first, with a copy button: the room the API reads', async () => {
      const name = slug('daily');
      await rita.get('/dashboard/rooms/new');
      const created = await rita.post('/dashboard/rooms', { slug: name, title: 'Daily stand-up' });
      assert.equal(created.status, 303);
      assert.equal(created.location, `/dashboard/rooms?created=${name}`);
      const page = await rita.get(`${created.location}&lang=en`);
      assert.match(page.text, new RegExp(`The room “${name}” is created`));
      assert.equal(textById(page.text, 'created-link'), `http://meet.foyer.test/${name}`);
      assert.match(page.text, /data-copy="created-link"/);
      const row = tableRows(page.text, 'rooms').find((r) => r.tag.includes(`room-${name}`));
      assert.ok(row);
      assert.match(row.text, new RegExp(`^${name} Daily stand-up http://meet\\.foyer\\.test/${name} Copy`));

      const read = await api.get(`/v3/room/${name}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, { title: 'Daily stand-up', slug: name, organizationSlug: org.organization.slug, redirectUrl: `http://meet.foyer.test/${name}` });
    });

    it('refuses a slug the API refuses, with its message beside the field, keeping the input', async () => {
      const before = await count();
      const problem = await api.post('/room', { form: { slug: 'Not A Slug', title: 'x' } });
      assert.equal(problem.status, 400);
      await rita.get('/dashboard/rooms/new');
      const refused = await rita.post('/dashboard/rooms', { slug: 'Not A Slug', title: 'Kept title' });
      assert.equal(refused.status, 400);
      assert.equal(errorBeside(refused.text, 'slug'), problem.body.errors[0].message);
      assert.match(refused.text, /id="slug"[^>]*aria-describedby="slug-hint slug-error"[^>]*aria-invalid="true"/);
      assert.equal(valueOf(refused.text, 'slug'), 'Not A Slug');
      assert.equal(valueOf(refused.text, 'title'), 'Kept title');
      assert.equal(await count(), before);
    });

    it('refuses a form field with a NUL character (400), creating nothing', async () => {
      const before = await count();
      const refused = await rita.post('/dashboard/rooms', { slug: slug('nul'), title: 'Stand\u0000up' });
      assert.equal(refused.status, 400);
      assert.equal(await count(), before);
    });

    it('answers a slug taken by any room, board or queue, in any organization, as a conflict beside the field', async () => {
      const board = await createSpace(server.ctx, operatorActor(org.organization), 'board', { name: 'Board', slug: slug('board') });
      const foreign = await createRoom(server.ctx, operatorActor(other.organization), { slug: slug('foreign') });
      for (const taken of [board.slug, foreign.slug]) {
        const before = await count();
        await rita.get('/dashboard/rooms/new?lang=en');
        const refused = await rita.post('/dashboard/rooms', { slug: taken, title: '' });
        assert.equal(refused.status, 409);
        assert.equal(errorBeside(refused.text, 'slug'), 'This slug is already taken.');
        assert.equal(valueOf(refused.text, 'slug'), taken);
        assert.equal(await count(), before);
      }
    });

    it('lists its own rooms only, and names no other organization’s room even when asked to', async () => {
      const foreign = await createRoom(server.ctx, operatorActor(other.organization), { slug: slug('theirs'), title: 'Theirs' });
      const page = await rita.get(`/dashboard/rooms?created=${foreign.slug}`);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.text, new RegExp(foreign.slug));
      assert.doesNotMatch(page.text, /created-link/);
    });
  });
}

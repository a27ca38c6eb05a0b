/**
 * The dashboard's boards and queues, through real HTTP on SQLite and
 * PostgreSQL: a member creates one, edits every field the v3 update takes
 * (members picked from the organization's users), deletes it after being
 * asked, and the REST API reads the same object at each step. A refused
 * form keeps what was typed, shows the API's messages beside the fields
 * and changes nothing; another organization's users cannot be made
 * members, and its boards and queues are not found.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { createSpace, getSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { SpaceKind } from '../../src/domain/types.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { signedIn, type DashboardClient } from '../support/dashboard-client.ts';
import { errorBeside, isChecked, tableRows, tagById, textById, valueOf } from '../support/html.ts';
import { client, seedOrganization, startServer, type Client, type SeededOrganization, type TestServer } from '../support/server.ts';

const USERS = [
  { email: 'sam.spaces@clinic.test', fullName: 'Sam Spaces', role: 'USER' as const },
  { email: 'tia.two@clinic.test', fullName: 'Tia Two', role: 'USER' as const },
  { email: 'uli.three@clinic.test', fullName: 'Uli Three', role: 'ADMIN' as const },
];
let sequence = 0;
const slug = (name: string) => `${name}-${Date.now().toString(36)}-${++sequence}`;

for (const database of await testDatabases()) {
  describe(`dashboard boards and queues on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let org: SeededOrganization;
    let other: SeededOrganization;
    let sam: DashboardClient;
    let api: Client;

    before(async () => {
      db = await database.open();
      server = await startServer(db.store, { passwordHashCost: 14 });
      org = await seedOrganization(server.ctx, 'medical', USERS);
      other = await seedOrganization(server.ctx, 'medical', [{ email: 'olga@elsewhere.test', fullName: 'Olga Other', role: 'ADMIN' }]);
      sam = await signedIn(server.origin, server.ctx, org.organization, USERS[0]!.email);
      api = client(server.baseUrl, org);
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    const operator = () => operatorActor(org.organization);
    const user = (i: number) => org.users[i]!;

    for (const { kind, path } of [{ kind: 'board' as SpaceKind, path: 'boards' }, { kind: 'queue' as SpaceKind, path: 'queues' }]) {
      const base = `/dashboard/${path}`;
      const apiPath = `/v3/rooms/${kind}`;

      it(`${kind}s: creates one; the API reads it; its edit page follows with its link`, async () => {
        const name = slug(`${kind}-new`);
        const page = await sam.get(`${base}/new?lang=en`);
        assert.equal(page.status, 200);
        assert.equal(Boolean(tagById(page.text, 'hasWaitingList')), kind === 'board', 'only boards have a waiting list');
        const form: Record<string, string> = { name: 'Cardiology', slug: name, closingMessage: 'Back at 8' };
        if (kind === 'board') form.hasWaitingList = 'true';
        const created = await sam.post(base, form);
        assert.equal(created.status, 303);
        const id = new RegExp(`^${base}/([0-9a-f-]{36})\\?created$`).exec(created.location ?? '')?.[1];
        assert.ok(id, created.location);

        const read = await api.get(`${apiPath}/${id}`);
        assert.equal(read.status, 200);
        const expected: Record<string, unknown> = {
          id, name: 'Cardiology', slug: name, isActive: true, organizationId: org.organization.id, closingMessage: 'Back at 8', members: [], redirectUrl: `http://meet.foyer.test/${name}`,
        };
        if (kind === 'board') expected.hasWaitingList = true;
        assert.deepEqual(read.body, expected);

        const edit = await sam.get(`${created.location}&lang=en`);
        assert.match(edit.text, new RegExp(`The ${kind} is created`));
        assert.equal(textById(edit.text, 'space-link'), `http://meet.foyer.test/${name}`);
        assert.match(edit.text, /data-copy="space-link"/);
        const list = await sam.get(`${base}?lang=en`);
        const row = tableRows(list.text, 'spaces').find((r) => r.tag.includes(id));
        assert.ok(row);
        assert.match(row.text, new RegExp(`^Cardiology http://meet\\.foyer\\.test/${name} Copy Active`));
      });

      it(`${kind}s: edits every field the API's update takes, members as checkboxes; the API reads the result`, async () => {
        const space = await createSpace(server.ctx, operator(), kind, { name: 'Before', slug: slug(`${kind}-edit`), closingMessage: 'old', hasWaitingList: true });
        await updateSpace(server.ctx, operator(), kind, space.id, { memberIds: [user(2).id, user(0).id] });
        const page = await sam.get(`${base}/${space.id}?lang=en`);
        assert.equal(page.status, 200);
        assert.equal(valueOf(page.text, 'name'), 'Before');
        assert.equal(valueOf(page.text, 'closingMessage'), 'old');
        assert.ok(isChecked(page.text, 'isActive'));
        const box = (userId: string) => new RegExp(`<input type="checkbox" id="member-\\d" name="memberIds" value="${userId}"( checked)?>`).exec(page.text);
        assert.ok(box(user(0).id)?.[1] && box(user(2).id)?.[1] && !box(user(1).id)?.[1]);
        assert.doesNotMatch(page.text, /olga@elsewhere\.test/);

        const renamed = slug(`${kind}-renamed`);
        const form: Record<string, string | string[]> = { name: 'After', slug: renamed, closingMessage: 'Closed today', memberIds: [user(1).id, user(0).id] };
        const saved = await sam.post(`${base}/${space.id}`, form);
        assert.equal(saved.status, 303);
        assert.equal(saved.location, `${base}?saved`);
        assert.match((await sam.get(`${saved.location}&lang=en`)).text, new RegExp(`The ${kind} is saved`));

        const read = await api.get(`${apiPath}/${space.id}`);
        assert.equal(read.body.name, 'After');
        assert.equal(read.body.slug, renamed);
        assert.equal(read.body.closingMessage, 'Closed today');
        assert.equal(read.body.isActive, false, 'the unticked box switched it off');
        if (kind === 'board') assert.equal(read.body.hasWaitingList, false);
        else assert.equal('hasWaitingList' in read.body, false);
        // Uli left; Sam kept his place before the newly added Tia.
        assert.deepEqual(read.body.members.map((m: { userId: string }) => m.userId), [user(0).id, user(1).id]);

        const back = await sam.post(`${base}/${space.id}`, { name: 'After', slug: renamed, closingMessage: '', isActive: 'true', hasWaitingList: 'true', memberIds: [] });
        assert.equal(back.status, 303);
        const again = await api.get(`${apiPath}/${space.id}`);
        assert.equal(again.body.isActive, true);
        assert.deepEqual(again.body.members, []);
        if (kind === 'board') assert.equal(again.body.hasWaitingList, true);
      });

      it(`${kind}s: refuses what the API refuses, beside each field, keeping the input and changing nothing`, async () => {
        const space = await createSpace(server.ctx, operator(), kind, { name: 'Stays', slug: slug(`${kind}-stays`) });
        const before = await getSpace(server.ctx, operator(), kind, space.id);
        const problem = await api.post(`${apiPath}/${space.id}`, { json: { name: '   ', slug: 'Bad Slug', membersIds: [other.users[0]!.id] } });
        assert.equal(problem.status, 400);
        const message = (field: string) => problem.body.errors.find((e: { field: string }) => e.field === field)?.message as string;

        await sam.get(`${base}/${space.id}?lang=de`);
        const refused = await sam.post(`${base}/${space.id}`, { name: '   ', slug: 'Bad Slug', closingMessage: 'typed', memberIds: [other.users[0]!.id, user(1).id] });
        assert.equal(refused.status, 400);
        assert.equal(errorBeside(refused.text, 'name'), message('name'));
        assert.equal(errorBeside(refused.text, 'slug'), message('slug'));
        assert.equal(errorBeside(refused.text, 'memberIds'), message('membersIds'));
        assert.equal(valueOf(refused.text, 'name'), '   ');
        assert.equal(valueOf(refused.text, 'slug'), 'Bad Slug');
        assert.equal(valueOf(refused.text, 'closingMessage'), 'typed');
        assert.ok(!isChecked(refused.text, 'isActive'), 'the box stays as it was sent');
        assert.match(refused.text, new RegExp(`value="${user(1).id}" checked`));
        assert.match(refused.text, /Bitte korrigieren Sie die markierten Felder/);
        assert.deepEqual(await getSpace(server.ctx, operator(), kind, space.id), before);
      });

      it(`${kind}s: a slug taken elsewhere is a conflict beside the slug, on creating and on editing`, async () => {
        const taken = (await createSpace(server.ctx, operatorActor(other.organization), 'queue', { name: 'Theirs', slug: slug('taken') })).slug;
        await sam.get(`${base}/new?lang=en`);
        const refusedNew = await sam.post(base, { name: 'Mine', slug: taken });
        assert.equal(refusedNew.status, 409);
        assert.equal(errorBeside(refusedNew.text, 'slug'), 'This slug is already taken.');
        assert.equal(valueOf(refusedNew.text, 'name'), 'Mine');

        const space = await createSpace(server.ctx, operator(), kind, { name: 'Mine', slug: slug(`${kind}-mine`) });
        await sam.get(`${base}/${space.id}`);
        const refusedEdit = await sam.post(`${base}/${space.id}`, { name: 'Mine, renamed', slug: taken, isActive: 'true' });
        assert.equal(refusedEdit.status, 409);
        assert.equal(errorBeside(refusedEdit.text, 'slug'), 'This slug is already taken.');
        assert.equal(valueOf(refusedEdit.text, 'name'), 'Mine, renamed');
        assert.equal((await getSpace(server.ctx, operator(), kind, space.id)).name, 'Mine');
      });

      it(`${kind}s: deletes one after asking; the API no longer finds it and its slug is free`, async () => {
        const space = await createSpace(server.ctx, operator(), kind, { name: 'Short-lived', slug: slug(`${kind}-gone`) });
        const page = await sam.get(`${base}/${space.id}?lang=en`);
        assert.match(page.text, new RegExp(`<form method="post" action="${base}/${space.id}/delete" data-confirm="Delete the ${kind} “Short-lived”\\?`));
        const deleted = await sam.post(`${base}/${space.id}/delete`, {});
        assert.equal(deleted.status, 303);
        assert.equal(deleted.location, `${base}?deleted`);
        assert.equal((await api.get(`${apiPath}/${space.id}`)).status, 404);
        assert.equal((await sam.get(`${base}/${space.id}`)).status, 404);
        const list = await sam.get(`${base}?lang=en`);
        assert.doesNotMatch(list.text, new RegExp(space.id));
        await sam.get(`${base}/new`);
        assert.equal((await sam.post(base, { name: 'Reuses', slug: space.slug })).status, 303);
      });

      it(`${kind}s: another organization's ${kind} is not found, to read, edit or delete`, async () => {
        const foreign = await createSpace(server.ctx, operatorActor(other.organization), kind, { name: 'Foreign', slug: slug(`${kind}-foreign`) });
        const before = await getSpace(server.ctx, operatorActor(other.organization), kind, foreign.id);
        await sam.get(base);
        assert.equal((await sam.get(`${base}/${foreign.id}`)).status, 404);
        assert.equal((await sam.post(`${base}/${foreign.id}`, { name: 'Hijacked', slug: slug('hijacked'), isActive: 'true' })).status, 404);
        assert.equal((await sam.post(`${base}/${foreign.id}/delete`, {})).status, 404);
        assert.doesNotMatch((await sam.get(base)).text, /Foreign/);
        assert.deepEqual(await getSpace(server.ctx, operatorActor(other.organization), kind, foreign.id), before);
      });
    }

    it('keeps boards and queues apart: a board is not found as a queue', async () => {
      const board = await createSpace(server.ctx, operator(), 'board', { name: 'Only a board', slug: slug('only-board') });
      assert.equal((await sam.get(`/dashboard/queues/${board.id}`)).status, 404);
      assert.equal((await sam.get('/dashboard/boards/not-an-id')).status, 404);
    });
  });
}

/**
 * The dashboard's meetings, through real HTTP on SQLite and PostgreSQL: a
 * member creates meetings and consultations (with query parameters, an own
 * id, never closing), sees the same object through the REST API, lists
 * them newest first with their states, in pages, deletes one; a refused
 * form keeps what was typed, shows the API's own messages beside the
 * fields and creates nothing; another organization's meeting is not found.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { createMeeting, deleteMeeting, getMeeting } from '../../src/domain/meetings.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { signedIn, type DashboardClient } from '../support/dashboard-client.ts';
import { errorBeside, isChecked, selectedOption, tableRows, textById, valueOf } from '../support/html.ts';
import { client, request, seedOrganization, startServer, type Client, type SeededOrganization, type TestServer } from '../support/server.ts';

const ANN = { email: 'ann.meetings@clinic.test', fullName: 'Ann Lee', role: 'USER' as const };
const BOB = { email: 'bob.meetings@clinic.test', fullName: 'Bob Stone', role: 'ADMIN' as const };

for (const database of await testDatabases()) {
  describe(`dashboard meetings on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let org: SeededOrganization;
    let other: SeededOrganization;
    let ann: DashboardClient;
    let api: Client;

    before(async () => {
      db = await database.open();
      server = await startServer(db.store, { passwordHashCost: 14 });
      org = await seedOrganization(server.ctx, 'medical', [ANN, BOB]);
      other = await seedOrganization(server.ctx, 'medical', [{ email: 'eve@elsewhere.test', fullName: 'Eve Other', role: 'ADMIN' }]);
      ann = await signedIn(server.origin, server.ctx, org.organization, ANN.email);
      api = client(server.baseUrl, org);
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    const operator = () => operatorActor(org.organization);
    const count = async () => (await db.store.listMeetings(org.organization.id, { limit: 1000 })).length;
    const idOf = (location: string | undefined) => /^\/dashboard\/meetings\/([0-9a-f-]{36})\?created$/.exec(location ?? '')?.[1];

    it('offers a form whose owner is chosen from the members, the signed-in member first chosen', async () => {
      const page = await ann.get('/dashboard/meetings/new?lang=en');
      assert.equal(page.status, 200);
      assert.equal(selectedOption(page.text, 'ownerEmail'), ANN.email);
      assert.match(page.text, new RegExp(`<option value="${BOB.email}"[^>]*>Bob Stone`));
      assert.doesNotMatch(page.text, /eve@elsewhere\.test/);
      assert.match(page.text, /<label class="visually-hidden" for="query-key-1">Key 1<\/label>/);
      assert.ok(isChecked(page.text, 'type-meeting'));
    });

    it('creates a consultation with query parameters and shows its short link, the same meeting the API reads', async () => {
      await ann.get('/dashboard/meetings/new');
      const created = await ann.post('/dashboard/meetings', {
        type: 'CONSULTATION',
        ownerEmail: BOB.email,
        meetingId: '',
        queryKey: ['patient', '', 'lang'],
        queryValue: ['A-1042', '', 'de'],
      });
      assert.equal(created.status, 303, created.text.slice(0, 500));
      const id = idOf(created.location);
      assert.ok(id, created.location);

      const page = await ann.get(created.location!);
      assert.equal(page.status, 200);
      assert.match(page.text, /The meeting is created/);
      const link = textById(page.text, 'meeting-link')!;
      assert.match(link, /^http:\/\/meet\.foyer\.test\/m\/[0-9A-Za-z]{10}$/);
      assert.match(page.text, /<button type="button" data-copy="meeting-link"/);

      const read = await api.get(`/v3/meeting/${id}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, { id, redirectUrl: link, state: 'open', closedAt: null });
      const meeting = await getMeeting(server.ctx, operator(), id);
      assert.deepEqual(meeting.queryParameters, { patient: 'A-1042', lang: 'de' });
      assert.equal(meeting.type, 'CONSULTATION');
      assert.equal(meeting.ownerUserId, org.users[1]!.id);
      assert.equal(meeting.lock, 'until_owner', 'a consultation with an owner waits for them by default');

      const opened = await request(`${server.origin}${new URL(link).pathname}`, 'GET');
      assert.equal(opened.status, 302);
      assert.equal(opened.headers.get('location'), `/meetings/${id}?patient=A-1042&lang=de`);
    });

    it('creates a consultation open at once when asked, its patients entering without waiting for the owner', async () => {
      const form = await ann.get('/dashboard/meetings/new');
      assert.match(form.text, /<input type="checkbox" id="openAtOnce" name="openAtOnce" value="true" data-only-for-type="CONSULTATION"/);
      assert.match(form.text, /<label class="checkbox" for="openAtOnce">/);
      const created = await ann.post('/dashboard/meetings', { type: 'CONSULTATION', openAtOnce: 'true', ownerEmail: BOB.email, meetingId: '', queryKey: [''], queryValue: [''] });
      assert.equal(created.status, 303, created.text.slice(0, 500));
      assert.equal((await getMeeting(server.ctx, operator(), idOf(created.location)!)).lock, 'open');
    });

    it('creates a never-closing meeting under an id of its own, as the API would', async () => {
      const own = randomUUID();
      await ann.get('/dashboard/meetings/new');
      const created = await ann.post('/dashboard/meetings', { type: 'MEETING', isInfinite: 'true', ownerEmail: ANN.email, meetingId: own.toUpperCase(), queryKey: ['', ''], queryValue: ['', ''] });
      assert.equal(created.status, 303);
      assert.equal(idOf(created.location), own);
      const read = await api.get(`/v3/meeting/${own}`);
      assert.deepEqual(read.body, { id: own, redirectUrl: `http://meet.foyer.test/meetings/${own}`, isInfinite: true, state: 'open', closedAt: null });
      const row = tableRows((await ann.get('/dashboard/meetings?lang=en')).text, 'meetings').find((r) => r.tag.includes(own))!;
      assert.match(row.text, /^Meeting Never closes Ann Lee .+ Open Closes at: Never /);
    });

    it('creates a meeting with a title, lists it by its title with owner, created, state and Join, and shows it on its page and the call page', async () => {
      await ann.get('/dashboard/meetings/new?lang=en');
      const created = await ann.post('/dashboard/meetings', { title: '  Team <huddle>  ', type: 'MEETING', ownerEmail: ANN.email });
      assert.equal(created.status, 303);
      const id = idOf(created.location)!;
      assert.equal((await api.get(`/v3/meeting/${id}`)).body.title, 'Team <huddle>');
      const row = tableRows((await ann.get('/dashboard/meetings?lang=en')).text, 'meetings').find((r) => r.tag.includes(id))!;
      assert.match(row.text, /^Team <huddle> Meeting Ann Lee .+ Open /);
      assert.match(row.html, /Team &#60;huddle&#62;/, 'escaped');
      assert.match(row.html, new RegExp(`id="join-${id}" aria-label="Join Team &#60;huddle&#62;">Join</a>`));
      const page = await ann.get(`/dashboard/meetings/${id}?lang=de`);
      assert.equal(textById(page.text, 'meeting-title'), 'Team <huddle>');
      assert.match(page.text, new RegExp(`<a class="button primary" href="http://meet\\.foyer\\.test/meetings/${id}" id="join-meeting">Beitreten</a>`));
    });

    it('refuses a title over 100 characters beside its field, keeping what was typed and creating nothing', async () => {
      const before = await count();
      await ann.get('/dashboard/meetings/new?lang=en');
      const long = 'x'.repeat(101);
      const refused = await ann.post('/dashboard/meetings', { title: long, type: 'MEETING', ownerEmail: ANN.email });
      assert.equal(refused.status, 400);
      assert.equal(errorBeside(refused.text, 'title'), 'title has at most 100 characters.');
      assert.equal(valueOf(refused.text, 'title'), long);
      assert.equal(await count(), before);
    });

    it('refuses a form the API would refuse, with the API’s messages beside the fields, keeping what was typed and creating nothing', async () => {
      const before = await count();
      const longKey = 'k'.repeat(65);
      const input = { type: 'CONSULTATION', isInfinite: true, ownerEmail: 'eve@elsewhere.test', meetingId: 'not-a-uuid', queryParameters: { [longKey]: 'x', fine: 'kept' } };
      const problem = await api.post('/v3/meeting', { json: input });
      assert.equal(problem.status, 400);
      const message = (field: string) => problem.body.errors.find((e: { field: string }) => e.field === field)?.message as string;

      await ann.get('/dashboard/meetings/new?lang=de');
      const refused = await ann.post('/dashboard/meetings', {
        type: 'CONSULTATION',
        isInfinite: 'true',
        ownerEmail: 'eve@elsewhere.test',
        meetingId: 'not-a-uuid',
        queryKey: [longKey, 'fine'],
        queryValue: ['x', 'kept'],
      });
      assert.equal(refused.status, 400);
      assert.equal(errorBeside(refused.text, 'isInfinite'), message('isInfinite'));
      assert.equal(errorBeside(refused.text, 'ownerEmail'), message('ownerEmail'));
      assert.equal(errorBeside(refused.text, 'meetingId'), message('meetingId'));
      assert.equal(errorBeside(refused.text, 'query-row-1'), message(`queryParameters.${longKey}`));
      assert.equal(errorBeside(refused.text, 'query-row-2'), undefined);
      assert.match(refused.text, /aria-invalid="true" aria-describedby="query-row-1-error"/);
      assert.ok(isChecked(refused.text, 'type-consultation'));
      assert.ok(isChecked(refused.text, 'isInfinite'));
      assert.equal(valueOf(refused.text, 'meetingId'), 'not-a-uuid');
      assert.equal(valueOf(refused.text, 'query-key-1'), longKey);
      assert.equal(valueOf(refused.text, 'query-value-2'), 'kept');
      assert.equal(valueOf(refused.text, 'query-key-3'), '', 'an empty row to add one more');
      assert.match(refused.text, /Bitte korrigieren Sie die markierten Felder/);
      assert.equal(await count(), before);
    });

    it('names a key typed twice beside its row, instead of keeping one of them', async () => {
      const before = await count();
      await ann.get('/dashboard/meetings/new?lang=en');
      const refused = await ann.post('/dashboard/meetings', { type: 'MEETING', ownerEmail: ANN.email, queryKey: ['a', 'a'], queryValue: ['1', '2'] });
      assert.equal(refused.status, 400);
      assert.equal(errorBeside(refused.text, 'query-row-1'), undefined);
      assert.equal(errorBeside(refused.text, 'query-row-2'), 'This key appears more than once.');
      assert.match(refused.text, /Please correct the fields marked below\./);
      assert.equal(await count(), before);
    });

    it('answers a meeting id already taken as a conflict beside the field', async () => {
      const taken = (await createMeeting(server.ctx, operator(), { ownerEmail: ANN.email })).id;
      await ann.get('/dashboard/meetings/new?lang=en');
      const refused = await ann.post('/dashboard/meetings', { type: 'MEETING', ownerEmail: ANN.email, meetingId: taken });
      assert.equal(refused.status, 409);
      assert.equal(errorBeside(refused.text, 'meetingId'), 'A meeting with this meetingId already exists.');
      assert.equal(valueOf(refused.text, 'meetingId'), taken);
    });

    it('lists the meetings newest first with their state, closing time, owner and link, and leaves out other organizations’', async () => {
      const at = (minutesAgo: number): DomainContext => ({ ...server.ctx, now: () => new Date(Date.now() - minutesAgo * 60_000) });
      const closed = await createMeeting(at(120), operator(), { ownerEmail: BOB.email });
      const deleted = await createMeeting(at(60), operator(), { type: 'CONSULTATION', ownerEmail: ANN.email });
      await deleteMeeting(server.ctx, operator(), deleted.id);
      const open = await createMeeting(server.ctx, operator(), { type: 'CONSULTATION', ownerEmail: BOB.email });
      const foreign = await createMeeting(server.ctx, operatorActor(other.organization), { ownerEmail: 'eve@elsewhere.test' });

      const page = await ann.get('/dashboard/meetings?lang=en');
      const rows = tableRows(page.text, 'meetings');
      const position = (id: string) => rows.findIndex((r) => r.tag.includes(id));
      assert.ok(position(open.id) < position(deleted.id) && position(deleted.id) < position(closed.id));
      assert.equal(position(foreign.id), -1);
      assert.match(rows[position(open.id)]!.tag, /data-state="open"/);
      assert.match(rows[position(deleted.id)]!.tag, /data-state="deleted"/);
      assert.match(rows[position(closed.id)]!.tag, /data-state="closed"/);
      const openRow = rows[position(open.id)]!;
      assert.match(openRow.text, /^Consultation Bob Stone .*UTC Open .*http:\/\/meet\.foyer\.test\/meetings\//);
      assert.match(openRow.html, new RegExp(`<a class="button primary small join" href="http://meet\\.foyer\\.test/meetings/${open.id}" id="join-${open.id}" aria-label="Join Consultation · [^"]+">Join</a>`));
      assert.doesNotMatch(rows[position(closed.id)]!.html, /class="button primary small join"/, 'a closed meeting cannot be joined');
      assert.match(openRow.html, /<time datetime="[^"]+" data-local>/);
      assert.match(openRow.html, new RegExp(`action="/dashboard/meetings/${open.id}/delete" data-confirm="`));
      assert.doesNotMatch(rows[position(deleted.id)]!.html, /\/delete"/, 'a deleted meeting cannot be deleted again');
      assert.doesNotMatch(rows[position(closed.id)]!.html, /data-copy=/, 'a closed meeting’s link is not offered');
    });

    it('pages through a long list without repeating or leaving out a meeting', async () => {
      const fresh = await seedOrganization(server.ctx, 'basic', [{ email: 'pat@many.test', fullName: 'Pat Many', role: 'USER' }]);
      const made = new Set<string>();
      for (let i = 0; i < 53; i++) made.add((await createMeeting(server.ctx, operatorActor(fresh.organization), {})).id);
      const pat = await signedIn(server.origin, server.ctx, fresh.organization, 'pat@many.test');
      const first = await pat.get('/dashboard/meetings?lang=en');
      const firstRows = tableRows(first.text, 'meetings');
      assert.equal(firstRows.length, 50);
      const older = /<a href="(\/dashboard\/meetings\?before=[^"]+)" rel="next">/.exec(first.text)?.[1];
      assert.ok(older, 'a link to the older meetings');
      const second = await pat.get(older!);
      const secondRows = tableRows(second.text, 'meetings');
      assert.equal(secondRows.length, 3);
      assert.doesNotMatch(second.text, /rel="next"/);
      assert.match(second.text, /<a href="\/dashboard\/meetings">Newest<\/a>/);
      const seen = [...firstRows, ...secondRows].map((r) => /id="meeting-([0-9a-f-]{36})"/.exec(r.tag)![1]!);
      assert.deepEqual(new Set(seen), made);
      assert.equal(seen.length, made.size);
    });

    it('deletes a meeting after asking: the API no longer finds it, the list shows it deleted', async () => {
      const meeting = await createMeeting(server.ctx, operator(), { ownerEmail: ANN.email });
      const page = await ann.get(`/dashboard/meetings/${meeting.id}?lang=en`);
      assert.match(page.text, new RegExp(`<form method="post" action="/dashboard/meetings/${meeting.id}/delete" data-confirm="Delete this meeting\\?`));
      const deleted = await ann.post(`/dashboard/meetings/${meeting.id}/delete`, {});
      assert.equal(deleted.status, 303);
      assert.equal(deleted.location, '/dashboard/meetings?deleted');
      assert.equal((await api.get(`/v3/meeting/${meeting.id}`)).status, 404);
      const list = await ann.get(deleted.location!);
      assert.match(list.text, /The meeting is deleted/);
      assert.match(tableRows(list.text, 'meetings').find((r) => r.tag.includes(meeting.id))!.tag, /data-state="deleted"/);
      assert.equal((await ann.get(`/dashboard/meetings/${meeting.id}`)).status, 404);
      assert.equal((await ann.post(`/dashboard/meetings/${meeting.id}/delete`, {})).status, 404);
    });

    it('does not find, or delete, another organization’s meeting', async () => {
      const foreign = await createMeeting(server.ctx, operatorActor(other.organization), { ownerEmail: 'eve@elsewhere.test' });
      await ann.get('/dashboard/meetings');
      assert.equal((await ann.get(`/dashboard/meetings/${foreign.id}`)).status, 404);
      const refused = await ann.post(`/dashboard/meetings/${foreign.id}/delete`, {});
      assert.equal(refused.status, 404);
      assert.match(refused.text, /Not found|Nicht gefunden/);
      assert.equal((await getMeeting(server.ctx, operatorActor(other.organization), foreign.id)).deletedAt, null);
    });
  });
}

/**
 * The meeting pages over real HTTP (the whole app, SQLite): shells for
 * open meetings and rooms, short-link redirects with stored parameters,
 * plain 404 and 410 pages, framing and device permissions in the headers,
 * static files from the repo, and a v3 DELETE that disconnects at once.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createMeeting } from '../../src/domain/meetings.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type SeededOrganization, type TestServer } from '../support/server.ts';
import { TestClient } from './ws-client.ts';
import { signedIn } from '../support/dashboard-client.ts';
import { operatorActor } from '../../src/domain/actors.ts';

describe('meeting pages', () => {
  let db: TestDatabase;
  let server: TestServer;
  let seeded: SeededOrganization;
  let api: Client;

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { frameAncestors: "'self' https://portal.example.test" });
    seeded = await seedOrganization(server.ctx, 'basic');
    api = client(server.baseUrl, seeded);
  });
  after(async () => {
    await server.close();
    await db.dispose();
  });

  const get = (path: string) => fetch(server.origin + path, { redirect: 'manual' });

  it('serves an open meeting\'s page, embeddable by the configured origins with camera, microphone and screen permitted', async () => {
    const created = await api.post('/v3/meeting', { json: {} });
    const response = await get(new URL(created.body.redirectUrl).pathname);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors 'self' https:\/\/portal\.example\.test(;|$)/);
    assert.match(csp, /script-src 'self'/);
    assert.equal(response.headers.get('x-frame-options'), null);
    const permissions = response.headers.get('permissions-policy') ?? '';
    for (const feature of ['camera=(self)', 'microphone=(self)', 'display-capture=(self)']) assert.ok(permissions.includes(feature), feature);
    const html = await response.text();
    assert.ok(html.includes(`"meetingId":"${created.body.id}"`));
    // One script for the whole page, named by its content.
    const entry = /<script type="module" src="(\/static\/bundles\/meeting\.[\w-]+\.js)"><\/script>/.exec(html)?.[1];
    assert.ok(entry, 'the meeting bundle');
    const bundle = await get(entry);
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
    assert.match(bundle.headers.get('cache-control') ?? '', /immutable/);
    assert.ok((await bundle.text()).includes('foyer'));
    assert.equal((await get('/static/bundles/meeting.nothing.js')).status, 404);
    // Both style sheets at once, not one importing the other.
    assert.ok(html.includes('href="/static/css/app.css"') && html.includes('href="/static/css/call.css"'));
    assert.ok(html.includes('<link rel="icon" href="/static/favicon.svg"'));
  });

  it('serves the front end\'s files from the repository', async () => {
    const script = await get('/static/js/app.js');
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    assert.equal((await get('/static/css/app.css')).status, 200);
    // The icon is linked from every page, so browsers do not ask for a missing /favicon.ico.
    assert.equal((await get('/static/favicon.svg')).status, 200);
    assert.equal((await get('/static/../package.json')).status, 404);
  });

  it('answers 404 with a plain page for unknown or malformed meeting ids, short codes and slugs', async () => {
    for (const path of [`/meetings/${randomUUID()}`, '/meetings/not-a-uuid', '/m/Unknown1234', '/m/bad!code', '/no-such-room', '/Bad_Slug']) {
      const response = await get(path);
      assert.equal(response.status, 404, path);
      assert.match(await response.text(), /no meeting or room/);
    }
    const german = await get(`/meetings/${randomUUID()}?lang=de`);
    assert.match(await german.text(), /Nicht gefunden/);
  });

  it('answers 410 for deleted and closed meetings, by id and by short link', async () => {
    const deleted = await api.post('/v3/meeting', { json: { queryParameters: { a: 1 } } });
    assert.equal((await api.delete(`/v3/meeting/${deleted.body.id}`)).status, 200);
    assert.equal((await get(`/meetings/${deleted.body.id}`)).status, 410);
    assert.equal((await get(new URL(deleted.body.redirectUrl).pathname)).status, 410);

    const longAgo = new Date(Date.now() - 3600_000);
    const closed = await createMeeting({ ...server.ctx, now: () => longAgo }, operatorActor(seeded.organization), {});
    const response = await get(`/meetings/${closed.id}`);
    assert.equal(response.status, 410);
    assert.match(await response.text(), /ended/);
  });

  it('redirects a short link to its meeting with the stored parameters, adding the opener\'s unless stored', async () => {
    const created = await api.post('/v3/meeting', {
      json: { queryParameters: { displayName: 'Ann Lee', audio: 'off', skipPrejoin: true, lang: 'de' } },
    });
    const response = await get(`${new URL(created.body.redirectUrl).pathname}?embed=true&displayName=Mallory`);
    assert.equal(response.status, 302);
    const location = new URL(response.headers.get('location')!, server.origin);
    assert.equal(location.pathname, `/meetings/${created.body.id}`);
    assert.deepEqual(Object.fromEntries(location.searchParams), {
      displayName: 'Ann Lee',
      audio: 'off',
      skipPrejoin: 'true',
      lang: 'de',
      embed: 'true',
    });
  });

  it('serves rooms and boards without a waiting list as meeting places, queues the waiting page, and inactive ones their closing message', async () => {
    const room = await createRoom(server.ctx, operatorActor(seeded.organization), { slug: `desk-${randomUUID().slice(0, 6)}`, title: 'Front <desk>' });
    const roomPage = await get(`/${room.slug}`);
    assert.equal(roomPage.status, 200);
    const html = await roomPage.text();
    assert.ok(html.includes(`"slug":"${room.slug}"`));
    assert.ok(html.includes(`<title>Front &#60;desk&#62; · ${seeded.organization.name} · Foyer</title>`));
    assert.ok(html.includes('Front \\u003cdesk>'), 'JSON settings cannot close the script element');

    const board = await createSpace(server.ctx, operatorActor(seeded.organization), 'board', { name: 'Walk-in', slug: `walk-${randomUUID().slice(0, 6)}`, hasWaitingList: false });
    assert.ok((await (await get(`/${board.slug}`)).text()).includes(`"slug":"${board.slug}"`));
    const queue = await createSpace(server.ctx, operatorActor(seeded.organization), 'queue', { name: 'Queue', slug: `queue-${randomUUID().slice(0, 6)}` });
    const queuePage = await get(`/${queue.slug}`);
    assert.equal(queuePage.status, 200);
    const queueHtml = await queuePage.text();
    assert.match(queueHtml, /<script type="module" src="\/static\/bundles\/waiting\.[\w-]+\.js"><\/script>/, 'a queue gets the waiting page');
    assert.ok(queueHtml.includes(`"waiting":{"slug":"${queue.slug}","kind":"queue","closingMessage":null}`));

    // Inactive: the closing message (or the default, in the language asked for), and no script to get in line.
    await updateSpace(server.ctx, operatorActor(seeded.organization), 'queue', queue.id, { isActive: false, closingMessage: 'Back <on> Monday.' });
    const closed = await (await get(`/${queue.slug}`)).text();
    assert.ok(closed.includes('<p>Back &#60;on&#62; Monday.</p>'));
    assert.ok(!closed.includes('<script'));
    const waitingBoard = await createSpace(server.ctx, operatorActor(seeded.organization), 'board', { name: 'Surgery', slug: `surgery-${randomUUID().slice(0, 6)}`, hasWaitingList: true });
    await updateSpace(server.ctx, operatorActor(seeded.organization), 'board', waitingBoard.id, { isActive: false });
    assert.match(await (await get(`/${waitingBoard.slug}?lang=de`)).text(), /Dieser Ort ist derzeit nicht aktiv\./);
  });

  it('disconnects everyone in a meeting deleted through v3 at once', async () => {
    const created = await api.post('/v3/meeting', { json: {} });
    const ann = await TestClient.connect(server.origin);
    await ann.join({ meetingId: created.body.id }, 'Ann');
    const bob = await TestClient.connect(server.origin);
    await bob.join({ meetingId: created.body.id }, 'Bob');
    assert.equal((await api.delete(`/v3/meeting/${created.body.id}`)).status, 200);
    for (const c of [ann, bob]) {
      assert.deepEqual(await c.next((m) => m.type === 'ended', 1000), { type: 'ended', reason: 'deleted' });
      assert.equal(await c.closed, 4410);
    }
    const again = await TestClient.connect(server.origin);
    assert.equal((await again.join({ meetingId: created.body.id }, 'Ann')).code, 'deleted');
  });

  it("tells the page where it leads: the organization, the meeting's title or the place's name, a consultation's clinician", async () => {
    const settingsOf = (html: string) => JSON.parse(/<script type="application\/json" id="foyer-settings">([^<]*)<\/script>/.exec(html)![1]!.replace(/\\u003c/g, '<'));
    const ann = seeded.users[0]!;
    const meeting = await api.post('/v3/meeting', { json: { title: 'Follow-up, knee' } });
    const meetingSettings = settingsOf(await (await get(new URL(meeting.body.redirectUrl).pathname)).text());
    assert.equal(meetingSettings.title, 'Follow-up, knee');
    assert.equal(meetingSettings.organization, seeded.organization.name);
    assert.equal(meetingSettings.hostName, undefined, 'a meeting names no clinician');
    assert.equal(meetingSettings.memberName, undefined, 'nobody is signed in');

    const consultation = await api.post('/v3/meeting', { json: { type: 'CONSULTATION', ownerEmail: ann.email } });
    const consultationPage = await (await get(new URL(consultation.body.redirectUrl).pathname)).text();
    const consultationSettings = settingsOf(consultationPage);
    assert.equal(consultationSettings.title, null);
    assert.equal(consultationSettings.hostName, ann.fullName);
    assert.ok(consultationPage.includes(`<title>${seeded.organization.name} · Foyer</title>`));

    const queue = await createSpace(server.ctx, operatorActor(seeded.organization), 'queue', { name: 'Physio line', slug: `physio-${randomUUID().slice(0, 6)}` });
    const queueSettings = settingsOf(await (await get(`/${queue.slug}`)).text());
    assert.equal(queueSettings.title, 'Physio line');
    assert.equal(queueSettings.organization, seeded.organization.name);
  });

  it("fills in a signed-in member's name and speaks their dashboard's language, but only on their own organization's pages", async () => {
    const settingsOf = (html: string) => JSON.parse(/<script type="application\/json" id="foyer-settings">([^<]*)<\/script>/.exec(html)![1]!);
    const ann = seeded.users[0]!;
    const member = await signedIn(server.origin, server.ctx, seeded.organization, ann.email);
    await member.get('/dashboard?lang=de');
    assert.equal(member.cookie('foyer_lang'), 'de');
    const meeting = await api.post('/v3/meeting', { json: {} });
    const path = new URL(meeting.body.redirectUrl).pathname;
    const page = await member.get(path);
    const settings = settingsOf(page.text);
    assert.equal(settings.memberName, ann.fullName);
    assert.equal(settings.lang, 'de');
    assert.match(page.text, /<html lang="de"/);
    // The link's own ?lang= still wins.
    assert.match((await member.get(`${path}?lang=en`)).text, /<html lang="en"/);

    const other = await seedOrganization(server.ctx, 'basic', [{ email: 'bo@other.test', fullName: 'Bo Other' }]);
    const elsewhere = await client(server.baseUrl, other).post('/v3/meeting', { json: {} });
    const foreign = settingsOf((await member.get(new URL(elsewhere.body.redirectUrl).pathname)).text);
    assert.equal(foreign.memberName, undefined, "another organization's page does not know this member");
    assert.equal(foreign.lang, undefined);
  });

  it('keeps a meeting open while its participants are connected through the real app', async () => {
    const meeting = await createMeeting(server.ctx, operatorActor(seeded.organization), {});
    const ann = await TestClient.connect(server.origin);
    await ann.join({ meetingId: meeting.id }, 'Ann');
    assert.equal((await db.store.live.findMeetingRecord({ id: meeting.id }))?.closesAt, null);
    ann.close();
    await ann.closed;
    const deadline = Date.now() + 3000;
    let closesAt: Date | null | undefined = null;
    while (closesAt === null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      closesAt = (await db.store.live.findMeetingRecord({ id: meeting.id }))?.closesAt;
    }
    assert.ok(closesAt && Math.abs(closesAt.getTime() - (Date.now() + server.config.idleCloseSeconds * 1000)) < 5000);
  });
});

/**
 * The origins allowed to embed an organization's pages, through real HTTP
 * on SQLite and PostgreSQL: `/v3/allowed-origins` read and replaced (each
 * origin normalized, every bad one named by its index, nothing changed
 * then), each organization seeing only its own, the change recorded as the
 * key's; and the pages following it: the meeting, room and waiting pages'
 * CSP `frame-ancestors` and the parents their settings name, the console's
 * too, while another organization's pages keep the operator's default.
 * Requests are counted and limited like every API call.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { setAllowedOrigins } from '../../src/domain/allowed-origins.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { listOrganizationChanges } from '../../src/domain/organization-changes.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { signedIn } from '../support/dashboard-client.ts';
import { client, request, seedOrganization, startServer, type Client, type SeededOrganization, type TestServer } from '../support/server.ts';
import { assertOk, assertProblem } from './harness.ts';

const frameAncestors = (csp: string | null) => /frame-ancestors ([^;]+)/.exec(csp ?? '')?.[1];
const settingsOf = (html: string) => JSON.parse(/<script type="application\/json" id="foyer-settings">([\s\S]*?)<\/script>/.exec(html)![1]!);

for (const database of await testDatabases()) {
  describe(`allowed embedding origins on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let clinic: SeededOrganization;
    let other: SeededOrganization;
    let api: Client;
    let otherApi: Client;

    before(async () => {
      db = await database.open();
      server = await startServer(db.store, { passwordHashCost: 14, frameAncestors: "'none'", rateLimitPerMinute: 25 }, { limits: true });
      clinic = await seedOrganization(server.ctx, 'basic', [{ email: 'ada@clinic.test', fullName: 'Ada Admin', role: 'ADMIN' }]);
      other = await seedOrganization(server.ctx, 'basic');
      api = client(server.baseUrl, clinic);
      otherApi = client(server.baseUrl, other);
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    it('starts empty, replaces the list with normalized origins, and answers the new list', async () => {
      assert.deepEqual((await api.get('/v3/allowed-origins')).body, { origins: [] });
      const set = await api.post('/v3/allowed-origins', {
        json: { origins: ['https://Portal.Example.org', 'https://portal.example.org:443/', 'http://localhost:5173', 'https://app.example.org:8443'] },
      });
      assertOk(set);
      assert.deepEqual(set.body, { origins: ['https://portal.example.org', 'http://localhost:5173', 'https://app.example.org:8443'] });
      assert.deepEqual((await api.get('/v3/allowed-origins')).body, set.body);
      assert.deepEqual((await otherApi.get('/v3/allowed-origins')).body, { origins: [] }, 'another organization has its own list');
      const [change] = (await listOrganizationChanges(server.ctx, operatorActor(clinic.organization), { limit: 1 })).items;
      assert.equal(change!.action, 'allowed_origins.changed');
      assert.deepEqual(change!.actor, { kind: 'api_key', id: clinic.key.id, label: `${clinic.key.publicKey.slice(0, 12)}…` });
      assert.deepEqual(change!.detail, { added: ['https://portal.example.org', 'http://localhost:5173', 'https://app.example.org:8443'], removed: [] });
    });

    it('refuses wildcards, paths, plain http off this machine, other schemes and non-origins, naming each, and changes nothing', async () => {
      const before = (await api.get('/v3/allowed-origins')).body;
      const refused = await api.post('/v3/allowed-origins', {
        json: { origins: ['https://ok.example', 'https://*.example.org', 'https://portal.example.org/app', 'http://portal.example.org', 'ftp://files.example', 'portal.example.org', 'https://x.example?a=1', "https://a.example;script-src *", 'https://a.example,b', "https://a.example'x"] },
      });
      // The last three would break the frame-ancestors header they go into (a new directive, a second policy, a quote).
      assertProblem(refused, 400, 'validation-failed', ['origins.1', 'origins.2', 'origins.3', 'origins.4', 'origins.5', 'origins.6', 'origins.7', 'origins.8', 'origins.9']);
      assertProblem(await api.post('/v3/allowed-origins', { json: { origins: 'https://ok.example' } }), 400, 'validation-failed');
      assert.deepEqual((await api.get('/v3/allowed-origins')).body, before);
    });

    it('frames the organization’s meeting, room and waiting pages only for its origins, and names them to the page; other organizations keep the default', async () => {
      const operator = operatorActor(clinic.organization);
      const meeting = await createMeeting(server.ctx, operator, {});
      const room = await createRoom(server.ctx, operator, { slug: `room-${database.name}-origins`, title: 'Room' });
      const queue = await createSpace(server.ctx, operator, 'queue', { name: 'Queue', slug: `queue-${database.name}-origins` });
      const expected = "'self' https://portal.example.org http://localhost:5173 https://app.example.org:8443";
      for (const path of [`/meetings/${meeting.id}`, `/${room.slug}`, `/${queue.slug}`]) {
        const page = await request(server.origin + path, 'GET');
        assert.equal(page.status, 200, path);
        assert.equal(frameAncestors(page.headers.get('content-security-policy')), expected, path);
        assert.deepEqual(settingsOf(page.text).allowedParents, ['https://portal.example.org', 'http://localhost:5173', 'https://app.example.org:8443'], path);
      }
      const theirs = await createMeeting(server.ctx, operatorActor(other.organization), {});
      const page = await request(`${server.origin}/meetings/${theirs.id}`, 'GET');
      assert.equal(frameAncestors(page.headers.get('content-security-policy')), "'none'");
      assert.deepEqual(settingsOf(page.text).allowedParents, []);
      // An ended meeting's page follows its organization too.
      await api.delete(`/v3/meeting/${meeting.id}`);
      const gone = await request(`${server.origin}/meetings/${meeting.id}`, 'GET');
      assert.equal(gone.status, 410);
      assert.equal(frameAncestors(gone.headers.get('content-security-policy')), expected);
    });

    it('gives an embedded page over https a participant cookie it keeps inside another site’s frame (SameSite=None, Secure, Partitioned)', async () => {
      const secure = await startServer(db.store, { publicUrl: 'https://meet.clinic.test' });
      try {
        const meeting = await createMeeting(secure.ctx, operatorActor(clinic.organization), {});
        const page = await request(`${secure.origin}/meetings/${meeting.id}`, 'GET');
        assert.match(page.headers.get('set-cookie') ?? '', /^foyer_participant=[A-Za-z0-9_-]{24}; Max-Age=2592000; Path=\/; HttpOnly; Secure; Partitioned; SameSite=None$/);
      } finally {
        await secure.close();
      }
    });

    it('lets the organization’s console be framed by its origins; other dashboard pages never', async () => {
      const ada = await signedIn(server.origin, server.ctx, clinic.organization, 'ada@clinic.test');
      const board = await createSpace(server.ctx, operatorActor(clinic.organization), 'board', { name: 'Board', slug: `board-${database.name}-origins` });
      await updateSpace(server.ctx, operatorActor(clinic.organization), 'board', board.id, { memberIds: [clinic.users[0]!.id] });
      const console = await ada.get(`/dashboard/boards/${board.id}/console`);
      assert.equal(console.status, 200);
      assert.equal(frameAncestors(console.headers.get('content-security-policy')), "'self' https://portal.example.org http://localhost:5173 https://app.example.org:8443");
      assert.equal(console.headers.get('x-frame-options'), null);
      assert.deepEqual(settingsOf(console.text).allowedParents.length, 3);
      const overview = await ada.get('/dashboard');
      assert.equal(frameAncestors(overview.headers.get('content-security-policy')), "'none'");
      assert.equal(overview.headers.get('x-frame-options'), 'DENY');
    });

    it('lets ADMINs set them in the dashboard, naming each bad line beside the field', async () => {
      const ada = await signedIn(server.origin, server.ctx, clinic.organization, 'ada@clinic.test');
      const page = await ada.get('/dashboard/embedding?lang=en');
      assert.equal(page.status, 200);
      assert.match(page.text, /https:\/\/portal\.example\.org\nhttp:\/\/localhost:5173/);
      const refused = await ada.post('/dashboard/embedding', { origins: 'https://fine.example\nhttps://*.bad.example\n' });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /id="origins-error"><p class="field-error">“https:\/\/\*\.bad\.example” is not an origin/);
      assert.match(refused.text, /https:\/\/\*\.bad\.example<\/textarea>|https:\/\/\*\.bad\.example\n<\/textarea>/);
      const saved = await ada.post('/dashboard/embedding', { origins: 'https://fine.example\r\n\r\nhttp://127.0.0.1:8080\n' });
      assert.equal(`${saved.status} ${saved.location}`, '303 /dashboard/embedding?saved');
      assert.deepEqual((await api.get('/v3/allowed-origins')).body, { origins: ['https://fine.example', 'http://127.0.0.1:8080'] });
      const [change] = (await listOrganizationChanges(server.ctx, operatorActor(clinic.organization), { limit: 1 })).items;
      assert.equal(change!.actor.label, `Ada Admin <ada@clinic.test>`);
      assert.deepEqual(change!.detail.removed, ['https://portal.example.org', 'http://localhost:5173', 'https://app.example.org:8443']);
    });

    it('counts the calls and limits them like every API call', async () => {
      await setAllowedOrigins(server.ctx, operatorActor(other.organization), ['https://other.example']);
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await otherApi.get('/v3/allowed-origins')).status);
      assert.ok(statuses.includes(429), statuses.join(','));
      assert.equal(statuses.indexOf(429), statuses.filter((s) => s === 200).length, 'refused once the minute’s budget is spent');
      await server.limits!.usage.flush();
      const rows = await server.ctx.store.listHourlyUsage(other.organization.id, new Date(Date.now() - 7_200_000), new Date(Date.now() + 3_600_000));
      assert.ok(rows.reduce((n, r) => n + r.requests, 0) >= 20);
    });
  });
}

/**
 * Every dashboard route, taken from Fastify's route table (not a list
 * written here), on SQLite and PostgreSQL:
 * - without a session, every route not marked public sends the visitor
 *   to sign in;
 * - a signed-in administrator of another organization, trying each route
 *   that has a parameter with every real id and slug of this one, is
 *   answered 404;
 * - a USER is refused (403) every route of the keys and usage sections,
 *   whichever exist, with their organization's own ids;
 * and none of it changes anything in either organization. Routes added
 * later are covered by the same tests.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import { createWebhookEndpoint } from '../../src/domain/webhooks/endpoints.ts';
import { randomUUID } from 'node:crypto';
import type { Organization } from '../../src/domain/types.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { DashboardClient, signedIn } from '../support/dashboard-client.ts';
import { dashboardRouteTable, fillings, type DashboardRoute } from '../support/dashboard-routes.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';

/** Sections only an ADMIN may reach, by path prefix (whichever routes they hold). */
const ADMIN_SECTIONS = ['/dashboard/keys', '/dashboard/usage', '/dashboard/webhooks', '/dashboard/members', '/dashboard/embedding'];

/** Every real id and slug of an organization's objects: what a prying member would try. */
async function realIds(ctx: DomainContext, seeded: SeededOrganization, tag: string): Promise<string[]> {
  const operator = operatorActor(seeded.organization);
  const users = seeded.users.map((u) => u.id);
  const meeting = await createMeeting(ctx, operator, { type: 'CONSULTATION', ownerEmail: seeded.users[0]!.email, queryParameters: { patient: tag } });
  const room = await createRoom(ctx, operator, { slug: `room-${tag}`, title: 'Room' });
  const board = await createSpace(ctx, operator, 'board', { name: 'Board', slug: `board-${tag}` });
  await updateSpace(ctx, operator, 'board', board.id, { memberIds: users });
  const queue = await createSpace(ctx, operator, 'queue', { name: 'Queue', slug: `queue-${tag}` });
  const { key } = seeded;
  // An endpoint for an event nothing here raises, and a finished delivery of it: the worker leaves both alone.
  const { endpoint } = await createWebhookEndpoint(ctx, operator, { url: `https://hooks.example.test/${tag}`, events: ['member.status.changed'] });
  const deliveryId = randomUUID();
  await ctx.store.insertWebhookDeliveries([
    {
      id: deliveryId, eventId: `msg_${tag}`, organizationId: seeded.organization.id, endpointId: endpoint.id, eventType: 'member.status.changed', orderingKey: null,
      payload: '{}', status: 'failed', attempts: 1, nextAttemptAt: new Date(), lastStatus: 410, lastError: 'HTTP 410', lastLatencyMs: 3, lastAttemptAt: new Date(), deliveredAt: null, createdAt: new Date(),
    },
  ]);
  return [meeting.id, meeting.shortCode!, room.slug, room.id, board.id, board.slug, queue.id, queue.slug, key.id, key.publicKey, endpoint.id, deliveryId, ...users, seeded.organization.id];
}

/** Everything stored of an organization that a dashboard action could change. */
async function stateOf(ctx: DomainContext, organization: Organization) {
  const { store } = ctx;
  const all = { limit: 10_000 };
  return {
    organization: await store.findOrganization(organization.id),
    users: await store.listUsers(organization.id),
    keys: await store.listApiKeys(organization.id),
    quota: await store.findOrganizationQuota(organization.id),
    meetings: await store.listMeetings(organization.id, all),
    rooms: await store.listRooms(organization.id, all),
    boards: await store.listSpaces(organization.id, 'board', all),
    queues: await store.listSpaces(organization.id, 'queue', all),
    webhooks: await store.listWebhookEndpoints(organization.id),
    origins: await store.listAllowedOrigins(organization.id),
    deliveries: await Promise.all((await store.listWebhookEndpoints(organization.id)).map((e) => store.listWebhookDeliveries(organization.id, e.id, 100))),
  };
}

let sequence = 0;
/** A form with every field a dashboard form takes, so a route that forgot its check would change something. */
function hostileForm(memberIds: string[], email: string): Record<string, string | string[]> {
  const tag = `${Date.now().toString(36)}-${++sequence}`;
  return {
    name: `Hijacked ${tag}`, slug: `hijacked-${tag}`, title: 'Hijacked', closingMessage: 'Hijacked', isActive: 'true', hasWaitingList: 'true',
    memberIds, type: 'MEETING', ownerEmail: email, meetingId: '', queryKey: 'k', queryValue: 'v', expires: 'never', expiresAt: '', role: 'ADMIN',
    url: `https://hijacked.example.test/${tag}`, events: ['meeting.created'], description: 'Hijacked', origins: 'https://hijacked.example.test',
  };
}

async function attempt(client: DashboardClient, route: DashboardRoute, path: string, form: Record<string, string | string[]>) {
  return route.method === 'GET' ? client.get(path) : client.submit(route.method, path, form);
}

for (const database of await testDatabases()) {
  describe(`every dashboard route, from the route table, on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let routes: DashboardRoute[];
    let home: SeededOrganization;
    let victim: SeededOrganization;
    let homeIds: string[];
    let victimIds: string[];

    before(async () => {
      db = await database.open();
      server = await startServer(db.store, { passwordHashCost: 14 });
      home = await seedOrganization(server.ctx, 'medical', [
        { email: 'ada.admin@home.test', fullName: 'Ada Admin', role: 'ADMIN' },
        { email: 'uma.user@home.test', fullName: 'Uma User', role: 'USER' },
      ]);
      victim = await seedOrganization(server.ctx, 'medical', [
        { email: 'vic.admin@victim.test', fullName: 'Vic Admin', role: 'ADMIN' },
        { email: 'val.user@victim.test', fullName: 'Val User', role: 'USER' },
      ]);
      homeIds = await realIds(server.ctx, home, `home-${database.name}`);
      victimIds = await realIds(server.ctx, victim, `victim-${database.name}`);
      routes = await dashboardRouteTable(server.ctx, server.config);
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    const unchanged = async (work: () => Promise<void>) => {
      const before = [await stateOf(server.ctx, home.organization), await stateOf(server.ctx, victim.organization)];
      await work();
      const after = [await stateOf(server.ctx, home.organization), await stateOf(server.ctx, victim.organization)];
      assert.deepEqual(after, before, 'nothing changed in either organization');
    };

    it('reads the table from Fastify: each route is served by the real server, parameter routes among them', () => {
      assert.ok(routes.length > 0);
      for (const route of routes) {
        assert.ok(server.app.hasRoute({ method: route.method as 'GET', url: route.url }), `${route.method} ${route.url} is served`);
      }
      assert.ok(routes.some((r) => r.url === '/dashboard/meetings/:id' && r.method === 'GET'));
      assert.ok(routes.some((r) => r.url === '/dashboard/boards/:id/delete' && r.method === 'POST'));
      assert.ok(routes.some((r) => r.public && r.url === '/dashboard/sign-in'));
    });

    it('sends a visitor without a session to sign in from every route not marked public, changing nothing', async () => {
      const visitor = new DashboardClient(server.origin);
      await visitor.get('/dashboard/sign-in');
      assert.ok(visitor.csrf, 'a visitor’s form token');
      await unchanged(async () => {
        for (const route of routes.filter((r) => !r.public)) {
          const path = fillings(route, victimIds)[0]!;
          const page = await attempt(visitor, route, path, hostileForm(victim.users.map((u) => u.id), victim.users[0]!.email));
          const to = route.method === 'GET' ? `/dashboard/sign-in?next=${encodeURIComponent(path)}` : '/dashboard/sign-in';
          assert.equal(`${page.status} ${page.location}`, `303 ${to}`, `${route.method} ${path} (a public route is marked config: { public: true })`);
        }
      });
    });

    it('answers 404 to an administrator of another organization on every route with a parameter, whichever real id of it is tried, changing nothing', async () => {
      const ada = await signedIn(server.origin, server.ctx, home.organization, 'ada.admin@home.test');
      const tried = routes.filter((r) => !r.public && r.params.length > 0);
      assert.ok(tried.length > 0);
      await ada.get('/dashboard');
      await unchanged(async () => {
        for (const route of tried) {
          for (const path of fillings(route, victimIds)) {
            const page = await attempt(ada, route, path, hostileForm(home.users.map((u) => u.id), 'ada.admin@home.test'));
            assert.equal(page.status, 404, `${route.method} ${path}: ${page.status} ${page.location ?? ''}`);
          }
        }
      });
    });

    it('refuses a USER every route of the keys, webhooks, usage, members and embedding sections (403), with their own organization’s ids, changing nothing', async (t) => {
      const adminOnly = routes.filter((r) => ADMIN_SECTIONS.some((prefix) => r.url === prefix || r.url.startsWith(`${prefix}/`)));
      // Every section exists: a renamed one must not drop out of this check unnoticed.
      for (const prefix of ADMIN_SECTIONS) assert.ok(adminOnly.some((r) => r.url === prefix || r.url.startsWith(`${prefix}/`)), `routes under ${prefix}`);
      const uma = await signedIn(server.origin, server.ctx, home.organization, 'uma.user@home.test');
      await uma.get('/dashboard');
      await unchanged(async () => {
        for (const route of adminOnly) {
          for (const path of fillings(route, homeIds)) {
            const page = await attempt(uma, route, path, hostileForm(home.users.map((u) => u.id), 'uma.user@home.test'));
            assert.equal(page.status, 403, `${route.method} ${path}: ${page.status} ${page.location ?? ''}`);
          }
        }
      });
    });
  });
}

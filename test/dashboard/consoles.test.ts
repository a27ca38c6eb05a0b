/**
 * A member's consoles in the dashboard, over plain HTTP on SQLite: the
 * Waiting lists page lists the boards with a waiting list and the queues
 * the member is on (and nothing else); the boards and queues list links
 * those to their consoles; a console page carries only what its module
 * needs, may use the camera and the signalling socket, and loads no
 * inline script; a board the member is not on, or without a waiting
 * list, says so instead of opening a console; administrators (only) see
 * who served whom.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { Space, SpaceKind } from '../../src/domain/types.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { signedIn, type DashboardClient } from '../support/dashboard-client.ts';
import { tagById, textById } from '../support/html.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';

let sequence = 0;

describe('a member’s consoles in the dashboard', () => {
  let db: TestDatabase;
  let server: TestServer;
  let org: SeededOrganization;
  let sam: DashboardClient;
  let spaces: Record<string, Space>;

  const space = async (kind: SpaceKind, name: string, members: string[], hasWaitingList?: boolean) => {
    const operator = operatorActor(org.organization);
    const created = await createSpace(server.ctx, operator, kind, { name, slug: `${kind}-${++sequence}-${Date.now().toString(36)}`, hasWaitingList });
    return updateSpace(server.ctx, operator, kind, created.id, { memberIds: members });
  };

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { passwordHashCost: 14 });
    org = await seedOrganization(server.ctx, 'medical', [
      { email: 'sam@clinic.test', fullName: 'Sam Serve', role: 'USER' },
      { email: 'tia@clinic.test', fullName: 'Tia Other', role: 'USER' },
      { email: 'uli@clinic.test', fullName: 'Uli Admin', role: 'ADMIN' },
    ]);
    const [samUser, tiaUser] = org.users;
    spaces = {
      surgery: await space('board', 'Surgery', [samUser!.id], true),
      walkIn: await space('board', 'Walk-in', [samUser!.id], false),
      helpdesk: await space('queue', 'Helpdesk', [samUser!.id, tiaUser!.id]),
      notMine: await space('queue', 'Billing', [tiaUser!.id]),
    };
    sam = await signedIn(server.origin, server.ctx, org.organization, 'sam@clinic.test');
  });
  after(async () => {
    await server?.close();
    await db?.dispose();
  });

  it('lists the member’s boards with a waiting list and queues, each linked to its console', async () => {
    const page = await sam.get('/dashboard/consoles?lang=en');
    assert.equal(page.status, 200);
    const list = textById(page.text, 'consoles') ?? '';
    assert.match(list, /Surgery/);
    assert.match(list, /Helpdesk/);
    assert.doesNotMatch(list, /Walk-in|Billing/);
    assert.ok(page.text.includes(`href="/dashboard/boards/${spaces.surgery!.id}/console"`));
    assert.ok(page.text.includes(`href="/dashboard/queues/${spaces.helpdesk!.id}/console"`));
    assert.match(page.text, /<a href="\/dashboard\/consoles" aria-current="page">Waiting lists<\/a>/);
  });

  it('links a console from the boards and queues lists only where the member serves a line', async () => {
    const queues = await sam.get('/dashboard/queues?lang=en');
    assert.ok(tagById(queues.text, `console-${spaces.helpdesk!.id}`));
    assert.equal(tagById(queues.text, `console-${spaces.notMine!.id}`), undefined);
    const boards = await sam.get('/dashboard/boards?lang=en');
    assert.ok(tagById(boards.text, `console-${spaces.surgery!.id}`));
    assert.equal(tagById(boards.text, `console-${spaces.walkIn!.id}`), undefined);
  });

  it('serves a console page with its settings as data, its own module, and a policy that allows the camera and the socket', async () => {
    const page = await sam.get(`/dashboard/queues/${spaces.helpdesk!.id}/console?lang=de`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<script type="module" src="\/static\/bundles\/console\.[\w-]+\.js"><\/script>/);
    assert.doesNotMatch(page.text, /<script>(?!<)/, 'no inline script');
    const settings = JSON.parse(/<script type="application\/json" id="foyer-settings">(.*?)<\/script>/s.exec(page.text)![1]!);
    assert.deepEqual(settings.console, { kind: 'queue', spaceId: spaces.helpdesk!.id, name: 'Helpdesk', memberName: 'Sam Serve' });
    assert.ok(tagById(page.text, 'take-next'), 'a queue has take next');
    assert.match(page.headers.get('permissions-policy') ?? '', /camera=\(self\)/);
    assert.match(page.headers.get('content-security-policy') ?? '', /media-src 'self' blob: mediastream:/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';/);
    assert.match(page.headers.get('content-security-policy') ?? '', /connect-src 'self' ws:\/\/127\.0\.0\.1:\d+ wss:\/\/127\.0\.0\.1:\d+;/, 'the socket named for older Safari');
    assert.match(textById(page.text, 'waiting-empty') ?? '', /Niemand wartet/);

    const board = await sam.get(`/dashboard/boards/${spaces.surgery!.id}/console`);
    assert.equal(tagById(board.text, 'take-next'), undefined, 'a board accepts clients one by one');
    // Other dashboard pages keep the camera off.
    assert.match((await sam.get('/dashboard/queues')).headers.get('permissions-policy') ?? '', /camera=\(\)/);
  });

  it('says so, instead of a console, for a queue the member is not on and a board without a waiting list', async () => {
    const notMine = await sam.get(`/dashboard/queues/${spaces.notMine!.id}/console?lang=en`);
    assert.equal(notMine.status, 200);
    assert.match(textById(notMine.text, 'console-problem') ?? '', /not a member/);
    assert.doesNotMatch(notMine.text, /console\.js|foyer-settings/);
    const walkIn = await sam.get(`/dashboard/boards/${spaces.walkIn!.id}/console?lang=en`);
    assert.match(textById(walkIn.text, 'console-problem') ?? '', /no waiting list/);
    // The kind in the path must match: a queue is not found as a board.
    assert.equal((await sam.get(`/dashboard/boards/${spaces.helpdesk!.id}/console`)).status, 404);
  });

  it('shows administrators who served whom and when, newest first, and refuses a USER', async () => {
    const [samUser] = org.users;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const entry = (name: string, minutesAgo: number, change: Record<string, unknown>) =>
      server.ctx.store.insertWaitingEntry({
        id: randomUUID(),
        spaceId: spaces.surgery!.id,
        organizationId: org.organization.id,
        displayName: name,
        tokenHash: createHash('sha256').update(name).digest('hex'),
        state: 'served',
        arrivedAt: at(minutesAgo),
        connectionId: null,
        instanceId: null,
        disconnectedAt: null,
        servedBy: null,
        reservedUntil: null,
        meetingId: null,
        acceptedAt: null,
        callStartedAt: null,
        endedAt: at(minutesAgo - 5),
        outcome: 'hung_up',
        message: null,
        ...change,
      } as never);
    await entry('Pat <Doe>', 60, { servedBy: samUser!.id, acceptedAt: at(58), callStartedAt: at(58) });
    await entry('Quinn', 30, { state: 'declined', outcome: 'declined', servedBy: samUser!.id, message: 'Please call us.' });
    await entry('Ray', 20, { state: 'waiting', endedAt: null, outcome: null, answeredAt: at(20) });

    const uli = await signedIn(server.origin, server.ctx, org.organization, 'uli@clinic.test');
    const page = await uli.get(`/dashboard/boards/${spaces.surgery!.id}/history?lang=en`);
    assert.equal(page.status, 200);
    const rows = [...page.text.matchAll(/<tr id="history-[^"]+">([\s\S]*?)<\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    assert.equal(rows.length, 2, 'only waits that ended');
    assert.match(rows[0]!, /^Quinn .* Sam Serve .* declined .*Please call us/);
    assert.match(rows[1]!, /^Pat &#60;Doe&#62; .* Sam Serve .* served hung_up/);

    const edit = await uli.get(`/dashboard/boards/${spaces.surgery!.id}`);
    assert.ok(tagById(edit.text, 'history-link'), 'linked from the board’s page for administrators');
    const asUser = await sam.get(`/dashboard/boards/${spaces.surgery!.id}/history`);
    assert.equal(asUser.status, 403);
    assert.equal(tagById((await sam.get(`/dashboard/boards/${spaces.surgery!.id}`)).text, 'history-link'), undefined);
  });

  // Last: the queues it adds would push the others off the first page of the queues list.
  it('lists a line of the member’s behind more than a page of the organization’s other queues', async () => {
    const [, tiaUser] = org.users;
    for (let i = 0; i < 101; i++) await space('queue', `Other ${i}`, [tiaUser!.id]);
    const page = await sam.get('/dashboard/consoles?lang=en');
    const list = textById(page.text, 'consoles') ?? '';
    assert.match(list, /Helpdesk/, 'the older queue, beyond the first page');
    assert.match(list, /Surgery/);
  });
});

/**
 * Accessibility of every dashboard page, in Chromium with axe-core: each
 * GET route of the dashboard's route table (read from Fastify, so a new
 * page is covered as soon as it is added), with its parameters filled
 * from objects of the organization, opened by a signed-in admin; no page
 * may have a serious or critical violation (contrast included). The
 * public pages (sign-in and the like) are opened signed out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { operatorActor } from '../../src/domain/actors.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { dashboardRouteTable, fillings } from '../support/dashboard-routes.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { seriousViolations, type Violation } from './axe.ts';
import { browserSkipReason, launch } from './support.ts';
import { newSpace } from './waiting-support.ts';

const skip = browserSkipReason();

describe('accessibility of the dashboard in Chromium (axe-core)', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let seeded: SeededOrganization;
  let browser: Browser;

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store);
    seeded = await seedOrganization(server.ctx, 'medical', [
      { email: 'ann@clinic.test', fullName: 'Ann Admin', role: 'ADMIN' },
      { email: 'bo@clinic.test', fullName: 'Bo Member', role: 'USER' },
    ]);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await db?.dispose();
  });

  it('has no serious or critical violation on any page', async () => {
    const org = operatorActor(seeded.organization);
    const [ann, bo] = seeded.users as [NonNullable<(typeof seeded.users)[0]>, NonNullable<(typeof seeded.users)[0]>];
    const meeting = await createMeeting(server.ctx, org, { ownerEmail: ann.email } as any);
    const room = await createRoom(server.ctx, org, { slug: `front-desk-${Date.now().toString(36)}`, title: 'Front desk' });
    const board = await newSpace(server, seeded, 'board', [ann, bo]);
    const queue = await newSpace(server, seeded, 'queue', [ann]);
    // The likely object first (by the route's section), the others after it.
    const bySection: Record<string, string> = { meetings: meeting.id, rooms: room.id, boards: board.id, queues: queue.id, members: bo.id };
    const idsFor = (url: string) => {
      const first = bySection[url.split('/')[2] ?? ''];
      return [...new Set([...(first ? [first] : []), meeting.id, room.id, board.id, queue.id, ann.id, bo.id])];
    };

    const signedIn: BrowserContext = await browser.newContext({ permissions: ['camera', 'microphone'] });
    await signedIn.addCookies([{ name: 'foyer_session', value: (await startSession(server.ctx, ann, 'password')).token, url: server.origin }]);
    const signedOut: BrowserContext = await browser.newContext();
    const found: Record<string, Violation[]> = {};
    const checked: string[] = [];
    try {
      const routes = (await dashboardRouteTable(server.ctx, server.config)).filter((r) => r.method === 'GET');
      for (const route of routes) {
        const page = await (route.public ? signedOut : signedIn).newPage();
        try {
          for (const path of fillings(route, idsFor(route.url))) {
            const response = await page.goto(server.origin + path);
            if (!response || response.status() !== 200 || !(response.headers()['content-type'] ?? '').includes('text/html')) continue;
            checked.push(path);
            const violations = await seriousViolations(page);
            if (violations.length) found[path] = violations;
            break;
          }
        } finally {
          await page.close();
        }
      }
    } finally {
      await signedIn.close();
      await signedOut.close();
    }
    console.log(`# checked ${checked.length} pages: ${checked.join(' ')}`);
    assert.ok(checked.length >= 10, `only ${checked.length} pages answered`);
    assert.deepEqual(found, {}, JSON.stringify(found, null, 2));
  });
});

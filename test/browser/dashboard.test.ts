/**
 * The dashboard in real headless Chromium, as a new clinic admin uses it:
 * an invitation link, a password, signing in by the labelled fields, a
 * consultation with query parameters whose short link opens the meeting
 * page with them applied, and a board with two members, each step through
 * the pages' own forms and buttons. The REST API, called from the test,
 * sees the same objects.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { operatorActor } from '../../src/domain/actors.ts';
import { issueMemberLink } from '../../src/domain/member-links.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type SeededOrganization, type TestServer } from '../support/server.ts';
import { browserSkipReason, launch } from './support.ts';

const skip = browserSkipReason();
const PASSWORD = 'lantern-orchid-velvet-42';

describe('the dashboard in Chromium', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let api: Client;
  let seeded: SeededOrganization;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** A URL the server printed (with its PUBLIC_URL) as one on this test server. */
  const local = (url: string) => server.origin + new URL(url).pathname + new URL(url).search;

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { passwordHashCost: 14 });
    seeded = await seedOrganization(server.ctx, 'medical', [
      { email: 'ann.lee@example.test', fullName: 'Ann Lee', role: 'ADMIN' },
      { email: 'bo.chen@example.test', fullName: 'Bo Chen', role: 'USER' },
      { email: 'cy.diaz@example.test', fullName: 'Cy Diaz', role: 'USER' },
    ]);
    api = client(server.baseUrl, seeded);
    browser = await launch();
    context = await browser.newContext({ permissions: ['camera', 'microphone', 'clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await db?.dispose();
  });

  it('lets an invited admin set a password and sign in by the fields labelled Email and Password', async () => {
    const link = await issueMemberLink(server.ctx, operatorActor(seeded.organization), 'ann.lee@example.test', 'invite');
    await page.goto(local(link.url));
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: /set password/i }).click();
    await page.waitForURL(/\/dashboard\/sign-in/);
    await page.getByLabel('Email').fill('ann.lee@example.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard' || url.pathname === '/dashboard/');
    assert.match(await page.textContent('main') ?? '', new RegExp(seeded.organization.name));
  });

  it('creates a consultation with query parameters whose short link opens the meeting page with them applied', async () => {
    await page.goto(server.origin + '/dashboard/meetings/new');
    await page.getByLabel(/consultation/i).check();
    await page.getByLabel('Owner').selectOption('bo.chen@example.test');
    await page.fill('#query-key-1', 'displayName');
    await page.fill('#query-value-1', 'Pat Doe');
    await page.fill('#query-key-2', 'lang');
    await page.fill('#query-value-2', 'de');
    await page.click('#create-meeting');
    await page.waitForURL(/\/dashboard\/meetings\/[0-9a-f-]+/);
    const url = (await page.textContent('#meeting-link'))!.trim();
    assert.match(url, /\/m\/[0-9A-Za-z]+$/, 'a meeting with query parameters gets a short link');
    const id = (await page.textContent('#meeting-id'))!.trim();

    const fromApi = await api.get(`/v3/meeting/${id}`);
    assert.equal(fromApi.status, 200, fromApi.text);
    assert.equal(fromApi.body.redirectUrl, url, 'the API and the dashboard show the same meeting');
    assert.match((await page.textContent('main'))!, /Consultation[\s\S]*Bo Chen/);

    const patient = await browser.newContext({ permissions: ['camera', 'microphone'] });
    try {
      const p = await patient.newPage();
      await p.goto(local(url));
      await p.waitForURL(new RegExp(`/meetings/${id}\\?`));
      assert.equal(await p.inputValue('#name'), 'Pat Doe');
      assert.equal(await p.getAttribute('html', 'lang'), 'de');
    } finally {
      await patient.close();
    }
  });

  it('creates a board and gives it two members, and the API shows them', async () => {
    await page.goto(server.origin + '/dashboard/boards/new');
    await page.getByLabel('Name').fill('Cardiology');
    await page.getByLabel('Address (slug)').fill('cardio-ward');
    await page.click('#create-space');
    await page.waitForURL(/\/dashboard\/boards\/[0-9a-f-]+/);
    const id = new URL(page.url()).pathname.split('/')[3]!;
    await page.getByLabel(/Bo Chen/).check();
    await page.getByLabel(/Cy Diaz/).check();
    await page.getByRole('button', { name: /save/i }).click();
    await page.waitForURL(/\/dashboard\/boards\?saved/);
    const board = await api.get(`/v3/rooms/board/${id}`);
    assert.equal(board.status, 200, board.text);
    assert.equal(board.body.slug, 'cardio-ward');
    const ids = new Set(seeded.users.filter((u) => u.fullName !== 'Ann Lee').map((u) => u.id));
    assert.deepEqual(new Set(board.body.members.map((m: { userId: string }) => m.userId)), ids);
  });
});

/**
 * API keys and usage in real headless Chromium, as a clinic's admin uses
 * them: creating a key by the labelled form, seeing its secret once with a
 * working copy button, calling the REST API with it from the test, seeing
 * those requests in the usage charts (uPlot, loaded from this server under
 * the dashboard's strict CSP) and their table, then revoking the key after
 * the confirmation and the API refusing it at once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { invitationPath } from '../support/dashboard-client.ts';
import { client, credentialHeaders, seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { browserSkipReason, launch, waitUntil } from './support.ts';

const skip = browserSkipReason();
const PASSWORD = 'quartz-meadow-lantern-7';

describe('API keys and usage in Chromium', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let seeded: SeededOrganization;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  let publicKey = '';
  let secret = '';

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, { passwordHashCost: 14 }, { limits: true });
    seeded = await seedOrganization(server.ctx, 'basic', [{ email: 'ann.keys@example.test', fullName: 'Ann Keys', role: 'ADMIN' }]);
    browser = await launch();
    context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // A CSP violation (an inline style or script of the chart library) shows as a console error.
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 40[034]/.test(message.text())) problems.push(message.text());
    });
    const link = await invitationPath(server.ctx, seeded.organization, 'ann.keys@example.test');
    await page.goto(server.origin + link + '?lang=en');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: /set password/i }).click();
    await page.waitForURL(/\/dashboard\/sign-in/);
    await page.getByLabel('Email').fill('ann.keys@example.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await db?.dispose();
  });

  it('creates a key and shows its secret once, with a copy button that copies it', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('link', { name: 'New API key' }).click();
    await page.waitForURL(/\/dashboard\/keys\/new$/);
    assert.equal(await page.isVisible('#expiresAt'), false, 'the date shows only for “On a date”');
    await page.getByLabel('On a date').check();
    assert.equal(await page.isVisible('#expiresAt'), true);
    await page.getByLabel('In 30 days').check();
    await page.getByLabel('Name').fill('Booking system');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForSelector('#new-secret');
    assert.equal(new URL(page.url()).pathname, '/dashboard/keys', 'the answer to the form, at the form’s own address');
    publicKey = (await page.textContent('#new-key'))!.trim();
    secret = (await page.textContent('#new-secret'))!.trim();
    assert.match(secret, /^fs_/);
    assert.ok(!page.url().includes(secret));
    await page.getByRole('button', { name: 'Copy Secret (API_SECRET)' }).click();
    // The click's handler writes the clipboard asynchronously: read it once the write has landed, not before.
    await waitUntil('the secret on the clipboard', async () => (await page.evaluate(() => navigator.clipboard.readText())) === secret, { timeout: 15_000 });

    await page.getByRole('link', { name: 'I have stored the secret' }).click();
    await page.waitForURL(/\/dashboard\/keys$/);
    const list = (await page.textContent('#keys'))!;
    assert.match(list, /Booking system/);
    assert.ok(!list.includes(secret) && !list.includes(publicKey));
  });

  it('shows the key’s requests, accepted from the first, in the usage charts and their table', async () => {
    const api = client(server.baseUrl, { headers: credentialHeaders(publicKey, secret) });
    for (let i = 0; i < 7; i++) assert.equal((await api.get('/v3/organizations')).status, 200);
    await server.limits!.usage.flush();
    await page.getByRole('link', { name: 'Usage' }).click();
    await page.waitForURL(/\/dashboard\/usage$/);
    await page.waitForSelector('[data-chart="hours"] canvas');
    await page.waitForSelector('[data-chart="days"] canvas');
    assert.equal(await page.textContent('#usage-hour'), '7');
    assert.match((await page.textContent('#chart-hours-summary'))!, /^7 requests in total/);
    // The chart's width follows its panel; its legend names the total.
    const box = (await page.locator('[data-chart="hours"] canvas').boundingBox())!;
    assert.ok(box.width > 300 && box.height > 100, JSON.stringify(box));
    assert.match((await page.textContent('[data-chart="hours"] .u-legend'))!, /All keys/);
    await page.getByText('Show the figures as a table').first().click();
    const firstRow = (await page.locator('#table-hours tbody tr').first().innerText()).replace(/\s+/g, ' ').trim();
    assert.match(firstRow, / 7 0$/);
    assert.match((await page.locator('#usage-keys').innerText()).replace(/\s+/g, ' '), /Booking system fk_\w{6}… Active 7 7 0 /);
    assert.deepEqual(problems, [], 'no script error and no CSP violation');
  });

  it('revokes the key after the confirmation, and the API refuses it at once', async () => {
    const api = client(server.baseUrl, { headers: credentialHeaders(publicKey, secret) });
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.waitForURL(/\/dashboard\/keys$/);
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Revoke Booking system' }).click();
    await page.waitForURL(/\/dashboard\/keys\?revoked/);
    assert.match(asked, /^Revoke the key “Booking system”\?/);
    assert.equal((await api.get('/v3/organizations')).status, 401);
    assert.match((await page.textContent('main'))!, /The key is revoked/);
    assert.equal((await client(server.baseUrl, seeded).get('/v3/organizations')).status, 200, 'the other key still works');
  });
});

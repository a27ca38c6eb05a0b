/**
 * The dashboard's usage page, through real HTTP on SQLite and PostgreSQL,
 * on a server with its request limits (as `npm start` runs): requests
 * made with a key created in the dashboard, and those refused with 429,
 * show per hour and per day, in total and per key, in the summaries, the
 * tables and the charts' data; past hours and days land in their places
 * and older ones are left out; the quotas show; an organization without
 * requests gets an empty state; another organization's requests never
 * count; a USER is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { DAY_MS, HOUR_MS, hourStart, setOrganizationQuota } from '../../src/domain/usage.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { signedIn, type DashboardClient } from '../support/dashboard-client.ts';
import { decode, tableRows, textById } from '../support/html.ts';
import { client, credentialHeaders, seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';

/** The server's clock: a fixed afternoon, so hours and days fall in known places. */
const NOW = Date.UTC(2026, 2, 10, 14, 30);
const HOUR = hourStart(NOW);
let clock = NOW;
let sequence = 0;

interface ChartData {
  starts: number[];
  requests: number[];
  refused: number[];
  keys: Array<{ label: string; requests: number[] }>;
}

function chartData(html: string): { charts: Record<'hours' | 'days', ChartData> } {
  const json = /<script type="application\/json" id="usage-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  assert.ok(json, 'the page carries the charts’ figures');
  return JSON.parse(json);
}

for (const database of await testDatabases()) {
  describe(`dashboard usage on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;

    before(async () => {
      db = await database.open();
      server = await startServer(db.store, { passwordHashCost: 14, rateLimitPerMinute: 3 }, { now: () => new Date(clock), limits: true });
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    /** A fresh organization with an ADMIN and a USER, the ADMIN signed in. */
    async function organization(): Promise<{ org: SeededOrganization; admin: DashboardClient; adminEmail: string; userEmail: string }> {
      const n = ++sequence;
      const adminEmail = `ada.${n}@usage.test`;
      const userEmail = `uli.${n}@usage.test`;
      const org = await seedOrganization(server.ctx, 'basic', [
        { email: adminEmail, fullName: 'Ada Usage', role: 'ADMIN' },
        { email: userEmail, fullName: 'Uli Usage', role: 'USER' },
      ]);
      return { org, admin: await signedIn(server.origin, server.ctx, org.organization, adminEmail), adminEmail, userEmail };
    }

    it('shows an empty state, the keys and the quotas when nothing was requested in 30 days', async () => {
      const { org, admin } = await organization();
      const page = await admin.get('/dashboard/usage?lang=en');
      assert.equal(page.status, 200);
      assert.match(textById(page.text, 'usage-empty')!, /^No API requests in the last 30 days\./);
      assert.doesNotMatch(page.text, /id="usage-data"|data-chart=/, 'no charts without figures');
      assert.equal(textById(page.text, 'usage-hour'), '0');
      assert.equal(textById(page.text, 'quota-hourly'), 'No limit');
      assert.equal(textById(page.text, 'quota-daily'), 'No limit');
      const rows = tableRows(page.text, 'usage-keys');
      assert.deepEqual(rows.map((r) => r.text), [`Unnamed key ${org.key.publicKey.slice(0, 9)}… Active 0 0 0 Never`]);
    });

    it('counts a new key’s requests and its refused 429s per hour and day, per key and in total, and its last use', async () => {
      // Its own key a minute older than the one made here, so the keys' order is known.
      clock = NOW - 60_000;
      const { org, admin } = await organization();
      clock = NOW;
      // Another organization's requests in the same hour must not count here.
      const elsewhere = await seedOrganization(server.ctx, 'basic');
      await server.ctx.store.recordUsage([{ apiKeyId: elsewhere.key.id, organizationId: elsewhere.organization.id, hourStart: HOUR, requests: 999, refused: 9 }]);

      const form = await admin.get('/dashboard/keys/new?lang=en');
      const created = await admin.post('/dashboard/keys', { formId: /name="formId" value="([^"]+)"/.exec(form.text)![1]!, name: 'Booking system', expires: 'never' });
      assert.equal(created.status, 201);
      const booking = client(server.baseUrl, { headers: credentialHeaders(textById(created.text, 'new-key')!, textById(created.text, 'new-secret')!) });
      // Three per minute: the fourth and fifth are refused.
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await booking.get('/v3/organizations')).status);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      assert.equal((await client(server.baseUrl, org).get('/v3/organizations')).status, 200);
      await server.limits!.usage.flush();

      const page = await admin.get('/dashboard/usage?lang=en');
      assert.equal(page.status, 200);
      assert.equal(textById(page.text, 'usage-hour'), '4');
      assert.equal(textById(page.text, 'usage-day'), '4');
      assert.equal(textById(page.text, 'usage-refused'), '2');
      assert.equal(textById(page.text, 'chart-hours-summary'), '4 requests in total, at most 4 in one period (Mar 10, 2:00 PM); 2 refused.');

      // Tables, newest first: the period, all keys, refused, then each key (oldest key first).
      const hours = tableRows(page.text, 'table-hours');
      assert.equal(hours.length, 48);
      assert.equal(hours[0]!.text, 'Mar 10, 2:00 PM 4 2 1 3');
      assert.equal(hours[1]!.text, 'Mar 10, 1:00 PM 0 0 0 0');
      const days = tableRows(page.text, 'table-days');
      assert.equal(days.length, 30);
      assert.equal(days[0]!.text, 'Mar 10, 2026 4 2 1 3');
      const keyRows = tableRows(page.text, 'usage-keys').map((r) => r.text);
      assert.equal(keyRows.length, 2);
      assert.match(keyRows[0]!, /^Booking system fk_\w{6}… Active 3 3 2 Mar 10, 2026, 2:30 PM UTC$/);
      assert.match(keyRows[1]!, /^Unnamed key fk_\w{6}… Active 1 1 0 Mar 10, 2026, 2:30 PM UTC$/);

      const { charts } = chartData(page.text);
      assert.equal(charts.hours.starts.length, 48);
      assert.equal(charts.hours.starts.at(-1), HOUR / 1000);
      assert.equal(charts.hours.requests.at(-1), 4);
      assert.equal(charts.hours.refused.at(-1), 2);
      assert.deepEqual(charts.hours.keys.map((k) => [k.label, k.requests.at(-1)]), [[`${org.key.publicKey.slice(0, 9)}…`, 1], ['Booking system', 3]]);
      assert.equal(charts.days.starts.length, 30);
      assert.deepEqual(charts.days.requests.slice(-2), [0, 4]);
    });

    it('puts past hours and days in their places and leaves out what is older', async () => {
      const { org, admin } = await organization();
      const id = org.key.id;
      const orgId = org.organization.id;
      const row = (start: number, requests: number, refused = 0) => ({ apiKeyId: id, organizationId: orgId, hourStart: start, requests, refused });
      const today = NOW - (NOW % DAY_MS);
      await server.ctx.store.recordUsage([
        row(HOUR - 5 * HOUR_MS, 10),
        row(HOUR - 20 * HOUR_MS, 5, 1), // yesterday
        row(HOUR - 47 * HOUR_MS, 2), // the first of the 48 hours
        row(HOUR - 48 * HOUR_MS, 4), // before them, but within the days
        row(today - 29 * DAY_MS + 3 * HOUR_MS, 7), // the first of the 30 days
        row(today - 30 * DAY_MS + 3 * HOUR_MS, 99), // before them
      ]);
      const page = await admin.get('/dashboard/usage?lang=en');
      const { charts } = chartData(page.text);
      assert.equal(charts.hours.starts[0], (HOUR - 47 * HOUR_MS) / 1000);
      assert.equal(charts.hours.requests[0], 2);
      assert.equal(charts.hours.requests[47 - 5], 10);
      assert.equal(charts.hours.requests[47 - 20], 5);
      assert.equal(charts.hours.refused[47 - 20], 1);
      assert.equal(charts.hours.requests.reduce((a, b) => a + b), 17);
      assert.deepEqual(charts.hours.keys, [], 'one key: its line would be the total');
      assert.equal(charts.days.starts[0], (today - 29 * DAY_MS) / 1000);
      assert.deepEqual([charts.days.requests[0], ...charts.days.requests.slice(-3)], [7, 6, 5, 10]);
      assert.equal(charts.days.requests.reduce((a, b) => a + b), 28);
      assert.equal(textById(page.text, 'chart-days-summary'), '28 requests in total, at most 10 in one period (Mar 10, 2026); 1 refused.');
      assert.equal(textById(page.text, 'usage-refused'), '1');
      const days = tableRows(page.text, 'table-days').map((r) => r.text);
      assert.deepEqual([days[0], days[1], days[2], days[29]], ['Mar 10, 2026 10 0', 'Mar 9, 2026 5 1', 'Mar 8, 2026 6 0', 'Feb 9, 2026 7 0']);
      assert.deepEqual(tableRows(page.text, 'usage-keys').map((r) => r.text), [`Unnamed key ${org.key.publicKey.slice(0, 9)}… Active 17 28 1 Never`]);
    });

    it('shows the organization’s quotas beside this hour’s and today’s requests', async () => {
      const { org, admin } = await organization();
      await setOrganizationQuota(server.ctx, operatorActor(org.organization), { hourly: 100, daily: 25_000 });
      const page = await admin.get('/dashboard/usage?lang=de');
      assert.equal(textById(page.text, 'usage-hour'), '0 von 100');
      assert.equal(textById(page.text, 'usage-day'), '0 von 25.000');
      assert.equal(textById(page.text, 'quota-hourly'), '100');
      assert.equal(textById(page.text, 'quota-daily'), '25.000');
    });

    it('refuses a USER (403) and offers the section only to administrators', async () => {
      const { org, admin, userEmail } = await organization();
      const uli = await signedIn(server.origin, server.ctx, org.organization, userEmail);
      const refused = await uli.get('/dashboard/usage?lang=en');
      assert.equal(refused.status, 403);
      assert.doesNotMatch(refused.text, /id="usage-facts"/);
      assert.doesNotMatch(decode((await uli.get('/dashboard')).text), /href="\/dashboard\/usage"/);
      const nav = decode((await admin.get('/dashboard?lang=en')).text);
      assert.match(nav, /<a href="\/dashboard\/keys">API keys<\/a>/);
      assert.match(nav, /<a href="\/dashboard\/usage">Usage<\/a>/);
    });

    it('serves the chart library from this server, as files of the uplot package', async () => {
      const script = await fetch(`${server.origin}/static/vendor/uplot/uPlot.esm.js`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /javascript/);
      assert.match(await script.text(), /export \{ uPlot as default \}/);
      assert.equal((await fetch(`${server.origin}/static/vendor/uplot/uPlot.min.css`)).status, 200);
      assert.equal((await fetch(`${server.origin}/static/vendor/uplot/uPlot.cjs.js`)).status, 404, 'only the files the page needs');
      assert.equal((await fetch(`${server.origin}/static/vendor/uplot/../package.json`)).status, 404);
    });
  });
}

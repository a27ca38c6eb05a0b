/**
 * What the call says around itself, in real headless Chromium and Firefox
 * against the real app on SQLite:
 * - readiness: a client's device and network check, run on the pre-join
 *   and waiting screens, reaches the member's console beside the client
 *   ("camera ✓ microphone ✓ network good") and the waiting.client.joined
 *   webhook, and follows a camera switched off while waiting; the waiting
 *   screen never says "someone will let you in shortly" while nobody is
 *   available; after the consultation the client's main button is not
 *   "Get in line again";
 * - context: the organization's name and the meeting's title on the
 *   pre-join screen and in the call, a consultation's clinician, a
 *   signed-in member's name filled in and their dashboard's language;
 * - endings: the host who ended the meeting is told so and led back to
 *   the dashboard; the others are told the host ended it, with no rejoin.
 * Firefox plays the client and the guest; the member's console is Chromium.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { operatorActor } from '../../src/domain/actors.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import { createWebhookEndpoint } from '../../src/domain/webhooks/endpoints.ts';
import type { User } from '../../src/domain/types.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type SeededOrganization, type TestServer } from '../support/server.ts';
import { firefoxSkipReason, launchFirefox, type LaunchedFirefox } from './firefox-support.ts';
import { browserSkipReason, launch, waitUntil, type Participant } from './support.ts';
import { consoleShowsWaiting, inCall, memberConsole, newSpace, WAIT } from './waiting-support.ts';

const skip = browserSkipReason() ?? firefoxSkipReason();

type Kind = 'chromium' | 'firefox';

describe('the call’s readiness, context and endings in Chromium and Firefox', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let seeded: SeededOrganization;
  let api: Client;
  let chromium: Browser;
  let ff: LaunchedFirefox;
  const opened: Participant[] = [];

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store);
    seeded = await seedOrganization(server.ctx, 'medical', [
      { email: 'ann@clinic.test', fullName: 'Dr Ann Lee', role: 'ADMIN' },
      { email: 'bo@clinic.test', fullName: 'Dr Bo Stone', role: 'USER' },
    ]);
    api = client(server.baseUrl, seeded);
    [chromium, ff] = await Promise.all([launch(), launchFirefox()]);
  });
  // Pages left in a call would keep loading the machine for the later tests.
  afterEach(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
  });
  after(async () => {
    await ff?.close();
    await chromium?.close();
    await server?.close();
    await db?.dispose();
  });

  /** A person in `kind`, optionally signed in as `member` with the dashboard language `lang`. */
  const open = async (kind: Kind, url: string, member?: { user: User; lang?: string }): Promise<Page> => {
    const context = kind === 'chromium' ? await chromium.newContext({ permissions: ['camera', 'microphone'] }) : await ff.browser.newContext();
    if (member) {
      const { token } = await startSession(server.ctx, member.user, 'password');
      await context.addCookies([
        { name: 'foyer_session', value: token, url: server.origin },
        ...(member.lang ? [{ name: 'foyer_lang', value: member.lang, url: server.origin }] : []),
      ]);
    }
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# ${kind} page error: ${error.message}`));
    opened.push({ context, page });
    await page.goto(url);
    return page;
  };
  /** The call's heading without its (hidden) "locked" badge. */
  const titleOf = (page: Page) => page.$eval('#call-title', (h) => h.firstChild?.textContent);
  const pageUrl = (redirectUrl: string) => server.origin + new URL(redirectUrl).pathname;

  for (const kind of ['chromium', 'firefox'] as const) {
    it(`carries a ${kind} client's check to the console and the webhook, never contradicts itself while waiting, and ends the consultation without "Get in line again"`, async () => {
      const [ann] = seeded.users as [User];
      const board = await newSpace(server, seeded, 'board', [ann]);
      const { endpoint } = await createWebhookEndpoint(server.ctx, operatorActor(seeded.organization), { url: 'https://crm.example.org/hooks', events: ['waiting.client.joined'] });

      const client = await open(kind, `${server.origin}/${board.slug}`);
      // The pre-join screen runs the check: camera, microphone and a measured network.
      // The level is what this machine measured (a busy one is slower than 150 ms): it travels unchanged.
      const measured = '#readiness [data-check="network"]:is([data-status="good"], [data-status="fair"], [data-status="poor"])';
      await client.waitForSelector(measured, { timeout: WAIT });
      const network = (await client.getAttribute(measured, 'data-status'))!;
      await client.waitForSelector('#readiness [data-check="camera"][data-status="ok"]', { timeout: WAIT });
      await client.fill('#name', 'Cleo');
      await client.click('#join');
      await client.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting', undefined, { timeout: WAIT });

      // Nobody is there: the box says so, and the status does not promise someone shortly.
      await client.waitForSelector('#nobody', { state: 'visible', timeout: WAIT });
      assert.doesNotMatch((await client.textContent('#waiting-status')) ?? '', /shortly/);
      assert.match((await client.textContent('#waiting')) ?? '', /Your check/);

      const delivered = await waitUntil('the webhook written', async () => {
        const rows = await db.store.listWebhookDeliveries(seeded.organization.id, endpoint.id, 10);
        return rows.map((r) => JSON.parse(r.payload)).find((b) => b.data.displayName === 'Cleo');
      }, { timeout: WAIT });
      assert.deepEqual(delivered.data.readiness, { camera: 'ok', microphone: 'ok', network });

      const console = await memberConsole(chromium, server, board, ann, opened);
      await consoleShowsWaiting(console, ['Cleo']);
      const row = '#waiting-list li:nth-child(1) .readiness';
      await console.waitForSelector(`${row} [data-check="camera"][data-status="ok"]`, { timeout: WAIT });
      assert.deepEqual(await console.$$eval(`${row} .badge`, (n) => n.map((x) => x.textContent)), ['camera ✓ works', 'microphone ✓ works', `network ${network}`]);
      assert.deepEqual(await console.$$eval(`${row} [aria-hidden="true"]`, (n) => n.map((x) => x.textContent)), ['✓', '✓']);

      // Someone is available now: the promise is back, the box gone.
      await client.waitForSelector('#nobody', { state: 'hidden', timeout: WAIT });
      assert.match((await client.textContent('#waiting-status')) ?? '', /shortly/);

      // The client switches the camera off while waiting: the console follows.
      await client.click('#cam');
      await console.waitForSelector(`${row} [data-check="camera"][data-status="off"]`, { timeout: WAIT });
      assert.deepEqual((await api.get(`/v3/rooms/board/${board.id}/waiting`)).body.waiting[0].readiness, { camera: 'off', microphone: 'ok', network });

      await console.click('#waiting-list li:nth-child(1) button.accept');
      await inCall(client);
      await inCall(console);
      // The call names the place and the clinician.
      assert.equal(await titleOf(client), board.name);
      assert.equal(await client.textContent('#call-context'), `${seeded.organization.name} · Dr Ann Lee`);
      await console.click('#app #leave');
      await client.waitForSelector('#finished[data-kind="served"]', { timeout: WAIT });
      assert.equal(await client.locator('#finished button.primary').count(), 0, 'no main button to queue again by reflex');
      assert.match((await client.textContent('#finished')) ?? '', /Thank you for talking with Dr Ann Lee\..*close this page/s);
      assert.equal(await client.getAttribute('#wait-again', 'href'), `/${board.slug}`);
      assert.match((await client.textContent('#wait-again')) ?? '', new RegExp(`Get in line at ${board.name}`));
    });

    it(`shows the organization, the title and the clinician in ${kind}, fills in a member's name in their language, and leads the host who ended it back to the dashboard`, async () => {
      const [ann] = seeded.users as [User];
      const consultation = await api.post('/v3/meeting', { json: { type: 'CONSULTATION', ownerEmail: ann.email, title: 'Knee, follow-up' } });
      assert.equal(consultation.status, 201);

      // The patient: title, organization and clinician before joining.
      const patient = await open(kind, pageUrl(consultation.body.redirectUrl));
      await patient.waitForSelector('#prejoin', { timeout: WAIT });
      assert.equal(await patient.textContent('#prejoin h1'), 'Knee, follow-up');
      assert.equal(await patient.textContent('#prejoin-context'), `${seeded.organization.name} · Dr Ann Lee`);
      assert.equal(await patient.title(), `Knee, follow-up · ${seeded.organization.name} · Foyer`);
      assert.equal(await patient.inputValue('#name'), '', 'nobody is signed in here');

      // The clinician, signed in with a German dashboard: their name filled in, the page in German.
      const doctor = await open(kind, pageUrl(consultation.body.redirectUrl), { user: ann, lang: 'de' });
      await doctor.waitForSelector('#prejoin', { timeout: WAIT });
      assert.equal(await doctor.inputValue('#name'), 'Dr Ann Lee');
      assert.equal(await doctor.getAttribute('html', 'lang'), 'de');
      assert.equal(await doctor.textContent('#join'), 'Beitreten');
      await doctor.click('#join');
      await inCall(doctor);
      assert.equal(await titleOf(doctor), 'Knee, follow-up');
      assert.equal(await doctor.textContent('#call-context'), seeded.organization.name, 'the host is not shown their own name');

      await patient.fill('#name', 'Pat');
      await patient.click('#join');
      await inCall(patient);
      assert.equal(await patient.textContent('#call-context'), `${seeded.organization.name} · Dr Ann Lee`);

      // The host ends it for everyone.
      // (In the "More" menu; clicked as a keyboard would, wherever the menu stands.)
      await doctor.evaluate(() => (document.querySelector('#end-all') as HTMLButtonElement).click());
      await doctor.click('#confirm-ok', { timeout: WAIT });
      await doctor.waitForSelector('#finished[data-kind="endedBySelf"]', { timeout: WAIT });
      assert.equal(await doctor.textContent('#finished h1'), 'Sie haben das Meeting für alle beendet.');
      assert.equal(await doctor.getAttribute('#to-dashboard', 'href'), '/dashboard/meetings');
      assert.match((await doctor.getAttribute('#to-dashboard', 'class')) ?? '', /primary/);

      await patient.waitForSelector('#finished[data-kind="endedByHost"]', { timeout: WAIT });
      assert.equal(await patient.textContent('#finished h1'), 'The host ended this meeting.');
      assert.equal(await patient.locator('#rejoin, #to-dashboard').count(), 0, 'nothing to rejoin, no dashboard for a patient');
    });
  }
});

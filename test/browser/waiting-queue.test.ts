/**
 * A queue in real headless Chromium: two specialists and three clients.
 * Each specialist's "take next" gets the first client still waiting (first
 * in, first out), the last client's place follows, a finished call frees
 * the specialist for the next; and a specialist who accepts automatically
 * is given an arriving client with nobody clicking anything.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { User } from '../../src/domain/types.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { browserSkipReason, launch, waitForGrowth, waitUntil, type Participant } from './support.ts';
import { clientState, clientWaits, consoleShowsWaiting, consoleView, inCall, memberConsole, newSpace, WAIT } from './waiting-support.ts';

const skip = browserSkipReason();

describe('a queue in Chromium', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let seeded: SeededOrganization;
  let browser: Browser;
  let sam: User;
  let tia: User;
  const opened: Participant[] = [];

  const serving = async (page: Page) => (await consoleView(page)).me.current?.clientName;

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store);
    seeded = await seedOrganization(server.ctx, 'basic', [
      { email: 'sam@desk.test', fullName: 'Sam Specialist', role: 'ADMIN' },
      { email: 'tia@desk.test', fullName: 'Tia Specialist', role: 'USER' },
    ]);
    [sam, tia] = seeded.users as [User, User];
    browser = await launch();
  });

  after(async () => {
    for (const p of opened) await p.context.close().catch(() => {});
    await browser?.close();
    await server?.close();
    await db?.dispose();
  });

  it('gives each specialist who takes the next the first client still waiting, and the next one after a call ends', async () => {
    const queue = await newSpace(server, seeded, 'queue', [sam, tia]);
    const one = await clientWaits(browser, server, queue, 'One', opened);
    const two = await clientWaits(browser, server, queue, 'Two', opened);
    const three = await clientWaits(browser, server, queue, 'Three', opened);
    await three.waitForFunction(() => /3/.test(document.querySelector('#waiting-status')?.textContent ?? ''), undefined, { timeout: WAIT });

    const samConsole = await memberConsole(browser, server, queue, sam, opened);
    const tiaConsole = await memberConsole(browser, server, queue, tia, opened);
    await consoleShowsWaiting(samConsole, ['One', 'Two', 'Three']);
    // A queue has no accept buttons: only "take next".
    assert.equal(await samConsole.locator('#waiting-list button.accept').count(), 0);

    await samConsole.click('#take-next');
    await inCall(one);
    await waitUntil('Sam serving One', async () => (await serving(samConsole)) === 'One' || undefined, { timeout: WAIT });
    await consoleShowsWaiting(tiaConsole, ['Two', 'Three']);
    await tiaConsole.click('#take-next');
    await inCall(two);
    await waitUntil('Tia serving Two', async () => (await serving(tiaConsole)) === 'Two' || undefined, { timeout: WAIT });
    await three.waitForFunction(() => (window as any).foyer.view()?.position === 1, undefined, { timeout: WAIT });
    assert.match((await three.textContent('#waiting-status')) ?? '', /number 1/);
    await waitForGrowth(one, 'framesDecoded', 5, WAIT);

    // Sam hangs up: One sees the closing screen, and Sam's next take is Three.
    await samConsole.click('#app #leave');
    await one.waitForSelector('#finished[data-kind="served"]', { timeout: WAIT });
    await waitUntil('Sam free again', async () => (await consoleView(samConsole)).me.current === null || undefined, { timeout: WAIT });
    await samConsole.click('#take-next');
    await inCall(three);
    assert.equal(await serving(samConsole), 'Three');
    assert.equal((await clientState(two))?.state, 'in_call');
  });

  it('gives an arriving client to a specialist who accepts automatically, with nobody clicking', async () => {
    const queue = await newSpace(server, seeded, 'queue', [tia]);
    const tiaConsole = await memberConsole(browser, server, queue, tia, opened);
    await tiaConsole.check('#status-auto');
    await waitUntil('auto-accept on', async () => (await consoleView(tiaConsole)).me.isAutoAccepting || undefined, { timeout: WAIT });

    const four = await clientWaits(browser, server, queue, 'Four', opened, { inLine: false });
    await inCall(four);
    await inCall(tiaConsole);
    assert.equal(await serving(tiaConsole), 'Four');
    await waitForGrowth(tiaConsole, 'framesDecoded', 5, WAIT);
  });

  it('alerts a specialist whose console is in the background once for a burst of arrivals, then once for those who came meanwhile', async () => {
    const queue = await newSpace(server, seeded, 'queue', [sam]);
    // A console in a background tab, with notifications allowed: the browser's Notification is
    // recorded, and the page's clock is Playwright's, so the alerts' interval passes when the test says.
    // (A string: the test's compiled functions carry helpers the page does not have.)
    const background = (page: Page) =>
      Promise.all([
        page.clock.install(),
        page.addInitScript(`
          Object.defineProperty(Document.prototype, 'hidden', { get: () => true });
          window.shownNotifications = [];
          window.Notification = class {
            static permission = 'granted';
            static requestPermission() { return Promise.resolve('granted'); }
            constructor(title, options) { window.shownNotifications.push(options.body); }
            addEventListener() {}
            close() {}
          };
        `),
      ]);
    const samConsole = await memberConsole(browser, server, queue, sam, opened, background);
    await samConsole.clock.pauseAt(Date.now() + 5_000);
    const shown = () => samConsole.evaluate(() => [...(window as any).shownNotifications] as string[]);

    await clientWaits(browser, server, queue, 'Ada', opened);
    await consoleShowsWaiting(samConsole, ['Ada']);
    await samConsole.clock.runFor(1);
    assert.deepEqual(await shown(), ['A client is waiting: Ada'], 'the first arrival alerts at once');

    for (const name of ['Ben', 'Cy']) await clientWaits(browser, server, queue, name, opened);
    await consoleShowsWaiting(samConsole, ['Ada', 'Ben', 'Cy']);
    await samConsole.clock.runFor(1_000);
    assert.deepEqual(await shown(), ['A client is waiting: Ada'], 'no second alert within the interval');
    await samConsole.clock.runFor(15_000);
    assert.deepEqual(await shown(), ['A client is waiting: Ada', '2 clients are waiting'], 'one alert for everyone who came meanwhile');
  });
});

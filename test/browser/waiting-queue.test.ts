/**
 * A queue in real headless Chromium: two specialists and three clients.
 * Each specialist's "take next" gets the first client still waiting (first
 * in, first out), the last client's place follows, a finished call frees
 * the specialist for the next; a specialist who accepts automatically
 * is given an arriving client with nobody clicking anything; a specialist
 * removes a place from the line with its Remove button, and a client
 * whose page reloads keeps their place (their page answered).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { User } from '../../src/domain/types.ts';
import { useBrowserSuite } from './browser-suite.ts';
import { browserSkipReason, waitForGrowth, waitUntil } from './support.ts';
import { clientState, clientWaits, consoleShowsWaiting, consoleView, inCall, memberConsole, newSpace, WAIT } from './waiting-support.ts';

const skip = browserSkipReason();

describe('a queue in Chromium', { skip }, () => {
  const s = useBrowserSuite({
    type: 'basic',
    members: [
      { email: 'sam@desk.test', fullName: 'Sam Specialist', role: 'ADMIN' },
      { email: 'tia@desk.test', fullName: 'Tia Specialist', role: 'USER' },
    ],
  });
  let sam: User;
  let tia: User;

  const serving = async (page: Page) => (await consoleView(page)).me.current?.clientName;

  before(() => {
    [sam, tia] = s.seeded.users as [User, User];
  });

  it('gives each specialist who takes the next the first client still waiting, and the next one after a call ends', async () => {
    const queue = await newSpace(s.server, s.seeded, 'queue', [sam, tia]);
    const one = await clientWaits(s.browser, s.server, queue, 'One', s.opened);
    const two = await clientWaits(s.browser, s.server, queue, 'Two', s.opened);
    const three = await clientWaits(s.browser, s.server, queue, 'Three', s.opened);
    await three.waitForFunction(() => /3/.test(document.querySelector('#waiting-status')?.textContent ?? ''), undefined, { timeout: WAIT });

    const samConsole = await memberConsole(s.browser, s.server, queue, sam, s.opened);
    const tiaConsole = await memberConsole(s.browser, s.server, queue, tia, s.opened);
    await consoleShowsWaiting(samConsole, ['One', 'Two', 'Three']);
    // A queue has no accept buttons: only "take next".
    assert.equal(await samConsole.locator('#waiting-list button.accept').count(), 0);

    await samConsole.click('#take-next');
    await inCall(one);
    // A 1:1 call: chat and reactions, but no hand to raise, on either side.
    for (const page of [one, samConsole]) {
      await page.waitForSelector('#chat', { timeout: WAIT });
      assert.equal(await page.locator('#react').count(), 1);
      assert.equal(await page.locator('#hand, #menu-hand').count(), 0);
    }
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

  it('lets a specialist remove a place with its labelled Remove button, after a confirmation, and keeps the place of a client who reloads', async () => {
    const queue = await newSpace(s.server, s.seeded, 'queue', [sam]);
    const bogus = await clientWaits(s.browser, s.server, queue, 'Bogus', s.opened);
    const real = await clientWaits(s.browser, s.server, queue, 'Real', s.opened);
    await clientWaits(s.browser, s.server, queue, 'Later', s.opened);
    const samConsole = await memberConsole(s.browser, s.server, queue, sam, s.opened);
    await consoleShowsWaiting(samConsole, ['Bogus', 'Real', 'Later']);

    const remove = samConsole.getByRole('button', { name: 'Remove Bogus from the line' });
    samConsole.once('dialog', (dialog) => void dialog.dismiss());
    await remove.click();
    samConsole.once('dialog', (dialog) => void dialog.accept());
    await remove.focus();
    await samConsole.keyboard.press('Enter');
    await consoleShowsWaiting(samConsole, ['Real', 'Later']);
    await bogus.waitForSelector('#finished[data-kind="declined"]', { timeout: WAIT });

    // The real client's page answered its first view: a reload takes the place back, ahead of Later.
    await real.reload();
    await real.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting' && (window as any).foyer.view().position === 1, undefined, { timeout: WAIT });
    await consoleShowsWaiting(samConsole, ['Real', 'Later']);
  });

  it('gives an arriving client to a specialist who accepts automatically, with nobody clicking', async () => {
    const queue = await newSpace(s.server, s.seeded, 'queue', [tia]);
    const tiaConsole = await memberConsole(s.browser, s.server, queue, tia, s.opened);
    await tiaConsole.check('#status-auto');
    await waitUntil('auto-accept on', async () => (await consoleView(tiaConsole)).me.isAutoAccepting || undefined, { timeout: WAIT });

    const four = await clientWaits(s.browser, s.server, queue, 'Four', s.opened, { inLine: false });
    await inCall(four);
    await inCall(tiaConsole);
    assert.equal(await serving(tiaConsole), 'Four');
    await waitForGrowth(tiaConsole, 'framesDecoded', 5, WAIT);
  });

  it('alerts a specialist whose console is in the background once for a burst of arrivals, then once for those who came meanwhile', async () => {
    const queue = await newSpace(s.server, s.seeded, 'queue', [sam]);
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
    const samConsole = await memberConsole(s.browser, s.server, queue, sam, s.opened, background);
    await samConsole.clock.pauseAt(Date.now() + 5_000);
    const shown = () => samConsole.evaluate(() => [...(window as any).shownNotifications] as string[]);

    await clientWaits(s.browser, s.server, queue, 'Ada', s.opened);
    await consoleShowsWaiting(samConsole, ['Ada']);
    await samConsole.clock.runFor(1);
    assert.deepEqual(await shown(), ['A client is waiting: Ada'], 'the first arrival alerts at once');

    for (const name of ['Ben', 'Cy']) await clientWaits(s.browser, s.server, queue, name, s.opened);
    await consoleShowsWaiting(samConsole, ['Ada', 'Ben', 'Cy']);
    await samConsole.clock.runFor(1_000);
    assert.deepEqual(await shown(), ['A client is waiting: Ada'], 'no second alert within the interval');
    await samConsole.clock.runFor(15_000);
    assert.deepEqual(await shown(), ['A client is waiting: Ada', '2 clients are waiting'], 'one alert for everyone who came meanwhile');
  });
});

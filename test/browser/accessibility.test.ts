/**
 * Accessibility of the pages people use in a call, in Chromium with
 * axe-core: no serious or critical violation on the pre-join screen, in a
 * call with the chat open (a message in it), the settings, the screen
 * after leaving, the knock screen, on a client's waiting page
 * and on a member's console with someone waiting; the name field has the
 * focus; joins and leaves are announced; the videos are named; the
 * keyboard shortcuts of microphone and camera work and are listed.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { User } from '../../src/domain/types.ts';
import { seriousViolations } from './axe.ts';
import { useBrowserSuite } from './browser-suite.ts';
import { client, type Client } from '../support/server.ts';
import { browserSkipReason, joinAs, openParticipant, waitForParticipants } from './support.ts';
import { clientWaits, consoleShowsWaiting, memberConsole, newSpace, WAIT } from './waiting-support.ts';

const skip = browserSkipReason();

describe('accessibility of the call pages in Chromium (axe-core)', { skip }, () => {
  const s = useBrowserSuite({ type: 'basic', members: [{ email: 'sam@desk.test', fullName: 'Sam Specialist', role: 'ADMIN' }] });
  let api: Client;
  let sam: User;
  before(() => {
    api = client(s.server.baseUrl, s.seeded);
    sam = s.seeded.users[0]!;
  });
  const newMeeting = async (lang = 'en') => {
    const created = await api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const url = new URL(created.body.redirectUrl);
    return `${s.server.origin}${url.pathname}?lang=${lang}`;
  };
  const open = async (url: string) => {
    const p = await openParticipant(s.browser, url);
    s.opened.push(p);
    return p.page;
  };
  const noViolations = async (page: Parameters<typeof seriousViolations>[0], where: string) => {
    const found = await seriousViolations(page);
    assert.deepEqual(found, [], `${where}: ${JSON.stringify(found, null, 2)}`);
  };

  it('has none on the pre-join screen, in English and German, with the focus on the name field', async () => {
    for (const lang of ['en', 'de']) {
      const page = await open(await newMeeting(lang));
      await page.waitForSelector('#name');
      await page.waitForFunction(() => document.activeElement?.id === 'name', undefined, { timeout: WAIT });
      await page.waitForFunction(() => (document.querySelector('#camera') as HTMLSelectElement | null)?.options.length, undefined, { timeout: WAIT });
      await noViolations(page, `pre-join (${lang})`);
    }
  });

  it('has none in a call with the chat open, names the videos, announces joins and leaves, and lists and obeys the shortcuts', async () => {
    const url = await newMeeting();
    const ann = await open(url);
    const bob = await open(url);
    await joinAs(ann, 'Ann', WAIT);
    await joinAs(bob, 'Bob', WAIT);
    for (const p of [ann, bob]) await waitForParticipants(p, ['Ann', 'Bob'], WAIT);
    await ann.waitForFunction(() => (window as any).foyer.announcements().some((a: string) => a === 'Bob joined.'), undefined, { timeout: WAIT });
    assert.equal(await ann.getAttribute('#announcer', 'aria-live'), 'polite');
    await ann.waitForSelector('.tile:not(.self) video[aria-label="Video of Bob"]', { state: 'attached', timeout: WAIT });
    assert.equal(await ann.getAttribute('#tile-self video', 'aria-label'), 'Your video');

    await bob.click('#chat');
    await bob.fill('#chat-input', 'Notes: https://example.org/notes');
    await bob.click('#chat-send');
    await ann.click('#chat');
    await ann.waitForSelector('#chat-log li a[href="https://example.org/notes"]');
    await noViolations(ann, 'in a call with the chat open');

    // The shortcuts are listed (Settings) and named on the buttons, and they work.
    assert.equal(await ann.getAttribute('#mic', 'aria-keyshortcuts'), 'Control+D');
    assert.equal(await ann.getAttribute('#cam', 'aria-keyshortcuts'), 'Control+E');
    await ann.click('#settings');
    assert.deepEqual(await ann.$$eval('#shortcut-list kbd', (n) => n.map((k) => k.textContent)), ['Ctrl+D', 'Ctrl+E']);
    await noViolations(ann, 'the settings dialog');
    await ann.keyboard.press('Escape');
    await ann.keyboard.press('Control+d');
    await ann.waitForFunction(() => (window as any).foyer.media().audio === false, undefined, { timeout: WAIT });
    await ann.keyboard.press('Control+e');
    await ann.waitForFunction(() => (window as any).foyer.media().video === false, undefined, { timeout: WAIT });
    await bob.waitForSelector('.tile:not(.self).muted.off', { timeout: WAIT });
    await ann.keyboard.press('Control+d');
    await ann.waitForFunction(() => (window as any).foyer.media().audio === true, undefined, { timeout: WAIT });

    await bob.click('#leave');
    await ann.waitForFunction(() => (window as any).foyer.announcements().includes('Bob left.'), undefined, { timeout: WAIT });
    await bob.waitForFunction(() => (window as any).foyer.phase() === 'left', undefined, { timeout: WAIT });
    await noViolations(bob, 'the screen after leaving');
  });

  it('has none on the knock screen of a consultation waiting for its clinician', async () => {
    const created = await api.post('/v3/meeting', { json: { type: 'consultation', ownerEmail: sam.email } });
    assert.equal(created.status, 201, created.text);
    const patient = await open(`${s.server.origin}${new URL(created.body.redirectUrl).pathname}`);
    await patient.fill('#name', 'Pat');
    await patient.click('#join');
    await patient.waitForFunction(() => (window as any).foyer.phase() === 'knocking', undefined, { timeout: WAIT });
    await noViolations(patient, 'the knock screen');
  });

  it('has none on a client\'s waiting page and on the member\'s console with them waiting', async () => {
    const queue = await newSpace(s.server, s.seeded, 'queue', [sam]);
    const waiting = await clientWaits(s.browser, s.server, queue, 'Pat', s.opened);
    await noViolations(waiting, 'the waiting page');
    const console = await memberConsole(s.browser, s.server, queue, sam, s.opened);
    await consoleShowsWaiting(console, ['Pat']);
    await noViolations(console, 'the console');
  });
});

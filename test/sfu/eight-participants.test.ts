/**
 * Eight people in one meeting through the SFU, in headless Chromium: each
 * page decodes live video from the seven others while holding at most two
 * RTCPeerConnections, and grid tiles get a lower simulcast layer.
 *
 * The cameras run at a few frames a second (meeting-pages.ts): eight pages
 * encoding and decoding video at full rate would starve a two-core machine
 * that runs another suite beside this one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkipReason, joinAs, launch, openParticipant, waitForParticipants, waitUntil } from '../browser/support.ts';
import { decodesEveryone, FAST, pathOf, slowCamera, startSfuMeeting, WAIT, type Person, type SfuMeeting } from './meeting-pages.ts';
import { janusSkipReason } from './support.ts';

const skip = janusSkipReason() ?? browserSkipReason();

describe('eight people in a meeting through the SFU (Chromium, a local Janus)', { skip, timeout: 600_000 }, () => {
  let meeting: SfuMeeting;
  let browser: Browser;
  const people: Person[] = [];

  before(async () => {
    meeting = await startSfuMeeting(FAST);
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    await meeting?.close();
  });

  it('lets each of eight decode the seven others through at most two connections, grid tiles at a lower layer', async () => {
    const startedAt = Date.now();
    for (const name of ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus', 'Hal']) {
      const p = await openParticipant(browser, meeting.url, { setup: (page) => page.addInitScript(slowCamera) });
      await joinAs(p.page, name, WAIT);
      people.push({ ...p, name });
    }
    const names = people.map((p) => p.name);
    for (const p of people) await waitForParticipants(p.page, names, WAIT);
    for (const p of people) await decodesEveryone(p, people.length - 1);
    console.log(`# eight decoding all seven others ${Date.now() - startedAt} ms after the first opened the link`);
    for (const p of people) {
      const path = await pathOf(p);
      assert.equal(path.mode, 'sfu', `${p.name} on the SFU`);
      assert.ok(path.connections <= 2, `${p.name} holds ${path.connections} connections`);
    }
    // At the page's 640×480 Chromium sends two layers: a grid tile gets the lower one, at most half the width.
    let last: number[] = [];
    await waitUntil('grid tiles at a lower layer', async () => {
      const stats: Record<string, { frameWidth: number }> = await people[0]!.page.evaluate(() => (window as any).foyer.stats());
      const widths = (last = Object.values(stats).map((s) => s.frameWidth));
      return widths.length === 7 && widths.every((w) => w > 0 && w <= 320) ? widths : undefined;
    }, { timeout: WAIT }).catch((error: Error) => {
      throw new Error(`${error.message}; widths ${JSON.stringify(last)}`);
    });
  });
});

/**
 * Eight people in one meeting through the SFU, in headless Chromium: each
 * page decodes live video from the seven others while holding at most two
 * RTCPeerConnections. Grid tiles at a lower layer are meeting-sfu.test.ts's.
 * Then eight in a meeting whose pages show two videos: the eighth joins in
 * two steps (src/realtime/sessions/sfu-large-join.ts), its first
 * subscription carrying fewer people than the meeting has.
 *
 * The pages are lean (meeting-pages.ts, slowCamera): a small camera at a few
 * frames a second and no microphone. Eight pages encoding, decoding and
 * playing out audio and video at full rate starve a slow two-core machine,
 * where their connections then fail over and over. The waits are long for
 * the same reason: they bound a hang, not the speed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { FIRST_FEEDS_AT_LEAST } from '../../src/realtime/sessions/sfu-large-join.ts';
import { browserSkipReason, joinAs, launch, openParticipant, waitForParticipants, waitUntil } from '../browser/support.ts';
import { cameraFpsFor, decodesEveryone, FAST, pathOf, sfuPage, startSfuMeeting, WAIT, type Person, type SfuMeeting } from './meeting-pages.ts';
import { janusSkipReason } from './support.ts';

/** Eight pages opening and joining one after another take minutes on a slow machine. */
const LONG = 180_000;
const EIGHT = ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus', 'Hal'];
/** The videos a page shows in the second meeting. */
const SLOTS = 2;
const skip = janusSkipReason() ?? browserSkipReason();

describe('eight people in a meeting through the SFU (Chromium, a local Janus)', { skip, timeout: 600_000 }, () => {
  let meeting: SfuMeeting;
  let browser: Browser;
  const people: Person[] = [];

  before(async () => {
    meeting = await startSfuMeeting(FAST);
    browser = await launch({ cameraFps: cameraFpsFor({ lean: true }) });
  });

  after(async () => {
    await browser?.close();
    await meeting?.close();
  });

  it('lets each of eight decode the seven others through at most two connections', async () => {
    const startedAt = Date.now();
    await joinOneByOne(browser, meeting.url, EIGHT, people);
    const names = people.map((p) => p.name);
    for (const p of people) await waitForParticipants(p.page, names, LONG);
    for (const p of people) await decodesEveryone(p, people.length - 1);
    console.log(`# eight decoding all seven others ${Date.now() - startedAt} ms after the first opened the link`);
    for (const p of people) {
      const path = await pathOf(p);
      assert.equal(path.mode, 'sfu', `${p.name} on the SFU`);
      assert.ok(path.connections <= 2, `${p.name} holds ${path.connections} connections`);
    }
  });
});

/** Opens the meeting at `url` and joins as each of `names` in turn (lean pages), adding them to `people`. */
async function joinOneByOne(browser: Browser, url: string, names: string[], people: Person[]): Promise<void> {
  for (const name of names) {
    const p = await openParticipant(browser, url, { setup: sfuPage({ lean: true }) });
    await joinAs(p.page, name, LONG);
    people.push({ ...p, name });
  }
}

/** The videos each offer the SFU made to `p`'s subscription carries, in order (meeting-pages.ts counts them). */
const subscriptionOffers = (p: Person): Promise<number[]> => p.page.evaluate(() => (window as any).subscriptionOffers);

describe('eight people in a meeting whose pages show two videos, through the SFU (Chromium, a local Janus)', { skip, timeout: 600_000 }, () => {
  let meeting: SfuMeeting;
  let browser: Browser;
  const people: Person[] = [];

  before(async () => {
    meeting = await startSfuMeeting(FAST, { videoSlots: SLOTS });
    browser = await launch({ cameraFps: cameraFpsFor({ lean: true }) });
  });

  after(async () => {
    await browser?.close();
    await meeting?.close();
  });

  it('joins the eighth in two steps: a first subscription to as many as it takes at first, the rest after, its camera published to all', async () => {
    // With two video slots a first subscription takes FIRST_FEEDS_AT_LEAST people; seven others are more.
    const first = Math.max(SLOTS, FIRST_FEEDS_AT_LEAST);
    assert.ok(EIGHT.length - 1 > first);
    await joinOneByOne(browser, meeting.url, EIGHT.slice(0, -1), people);
    // All seven publish before Hal comes (each one's subscription carries the six others): Hal's first offer
    // is then smaller than the meeting only if it joins in two steps.
    for (const p of people) {
      await waitUntil(`${p.name}'s subscription carrying the six others`, async () => (await subscriptionOffers(p)).at(-1) === people.length - 1, { timeout: WAIT });
    }
    await joinOneByOne(browser, meeting.url, EIGHT.slice(-1), people);
    for (const p of people) await waitForParticipants(p.page, EIGHT, LONG);
    const hal = people.at(-1)!;
    await waitUntil('the rest of the meeting joining Hal\'s subscription', async () => (await subscriptionOffers(hal)).includes(people.length - 1), { timeout: WAIT }).catch(async (error: Error) => {
      throw new Error(`${error.message}; offers ${JSON.stringify(await subscriptionOffers(hal))}`);
    });
    const offers = await subscriptionOffers(hal);
    assert.equal(offers[0], first, `Hal's first subscription offer carries ${offers[0]} videos: ${JSON.stringify(offers)}`);
    // Hal shows the two videos it has room for; everyone's subscription came to carry Hal, who published meanwhile.
    await decodesEveryone(hal, 2);
    for (const p of people.slice(0, -1)) {
      await waitUntil(`${p.name}'s subscription carrying all seven others`, async () => (await subscriptionOffers(p)).at(-1) === people.length - 1, { timeout: WAIT });
    }
    const path = await pathOf(hal);
    assert.equal(path.mode, 'sfu');
    assert.ok(path.connections <= 2, `Hal holds ${path.connections} connections`);
  });
});

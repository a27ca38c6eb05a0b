/**
 * Eight people in one meeting through the SFU, in headless Chromium: each
 * page decodes live video from the seven others while holding at most two
 * RTCPeerConnections. Grid tiles at a lower layer are meeting-sfu.test.ts's.
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
import { browserSkipReason, joinAs, launch, openParticipant, waitForParticipants } from '../browser/support.ts';
import { cameraFpsFor, decodesEveryone, FAST, pathOf, sfuPage, startSfuMeeting, type Person, type SfuMeeting } from './meeting-pages.ts';
import { janusSkipReason } from './support.ts';

/** Eight pages opening and joining one after another take minutes on a slow machine. */
const LONG = 180_000;
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
    for (const name of ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus', 'Hal']) {
      const p = await openParticipant(browser, meeting.url, { setup: sfuPage({ lean: true }) });
      await joinAs(p.page, name, LONG);
      people.push({ ...p, name });
    }
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

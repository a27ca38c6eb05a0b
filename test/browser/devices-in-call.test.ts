/**
 * Devices during a call, in real headless Chromium: switching the camera
 * in "Settings" without rejoining, and camera off as the others see it.
 *
 * Chromium's fake capture gives one camera. A second one is added in the
 * test's browser only (an init script): enumerateDevices lists "Second
 * camera", and getUserMedia for it answers with a canvas's stream (green,
 * 360×120, where the fake camera is 640×480). Everything the page does
 * with it is its own code: the Settings dialog's "Camera" select, a new
 * track, replaceTrack on the sender. The other side must decode the new
 * camera's frames while nobody makes a new offer or answer: no
 * renegotiation. The cameras are told apart by their shape (3:1 against
 * 4:3), not their width: a busy machine's encoder scales a picture down
 * and keeps its shape.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, onlyRemote, waitForGrowth, waitUntil } from './support.ts';
import { listed, media, tileOf, useMeetingSuite, WAIT, waitForMedia } from './meeting-suite.ts';

const SECOND = 'second-camera';

/** A second camera, and a count of offers and answers this page creates. */
const secondCamera = (page: Page) =>
  page.addInitScript(`{
    window.__negotiations = 0;
    for (const m of ['createOffer', 'createAnswer']) {
      const original = RTCPeerConnection.prototype[m];
      RTCPeerConnection.prototype[m] = function (...args) { window.__negotiations += 1; return original.apply(this, args); };
    }
    const md = navigator.mediaDevices;
    const enumerate = md.enumerateDevices.bind(md);
    const getUserMedia = md.getUserMedia.bind(md);
    md.enumerateDevices = async () => {
      const list = await enumerate();
      const second = { deviceId: '${SECOND}', groupId: 'second', kind: 'videoinput', label: 'Second camera', toJSON() { return this; } };
      return [...list, second];
    };
    const wanted = (v) => v && typeof v === 'object' && [v.deviceId, v.deviceId?.exact, v.deviceId?.ideal].includes('${SECOND}');
    md.getUserMedia = async (c) => {
      if (!wanted(c?.video)) return getUserMedia(c);
      const canvas = document.createElement('canvas');
      canvas.width = 360;
      canvas.height = 120;
      const g = canvas.getContext('2d');
      let n = 0;
      setInterval(() => { g.fillStyle = n++ % 2 ? '#0a0' : '#0c0'; g.fillRect(0, 0, 360, 120); }, 40);
      const track = canvas.captureStream(25).getVideoTracks()[0];
      const settings = track.getSettings.bind(track);
      track.getSettings = () => ({ ...settings(), deviceId: '${SECOND}' });
      const tracks = [track];
      if (c.audio) tracks.unshift(...(await getUserMedia({ audio: c.audio })).getAudioTracks());
      return new MediaStream(tracks);
    };
  }`);

/** Width over height of what Ann decodes from Bob: 4:3 is the fake camera, 3:1 the second. */
const shape = (r: { frameWidth?: number; frameHeight?: number } | undefined) =>
  r && r.frameWidth && r.frameHeight ? r.frameWidth / r.frameHeight : undefined;

const negotiations = (page: Page) => page.evaluate(() => (window as any).__negotiations as number);

describe('devices in a call in Chromium', { skip: browserSkipReason() }, () => {
  const s = useMeetingSuite();

  it('switches to a second camera in Settings: the other side decodes the new frames, with no new offer or answer', async () => {
    const { ann, bob } = await s.pair(await s.newMeeting(), { ann: { setup: secondCamera }, bob: { setup: secondCamera } });
    await waitForGrowth(ann.page, 'framesDecoded', 5);
    const first = shape(await onlyRemote(ann.page));
    assert.ok(first && first < 1.5, `the fake camera (4:3) first, not ${first}`);
    const before = [await negotiations(ann.page), await negotiations(bob.page)];
    assert.ok(before[0]! + before[1]! >= 2, 'the call itself was negotiated (the count works)');
    const firstTrack = await bob.page.evaluate(() => (window as any).foyer.localStreamId());

    await bob.page.click('#settings');
    await bob.page.waitForSelector(`#set-camera option[value="${SECOND}"]`, { state: 'attached', timeout: WAIT });
    const switched = Date.now();
    await bob.page.selectOption('#set-camera', SECOND);
    const size = await waitUntil(
      'the second camera (3:1) on Ann\'s side',
      async () => {
        const r = await onlyRemote(ann.page);
        return (shape(r) ?? 0) > 2.5 ? `${r!.frameWidth}×${r!.frameHeight}` : undefined;
      },
      { timeout: 15_000, interval: 100 },
    );
    console.log(`# camera switch: Ann decodes Bob's second camera (${size}) ${Date.now() - switched} ms after the choice`);
    await waitForGrowth(ann.page, 'framesDecoded', 10);
    assert.deepEqual([await negotiations(ann.page), await negotiations(bob.page)], before, 'no renegotiation');
    // Still the same call, the same stream, the same participants; the choice shows and is remembered.
    assert.equal(await bob.page.evaluate(() => (window as any).foyer.localStreamId()), firstTrack);
    assert.equal(await bob.page.inputValue('#set-camera'), SECOND);
    assert.equal(await bob.page.evaluate(() => localStorage.getItem('foyer.device.videoinput')), SECOND);
    assert.deepEqual(await media(bob), { audio: true, video: true, screen: false });
    assert.equal(await bob.page.evaluate(() => (document.querySelector('#tile-self video') as HTMLVideoElement).videoWidth), 360);
  });

  it('shows the initials of a person whose camera is off, on a coloured tile', async () => {
    const { ann, bob } = await s.pair(await s.newMeeting());
    await bob.page.click('#cam');
    await waitForMedia(bob, { audio: true, video: false, screen: false });
    await ann.page.waitForSelector(listed('Bob', 'camera off'), { state: 'attached', timeout: WAIT });
    const tile = ann.page.locator(tileOf('Bob', '.off'));
    await tile.waitFor({ timeout: WAIT });
    const look = await tile.evaluate((node) => {
      const avatar = node.querySelector('.avatar') as HTMLElement;
      const video = node.querySelector('video') as HTMLElement;
      const box = avatar.getBoundingClientRect();
      return {
        initials: avatar.textContent,
        avatarShown: getComputedStyle(avatar).display !== 'none' && box.width > 20 && box.height > 20,
        background: getComputedStyle(avatar.querySelector('.initials') ?? avatar).backgroundColor,
        videoHidden: getComputedStyle(video).visibility === 'hidden' || getComputedStyle(video).display === 'none' || getComputedStyle(video).opacity === '0',
      };
    });
    assert.equal(look.initials, 'B');
    assert.ok(look.avatarShown, JSON.stringify(look));
    assert.ok(look.videoHidden, `the video gives way to the initials: ${JSON.stringify(look)}`);
    // A colour of its own, not the black of a missing picture or a transparent one.
    assert.doesNotMatch(look.background, /^rgba?\(0, 0, 0(, 0)?\)$|transparent/, JSON.stringify(look));
    // Back on: the picture replaces the initials once its frames arrive (until then the tile
    // is `no-video` and keeps them, which a busy machine makes last a moment).
    await bob.page.click('#cam');
    await ann.page.waitForSelector(tileOf('Bob', ':not(.off)'), { timeout: WAIT });
    await waitUntil('Bob\'s picture instead of his initials', () =>
      ann.page.locator(tileOf('Bob')).locator('.avatar').evaluate((a) => getComputedStyle(a).display === 'none' || getComputedStyle(a).visibility === 'hidden' || getComputedStyle(a).opacity === '0'),
      { timeout: WAIT });
  });
});

/**
 * Media in a call, in real headless Chromium with fake devices: each one's
 * audio and video reaching the other in one stream, mute and camera off as
 * the others see them, screen sharing, joining with video=off, and a
 * refused camera announced as off.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, joinAs, onlyRemote, waitForGrowth, waitForParticipants, waitUntil } from './support.ts';
import { listed, media, tileOf, useMeetingSuite, WAIT, waitForMedia, waitForStall } from './meeting-suite.ts';

describe('meeting media in Chromium', { skip: browserSkipReason() }, () => {
  const s = useMeetingSuite();

  it('carries each one\'s audio to the other, in one stream with the video', async () => {
    const { ann, bob } = await s.pair(await s.newMeeting());
    for (const [me, other] of [[ann, bob], [bob, ann]] as const) {
      // Packets, samples played out and sound (the fake microphone beeps), still arriving.
      await waitForGrowth(me.page, 'audioPackets', 50);
      await waitForGrowth(me.page, 'audioSamples', 24_000);
      await waitForGrowth(me.page, 'audioEnergy', 0);
      await waitForGrowth(me.page, 'framesDecoded', 5);
      // Audio and video come as the sender's own stream (both sides name it:
      // addTransceiver when offering, setStreams when answering): lip sync.
      const remote = (await onlyRemote(me.page))!;
      assert.equal(remote.streamId, await other.page.evaluate(() => (window as any).foyer.localStreamId()));
      const kinds = await me.page.evaluate(() =>
        ((document.querySelector('.tile:not(.self) video') as HTMLVideoElement).srcObject as MediaStream).getTracks().map((t) => t.kind).sort(),
      );
      assert.deepEqual(kinds, ['audio', 'video']);
    }
    // Tiles that overflow stay reachable by scrolling.
    assert.equal(await ann.page.$eval('#tiles', (e) => getComputedStyle(e).alignContent), 'safe center');
  });

  it('shows mute and camera off to the other one; media comes back when turned on', async () => {
    const { ann, bob } = await s.pair(await s.newMeeting());
    await waitForGrowth(ann.page, 'audioEnergy', 0);

    await bob.page.click('#mic');
    await waitForMedia(bob, { audio: false, video: true, screen: false });
    await ann.page.waitForSelector(listed('Bob', 'muted'), { state: 'attached', timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', '.muted'), { timeout: WAIT });
    // What arrives is silence.
    await waitForStall(ann, 'audioEnergy', 'silence from Bob', 0.005);
    await bob.page.click('#mic');
    await waitForMedia(bob, { audio: true, video: true, screen: false });
    await ann.page.waitForSelector(listed('Bob', 'muted'), { state: 'detached', timeout: WAIT });
    await waitForGrowth(ann.page, 'audioEnergy', 0);

    await bob.page.click('#cam');
    await waitForMedia(bob, { audio: true, video: false, screen: false });
    await ann.page.waitForSelector(listed('Bob', 'camera off'), { state: 'attached', timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', '.off'), { timeout: WAIT });
    await bob.page.waitForSelector('#tile-self.off', { timeout: WAIT });
    // No more frames while the camera is off...
    await waitForStall(ann, 'framesDecoded', 'Bob\'s frames to stop');
    // ...and frames again once it is back on, without renegotiating.
    await bob.page.click('#cam');
    await waitForMedia(bob, { audio: true, video: true, screen: false });
    await ann.page.waitForSelector(listed('Bob', 'camera off'), { state: 'detached', timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', ':not(.off)'), { timeout: WAIT });
    await waitForGrowth(ann.page, 'framesDecoded', 10);
  });

  it('shares a screen in a call: the other one sees it and the state; the sharer\'s view is steady and unmirrored', async () => {
    const { ann, bob } = await s.pair(await s.newMeeting());
    await waitForGrowth(ann.page, 'framesDecoded', 5);
    const aspect = async () => {
      const r = await onlyRemote(ann.page);
      return r?.frameHeight ? r.frameWidth / r.frameHeight : 0;
    };
    assert.ok((await aspect()) < 1.45, 'the camera (4:3) first');

    await bob.page.click('#share');
    await waitForMedia(bob, { audio: true, video: true, screen: true });
    await ann.page.waitForSelector(listed('Bob', 'sharing screen'), { state: 'attached', timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', '.sharing'), { timeout: WAIT });
    // The fake screen is 16:9; frames keep coming (slowly: a still screen sends few).
    await waitUntil('the screen (16:9) on Ann\'s side', async () => (await aspect()) > 1.6);
    await waitForGrowth(ann.page, 'framesDecoded', 2);

    // The sharer sees the screen the right way round, from one stream that
    // survives other control changes (a new one per refresh would flicker).
    const selfView = '#tile-self video';
    assert.equal(await bob.page.$eval(selfView, (v) => getComputedStyle(v).transform), 'none');
    await bob.page.$eval(selfView, (v) => ((window as any).sharedView = (v as HTMLVideoElement).srcObject));
    await bob.page.click('#mic');
    await bob.page.click('#mic');
    assert.equal(await bob.page.$eval(selfView, (v) => (v as HTMLVideoElement).srcObject === (window as any).sharedView), true);
    assert.equal(await bob.page.$eval(selfView, (v) => ((v as HTMLVideoElement).srcObject as MediaStream).getVideoTracks()[0]?.label.startsWith('screen')), true);

    await bob.page.click('#share');
    await ann.page.waitForSelector(listed('Bob', 'sharing screen'), { state: 'detached', timeout: WAIT });
    await waitUntil('the camera (4:3) back on Ann\'s side', async () => {
      const a = await aspect();
      return a > 0 && a < 1.45;
    });
    await waitForGrowth(ann.page, 'framesDecoded', 10);
    assert.match(await bob.page.$eval(selfView, (v) => getComputedStyle(v).transform), /^matrix\(-1/);
  });

  it('joins with the camera off under video=off, and turns it on later', async () => {
    const url = await s.newMeeting();
    const ann = await s.open(url);
    await joinAs(ann.page, 'Ann', WAIT);
    const bob = await s.open(url + '?video=off');
    await joinAs(bob.page, 'Bob', WAIT);
    await waitForParticipants(ann.page, ['Ann', 'Bob'], WAIT);
    assert.deepEqual(await media(bob), { audio: true, video: false, screen: false });
    assert.equal(await bob.page.evaluate(() => document.querySelector('#tile-self')?.classList.contains('off')), true);
    await ann.page.waitForSelector(listed('Bob', 'camera off'), { state: 'attached', timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', '.off'), { timeout: WAIT });
    await waitForGrowth(ann.page, 'audioPackets', 20);
    assert.equal((await onlyRemote(ann.page))!.framesDecoded, 0, 'no video sent');

    await bob.page.click('#cam');
    await waitForMedia(bob, { audio: true, video: true, screen: false });
    await ann.page.waitForSelector(tileOf('Bob', ':not(.off)'), { timeout: WAIT });
    await waitForGrowth(ann.page, 'framesDecoded', 10);
  });

  it('announces the camera off when it is refused, instead of a black "camera on" tile', async () => {
    // Refuses every request that includes video, as a browser does after "Block".
    const denyCamera = async (page: Page) =>
      page.addInitScript(`{
        const md = navigator.mediaDevices;
        const original = md.getUserMedia.bind(md);
        md.getUserMedia = (c) => (c && c.video ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) : original(c));
      }`);
    const { ann, bob } = await s.pair(await s.newMeeting(), { bob: { setup: denyCamera } });
    assert.deepEqual(await media(bob), { audio: true, video: false, screen: false });
    assert.equal(await bob.page.textContent('#cam'), 'Start camera');
    await ann.page.waitForSelector(listed('Bob', 'camera off'), { state: 'attached', timeout: WAIT });
    await ann.page.waitForSelector(tileOf('Bob', '.off'), { timeout: WAIT });
    // Packets, not sound: Chromium's fake microphone beeps only while its fake camera captures.
    await waitForGrowth(ann.page, 'audioPackets', 20);
  });
});

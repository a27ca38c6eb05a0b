/**
 * The meeting front end in real headless Firefox (Debian's stock
 * firefox-esr over WebDriver BiDi) with fake devices, against the real
 * Foyer app on SQLite: Firefox and Chromium in one meeting receiving each
 * other's live video (and chat, a raised hand, a reaction and the
 * microphone's shortcut between them), two Firefox participants doing the same (and one of them
 * resuming after its socket is cut, media flowing meanwhile), and the
 * pre-join screen and short-link parameters in Firefox.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type TestServer } from '../support/server.ts';
import { firefoxSkipReason, launchFirefox, openFirefoxParticipant, type LaunchedFirefox } from './firefox-support.ts';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { answerMedia, browserSkipReason, framesDecoded, HELD_MEDIA_SCRIPT, joinAs, launch, openParticipant, waitForGrowth, waitForParticipants, type Participant } from './support.ts';
import { listed } from './meeting-suite.ts';
import { peerStates } from './turn-support.ts';

// Firefox first: without it the whole file is about nothing; Chromium is needed for the mixed meeting.
const skip = firefoxSkipReason() ?? browserSkipReason();

/** Waits until every remote peer of `page` has decoded at least one video frame. */
async function waitForRemoteFrames(page: Page, peers: number): Promise<void> {
  await page.waitForFunction(
    async (expected: number) => {
      const frames = Object.values(await (window as any).foyer.framesDecoded()) as number[];
      return frames.length === expected && frames.every((n) => n > 0);
    },
    peers,
    { timeout: 30_000, polling: 250 },
  );
}

/**
 * Live video: every remote peer's decoded-frame count keeps growing (by
 * more than 10 frames: about a second of the Chromium side's camera), and the remote
 * <video> elements play with a picture size. Waits on conditions with
 * generous limits rather than fixed sleeps, so a loaded machine takes
 * longer instead of failing.
 */
async function assertLiveRemoteVideo(page: Page, peers: number, who: string): Promise<void> {
  await waitForRemoteFrames(page, peers);
  const first = await framesDecoded(page);
  await page.waitForFunction(
    async (start: Record<string, number>) => {
      const now = (await (window as any).foyer.framesDecoded()) as Record<string, number>;
      return Object.keys(start).every((id) => (now[id] ?? 0) > start[id]! + 10);
    },
    first,
    { timeout: 20_000, polling: 250 },
  ).catch(async (error) => {
    throw new Error(`${who}: remote frames stopped: ${JSON.stringify(first)} -> ${JSON.stringify(await framesDecoded(page))}`, { cause: error });
  });
  // The remote <video> elements render frames too, not only the decoders.
  await page.waitForFunction(
    (expected: number) => {
      const videos = [...document.querySelectorAll('.tile:not(.self) video')] as HTMLVideoElement[];
      return videos.length === expected && videos.every((v) => v.videoWidth > 0 && v.videoHeight > 0 && !v.paused);
    },
    peers,
    { timeout: 15_000, polling: 250 },
  );
  // Sound too: joining was a click, so remote audio plays without the "enable sound" fallback.
  assert.equal(await page.locator('#enable-sound').count(), 0, `${who}: sound blocked`);
  assert.deepEqual(await page.$$eval('.tile:not(.self) video', (vs) => vs.map((v) => (v as HTMLVideoElement).muted)), Array(peers).fill(false));
}

async function listedNames(page: Page): Promise<string[]> {
  return page.$$eval('#people-list li', (items) => items.map((li) => li.firstChild?.textContent ?? '').sort());
}

describe('meeting pages in Firefox', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let api: Client;
  let ff: LaunchedFirefox;
  let chromium: Browser;
  const opened: Participant[] = [];

  const pageUrl = (redirectUrl: string) => server.origin + new URL(redirectUrl).pathname + new URL(redirectUrl).search;
  const inFirefox = async (url: string) => {
    const p = await openFirefoxParticipant(ff.browser, url);
    opened.push(p);
    return p;
  };
  const inChromium = async (url: string) => {
    const p = await openParticipant(chromium, url);
    opened.push(p);
    return p;
  };
  const closeAll = async (...ps: Participant[]) => {
    for (const p of ps) await p.context.close().catch(() => {});
  };

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store);
    api = client(server.baseUrl, await seedOrganization(server.ctx, 'basic'));
    [ff, chromium] = await Promise.all([launchFirefox(), launch()]);
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

  it('shows a Firefox and a Chromium participant each other\'s live video and both names', async () => {
    const created = await api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const url = pageUrl(created.body.redirectUrl);
    const fox = await inFirefox(url);
    const chrome = await inChromium(url);
    // Really two engines.
    assert.match(await fox.page.evaluate(() => navigator.userAgent), /Gecko\/\d+ Firefox\//);
    assert.match(await chrome.page.evaluate(() => navigator.userAgent), /Chrome\//);
    await joinAs(fox.page, 'Fox');
    await joinAs(chrome.page, 'Chrome');
    await waitForParticipants(fox.page, ['Chrome', 'Fox']);
    await waitForParticipants(chrome.page, ['Chrome', 'Fox']);
    assert.deepEqual(await listedNames(fox.page), ['Chrome', 'Fox (you)']);
    assert.deepEqual(await listedNames(chrome.page), ['Chrome (you)', 'Fox']);

    await assertLiveRemoteVideo(fox.page, 1, 'Firefox receiving from Chromium');
    await assertLiveRemoteVideo(chrome.page, 1, 'Chromium receiving from Firefox');

    // Chat, a hand, a reaction and the microphone's shortcut, from Firefox and to it.
    const said = (text: string) => (window as any).foyer.announcements().includes(text);
    await fox.page.click('#chat');
    await fox.page.fill('#chat-input', 'Hello from <i>Firefox</i> https://example.org');
    await fox.page.press('#chat-input', 'Enter');
    await chrome.page.waitForSelector('#chat-unread:not([hidden])', { timeout: 15_000 });
    await chrome.page.click('#chat');
    assert.equal(await chrome.page.textContent('#chat-log li .text'), 'Hello from <i>Firefox</i> https://example.org');
    assert.equal(await chrome.page.getAttribute('#chat-log li a', 'href'), 'https://example.org/');
    await chrome.page.fill('#chat-input', 'Hello Fox');
    await chrome.page.click('#chat-send');
    await fox.page.waitForSelector('#chat-log li:has-text("Hello Fox") .person:text-is("Chrome")', { timeout: 15_000 });
    await chrome.page.click('#hand');
    await fox.page.waitForSelector('.tile.hand:not(.self) .hand-flag:not([hidden])', { timeout: 15_000 });
    await fox.page.waitForFunction(said, 'Chrome raised their hand.', { timeout: 15_000 });
    await fox.page.click('#react');
    await fox.page.click('#reaction-menu [data-reaction="👏"]');
    await chrome.page.waitForFunction(said, 'Fox: applause', { timeout: 15_000 });
    await fox.page.keyboard.press('Control+d');
    await fox.page.waitForFunction(() => (window as any).foyer.media().audio === false, undefined, { timeout: 15_000 });
    await chrome.page.waitForSelector('.tile.muted:not(.self)', { timeout: 15_000 });
    await closeAll(fox, chrome);
  });

  it('shows two Firefox participants each other\'s live video, and keeps it through a cut socket, resuming as the same participant', async () => {
    const created = await api.post('/v3/meeting', { json: { type: 'consultation' } });
    assert.equal(created.status, 201, created.text);
    const url = pageUrl(created.body.redirectUrl);
    // Ann reaches the server through a TCP proxy: taking it down cuts her socket as a lost network would.
    const proxy = await startTcpProxy(Number(new URL(server.origin).port));
    try {
      const ann = await inFirefox(url.replace(server.origin, `http://127.0.0.1:${proxy.port}`));
      const bob = await inFirefox(url);
      await joinAs(ann.page, 'Ann');
      await joinAs(bob.page, 'Bob');
      await waitForParticipants(ann.page, ['Ann', 'Bob']);
      await waitForParticipants(bob.page, ['Ann', 'Bob']);

      await assertLiveRemoteVideo(ann.page, 1, 'Ann (Firefox)');
      await assertLiveRemoteVideo(bob.page, 1, 'Bob (Firefox)');

      const annId = await ann.page.evaluate(() => (window as any).foyer.selfId() as string);
      await proxy.down();
      await ann.page.waitForSelector('#notice:has-text("Connection to the meeting lost")', { timeout: 30_000 });
      await bob.page.waitForSelector(listed('Ann', 'reconnecting to the meeting'), { state: 'attached', timeout: 30_000 });
      // The socket is gone, not the media: both still decode while Ann is away.
      for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 10, 30_000);
      await proxy.up();
      await ann.page.waitForSelector('#notice:has-text("Connected again. Still here: Bob.")', { timeout: 30_000 });
      assert.equal(await ann.page.evaluate(() => (window as any).foyer.selfId() as string), annId, 'the same participant');
      await bob.page.waitForSelector(listed('Ann', 'reconnecting to the meeting'), { state: 'detached', timeout: 30_000 });
      for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 10, 30_000);
      // Neither page rebuilt its connection: still the first attempt.
      for (const p of [ann, bob]) assert.deepEqual(await peerStates(p.page), [{ state: 'connected', attempt: 1 }]);
      await closeAll(ann, bob);
    } finally {
      await proxy.close();
    }
  });

  it('renders the pre-join screen with the fake devices and applies a short link\'s parameters', async () => {
    const created = await api.post('/v3/meeting', { json: { queryParameters: { displayName: 'Vera', video: 'off' } } });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.redirectUrl, /\/m\/[0-9A-Za-z]+$/);

    // A plain meeting link: the pre-join screen with preview and both pickers filled.
    const plain = await inFirefox(server.origin + `/meetings/${created.body.id}`);
    await plain.page.waitForSelector('#prejoin');
    const pickers = async (page: Page) =>
      page.evaluate(() => ({
        cameras: [...(document.querySelector('#camera') as HTMLSelectElement).options].map((o) => ({ value: o.value, label: o.textContent })),
        microphones: [...(document.querySelector('#microphone') as HTMLSelectElement).options].map((o) => ({ value: o.value, label: o.textContent })),
      }));
    await plain.page.waitForFunction(
      () => (document.querySelector('#camera') as HTMLSelectElement)?.options.length > 0 && (document.querySelector('#microphone') as HTMLSelectElement)?.options.length > 0,
      undefined,
      { timeout: 15_000 },
    );
    const devices = await pickers(plain.page);
    // Firefox's fake devices (media.navigator.streams.fake), with their labels, selected as in use.
    assert.equal(devices.cameras.length, 1, JSON.stringify(devices));
    assert.equal(devices.microphones.length, 1, JSON.stringify(devices));
    assert.ok(devices.cameras[0]!.value && devices.cameras[0]!.label, JSON.stringify(devices));
    assert.ok(devices.microphones[0]!.value && devices.microphones[0]!.label, JSON.stringify(devices));
    assert.equal(await plain.page.locator('#camera').isDisabled(), false);
    assert.equal(await plain.page.inputValue('#name'), '');
    assert.equal(await plain.page.textContent('#join'), 'Join');
    // The preview shows the live fake camera.
    await plain.page.waitForFunction(() => {
      const v = document.querySelector('video.preview') as HTMLVideoElement | null;
      return Boolean(v && !v.closest('.preview-box')?.classList.contains('off') && v.videoWidth > 0);
    }, undefined, { timeout: 15_000 });
    await joinAs(plain.page, 'Host');

    // The short link: redirected to the meeting with displayName and video=off applied.
    const vera = await inFirefox(pageUrl(created.body.redirectUrl));
    assert.match(vera.page.url(), new RegExp(`/meetings/${created.body.id}\\?`));
    await vera.page.waitForSelector('#prejoin');
    assert.equal(await vera.page.inputValue('#name'), 'Vera');
    // Devices acquired (the microphone picker is filled once getUserMedia has answered).
    await vera.page.waitForFunction(() => (document.querySelector('#microphone') as HTMLSelectElement)?.options.length > 0, undefined, {
      timeout: 15_000,
    });
    assert.deepEqual(await vera.page.evaluate(() => (window as any).foyer.media()), { audio: true, video: false, screen: false });
    assert.equal(await vera.page.textContent('#prejoin-cam'), 'Start camera');
    assert.equal(await vera.page.getAttribute('#prejoin-cam', 'aria-pressed'), 'true');
    assert.equal(await vera.page.locator('.preview-box.off').count(), 1, 'no camera preview with video=off: the initials instead');

    // Joining under the given name without typing it; the others see the camera off.
    await vera.page.click('#join');
    await vera.page.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: 15_000 });
    await waitForParticipants(plain.page, ['Host', 'Vera']);
    await waitForParticipants(vera.page, ['Host', 'Vera']);
    await plain.page.waitForSelector('#people-list li:has-text("Vera") small:has-text("camera off")', { state: 'attached', timeout: 10_000 });
    assert.equal(await vera.page.locator('#tile-self.off').count(), 1);
    // Vera still receives the host's video.
    await assertLiveRemoteVideo(vera.page, 1, 'Vera (Firefox, camera off) receiving from Host');
    await closeAll(plain, vera);
  });

  it('sends a Firefox camera and microphone that answer 4 s after Join: the Chromium side sees and hears them', async () => {
    // Headless Firefox cannot grant a permission later (BiDi has no camera permission), so the
    // late answer is a pending getUserMedia, released by the test after Join.
    const url = pageUrl((await api.post('/v3/meeting', { json: {} })).body.redirectUrl);
    const chrome = await inChromium(url);
    await joinAs(chrome.page, 'Chrome');
    const context = await ff.browser.newContext();
    const page = await context.newPage();
    opened.push({ context, page });
    await page.addInitScript(HELD_MEDIA_SCRIPT);
    await page.goto(url);
    await joinAs(page, 'Fox');
    await waitForParticipants(chrome.page, ['Chrome', 'Fox']);
    assert.deepEqual(await page.evaluate(() => (window as any).foyer.media()), { audio: false, video: false, screen: false });
    await new Promise((r) => setTimeout(r, 4000));
    const answered = await answerMedia(page);
    // Generous bounds (the promise is 2 s): a loaded machine slows Firefox's fake capture most; the figures are printed.
    await page.waitForFunction(() => JSON.stringify((window as any).foyer.media()) === '{"audio":true,"video":true,"screen":false}', undefined, { timeout: 30_000 });
    const sending = Date.now() - answered;
    await chrome.page.waitForSelector('.tile:not(.self):not(.off):not(.muted):has(figcaption:has-text("Fox"))', { timeout: 30_000 });
    const shown = Date.now() - answered;
    await waitForRemoteFrames(chrome.page, 1);
    const firstFrames = Date.now() - answered;
    await assertLiveRemoteVideo(chrome.page, 1, 'Chrome receiving the late Firefox camera');
    console.log(`# slow camera (Firefox → Chromium), ms after the camera answered: sending ${sending}, tile on ${shown}, first frames ${firstFrames}, live video (10 more frames, playing) ${Date.now() - answered}`);
    assert.deepEqual(await page.evaluate(() => (window as any).foyer.media()), { audio: true, video: true, screen: false });
    assert.equal(await page.textContent('#cam .btn-label'), 'Stop camera');
    assert.equal(await page.textContent('#mic .btn-label'), 'Mute');
  });
});

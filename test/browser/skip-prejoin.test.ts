/**
 * `skipPrejoin=true` in real headless Chromium: a link anyone can write
 * (another organization on the same host, say) puts the visitor in the
 * call without a click but never turns on their camera or microphone — no
 * device is even opened; the meeting's own stored parameters (set by its
 * organization through the API) may join with both on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, joinAs, waitForParticipants } from './support.ts';
import { listed, media, pageUrl, useMeetingSuite, WAIT } from './meeting-suite.ts';

/** Counts the page's requests for a camera or microphone. */
const countDeviceRequests = (page: Page) =>
  page.addInitScript(() => {
    const w = window as unknown as { deviceRequests: number };
    w.deviceRequests = 0;
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = (constraints) => {
      w.deviceRequests++;
      return original(constraints);
    };
  });
const deviceRequests = (page: Page) => page.evaluate(() => (window as unknown as { deviceRequests: number }).deviceRequests);
const inCall = (page: Page) => page.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: WAIT });

describe('skipPrejoin in Chromium', { skip: browserSkipReason() }, () => {
  const s = useMeetingSuite();

  it('joins from a bare link with camera and microphone off, opening no device, until the visitor turns them on', async () => {
    const created = await s.api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const host = await s.open(pageUrl(s.server, created.body.redirectUrl));
    await joinAs(host.page, 'Host', WAIT);

    const jane = await s.open(`${s.server.origin}/meetings/${created.body.id}?skipPrejoin=true&displayName=Jane`, { setup: countDeviceRequests });
    await inCall(jane.page);
    await waitForParticipants(host.page, ['Host', 'Jane'], WAIT);
    assert.deepEqual(await media(jane), { audio: false, video: false, screen: false });
    assert.equal(await deviceRequests(jane.page), 0, 'no camera or microphone opened');
    await host.page.waitForSelector(listed('Jane', 'muted'), { state: 'attached', timeout: WAIT });

    // Her own click turns the microphone on.
    await jane.page.click('#mic');
    await jane.page.waitForFunction(() => (window as any).foyer.media().audio === true, undefined, { timeout: WAIT });
    assert.ok((await deviceRequests(jane.page)) > 0);
  });

  it('joins with camera and microphone on when the meeting’s stored parameters say skipPrejoin, whichever link opens it', async () => {
    const created = await s.api.post('/v3/meeting', { json: { queryParameters: { skipPrejoin: true } } });
    assert.equal(created.status, 201, created.text);
    const viaShortLink = await s.open(`${pageUrl(s.server, created.body.redirectUrl)}?displayName=Kim`);
    await inCall(viaShortLink.page);
    await viaShortLink.page.waitForFunction(() => (window as any).foyer.media().video === true && (window as any).foyer.media().audio === true, undefined, { timeout: WAIT });
    const direct = await s.open(`${s.server.origin}/meetings/${created.body.id}?skipPrejoin=true&displayName=Lou`);
    await inCall(direct.page);
    await direct.page.waitForFunction(() => (window as any).foyer.media().video === true, undefined, { timeout: WAIT });
  });

  it('joins a board’s meeting place from a bare link with both off too (it has no stored parameters)', async () => {
    const slug = `desk-${Date.now().toString(36)}`;
    const board = await s.api.post('/v3/rooms/board', { json: { name: 'Front desk', slug, hasWaitingList: false } });
    assert.equal(board.status, 201, board.text);
    const ola = await s.open(`${s.server.origin}/${slug}?skipPrejoin=true&displayName=Ola`, { setup: countDeviceRequests });
    await inCall(ola.page);
    assert.deepEqual(await media(ola), { audio: false, video: false, screen: false });
    assert.equal(await deviceRequests(ola.page), 0);
  });
});

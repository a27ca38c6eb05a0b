/**
 * `skipPrejoin=true` in real headless Chromium: a link anyone can write
 * (another organization on the same host, say) puts the visitor in the
 * call without a click but never turns on their camera or microphone — no
 * device is even opened; the meeting's own stored parameters (set by its
 * organization through the API) may join with both on. The waiting page
 * of a queue or board alike: such a link puts the client in line with
 * both off, and the call a member takes them into starts so too.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, joinAs, openParticipant, waitForParticipants } from './support.ts';
import { listed, media, pageUrl, useMeetingSuite, WAIT } from './meeting-suite.ts';
import { useBrowserSuite } from './browser-suite.ts';
import { client } from '../support/server.ts';
import { clientWaits, newSpace } from './waiting-support.ts';

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

describe('skipPrejoin on a waiting page in Chromium', { skip: browserSkipReason() }, () => {
  const s = useBrowserSuite({ type: 'basic', members: [{ email: 'sam@desk.test', fullName: 'Sam Specialist', role: 'ADMIN' }] });

  it('puts the client of a bare link in line with camera and microphone off, opening no device, and takes them into the call so, until they click', async () => {
    const [sam] = s.seeded.users;
    const queue = await newSpace(s.server, s.seeded, 'queue', [sam!]);
    const p = await openParticipant(s.browser, `${s.server.origin}/${queue.slug}?skipPrejoin=true&displayName=Uma`, { setup: countDeviceRequests });
    s.opened.push(p);
    const uma = p.page;
    await uma.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting', undefined, { timeout: WAIT });
    assert.equal(await uma.isVisible('#name'), false, 'no name asked');
    assert.equal(await deviceRequests(uma), 0, 'no camera or microphone opened while waiting');
    const readiness = await uma.evaluate(() => (window as any).foyer.readiness());
    assert.equal(readiness.camera, 'off');
    assert.equal(readiness.microphone, 'off');
    // A reload keeps her place, and still opens nothing.
    await uma.reload();
    await uma.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting', undefined, { timeout: WAIT });
    assert.equal((await uma.evaluate(() => (window as any).foyer.view())).position, 1);
    assert.equal(await deviceRequests(uma), 0, 'no camera or microphone opened after a reload');

    // A member takes her: the call starts with both off, still without opening a device.
    const api = client(s.server.baseUrl, s.seeded);
    const taken = await api.post(`/v3/rooms/queue/${queue.id}/next`, { json: { userId: sam!.id } });
    assert.equal(taken.status, 200, taken.text);
    await inCall(uma);
    await uma.waitForSelector('#mic', { timeout: WAIT });
    assert.deepEqual(await uma.evaluate(() => (window as any).foyer.media()), { audio: false, video: false, screen: false });
    assert.equal(await deviceRequests(uma), 0, 'no camera or microphone opened in the call');

    // Her own click turns the camera on.
    await uma.click('#cam');
    await uma.waitForFunction(() => (window as any).foyer.media().video === true, undefined, { timeout: WAIT });
    assert.ok((await deviceRequests(uma)) > 0);
  });

  it('keeps a normal waiting link as it was: the name and device check first, then in line with the camera on', async () => {
    const [sam] = s.seeded.users;
    const queue = await newSpace(s.server, s.seeded, 'queue', [sam!]);
    const vic = await clientWaits(s.browser, s.server, queue, 'Vic', s.opened);
    await vic.waitForFunction(() => (window as any).foyer.readiness().camera === 'ok', undefined, { timeout: WAIT });
  });
});

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
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type TestServer } from '../support/server.ts';
import { browserSkipReason, joinAs, launch, openParticipant, waitForParticipants, waitUntil } from '../browser/support.ts';
import { decodesEveryone, FAST, pathOf, slowCamera, WAIT, type Person } from './meeting-pages.ts';
import { JANUS_BIN, janusSkipReason, testRtpPorts } from './support.ts';

const skip = janusSkipReason() ?? browserSkipReason();

describe('eight people in a meeting through the SFU (Chromium, a local Janus)', { skip, timeout: 600_000 }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let browser: Browser;
  let url: string;
  const people: Person[] = [];

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(
      db.store,
      { sfu: { janus: { kind: 'local', bin: JANUS_BIN! }, rtpPorts: testRtpPorts(), publicIp: undefined, fromParticipants: 3, videoSlots: 9 } },
      { sfu: { tuning: FAST, iceInterfaces: 'lo' } },
    );
    await waitUntil('the local Janus up', async () => server.sfu!.health() === 'ok', { timeout: 30_000 });
    const api = client(server.baseUrl, await seedOrganization(server.ctx, 'basic'));
    const created = await api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const redirect = new URL(created.body.redirectUrl);
    url = server.origin + redirect.pathname + redirect.search;
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await db?.dispose();
  });

  it('lets each of eight decode the seven others through at most two connections, grid tiles at a lower layer', async () => {
    const startedAt = Date.now();
    for (const name of ['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus', 'Hal']) {
      const p = await openParticipant(browser, url, { setup: (page) => page.addInitScript(slowCamera) });
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

/**
 * The meeting front end in real headless Chromium with fake devices,
 * against the real Foyer app (API, pages, signalling) on SQLite:
 * live remote video both ways, participant lists following joins and
 * leaves, idle closing ending in 410, isInfinite staying open, and short
 * links landing on the meeting with their parameters applied.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type TestServer } from '../support/server.ts';
import { browserSkipReason, framesDecoded, joinAs, launch, openParticipant, waitForParticipants, type Participant } from './support.ts';

const skip = browserSkipReason();
const IDLE_SECONDS = 2;

describe('meeting pages in Chromium', { skip }, () => {
  let db: TestDatabase;
  let server: TestServer;
  let shortIdle: TestServer;
  let api: Client;
  let shortApi: Client;
  let browser: Browser;
  const opened: Participant[] = [];

  const open = async (url: string) => {
    const p = await openParticipant(browser, url);
    opened.push(p);
    return p;
  };
  const pageUrl = (srv: TestServer, redirectUrl: string) => srv.origin + new URL(redirectUrl).pathname + new URL(redirectUrl).search;

  before(async () => {
    db = await openTestDatabase('sqlite');
    // Two instances on one database: normal idle time, and a short one for the closing tests.
    server = await startServer(db.store);
    shortIdle = await startServer(db.store, { idleCloseSeconds: IDLE_SECONDS });
    const seeded = await seedOrganization(server.ctx, 'basic');
    api = client(server.baseUrl, seeded);
    shortApi = client(shortIdle.baseUrl, seeded);
    browser = await launch();
  });
  after(async () => {
    for (const p of opened) await p.context.close().catch(() => {});
    await browser?.close();
    await shortIdle?.close();
    await server?.close();
    await db?.dispose();
  });

  it('shows each of two participants the other one\'s live video', async () => {
    const created = await api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const url = pageUrl(server, created.body.redirectUrl);
    const ann = await open(url);
    const bob = await open(url);
    await joinAs(ann.page, 'Ann');
    await joinAs(bob.page, 'Bob');
    await waitForParticipants(ann.page, ['Ann', 'Bob']);
    await waitForParticipants(bob.page, ['Ann', 'Bob']);

    for (const p of [ann, bob]) {
      await p.page.waitForFunction(
        async () => Object.values(await (window as any).foyer.framesDecoded()).some((n) => (n as number) > 0),
        undefined,
        { timeout: 20_000, polling: 250 },
      );
    }
    const first = await Promise.all([framesDecoded(ann.page), framesDecoded(bob.page)]);
    await new Promise((r) => setTimeout(r, 1500));
    const second = await Promise.all([framesDecoded(ann.page), framesDecoded(bob.page)]);
    for (const i of [0, 1]) {
      const [peer] = Object.keys(second[i]!);
      assert.ok(peer, 'one remote peer');
      assert.ok(second[i]![peer]! > first[i]![peer]! + 5, `frames keep coming: ${first[i]![peer]} -> ${second[i]![peer]}`);
    }
    // The remote <video> renders frames too, not only the decoder.
    const width = await ann.page.evaluate(() => (document.querySelector('.tile:not(.self) video') as HTMLVideoElement)?.videoWidth ?? 0);
    assert.ok(width > 0);
    await ann.context.close();
    await bob.context.close();
  });

  it('updates everyone\'s participant list when a third joins and leaves', async () => {
    const created = await api.post('/v3/meeting', { json: { type: 'consultation' } });
    const url = pageUrl(server, created.body.redirectUrl);
    const ann = await open(url);
    const bob = await open(url);
    await joinAs(ann.page, 'Ann');
    await joinAs(bob.page, 'Bob');
    await waitForParticipants(ann.page, ['Ann', 'Bob']);

    const cat = await open(url);
    await joinAs(cat.page, 'Cat');
    for (const p of [ann, bob, cat]) await waitForParticipants(p.page, ['Ann', 'Bob', 'Cat']);
    assert.deepEqual(
      await ann.page.$$eval('#people-list li', (items) => items.map((li) => li.firstChild?.textContent).sort()),
      ['Ann (you)', 'Bob', 'Cat'],
    );

    await cat.page.click('#leave');
    await cat.page.waitForSelector('#finished[data-kind="left"]');
    for (const p of [ann, bob]) await waitForParticipants(p.page, ['Ann', 'Bob']);
    // The departed peer's tile is gone.
    assert.equal(await ann.page.locator('.tile:not(.self)').count(), 1);

    // A closed tab (no leave message) is noticed too.
    const dan = await open(url);
    await joinAs(dan.page, 'Dan');
    await waitForParticipants(ann.page, ['Ann', 'Bob', 'Dan']);
    await dan.context.close();
    await waitForParticipants(ann.page, ['Ann', 'Bob']);
    await ann.context.close();
    await bob.context.close();
  });

  it('closes a meeting left empty after the idle time; its page then answers 410', async () => {
    const created = await shortApi.post('/v3/meeting', { json: {} });
    const url = pageUrl(shortIdle, created.body.redirectUrl);
    const ann = await open(url);
    await joinAs(ann.page, 'Ann');
    // Present for longer than the idle time: still open.
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000 + 500));
    assert.equal((await fetch(url)).status, 200);
    await ann.page.click('#leave');
    await ann.page.waitForSelector('#finished');
    const leftAt = Date.now();
    assert.equal((await fetch(url)).status, 200, 'open during the idle time');
    let status = 200;
    while (status === 200 && Date.now() - leftAt < IDLE_SECONDS * 1000 + 5000) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await fetch(url)).status;
    }
    assert.equal(status, 410);
    assert.ok(Date.now() - leftAt >= IDLE_SECONDS * 1000 - 100);
    const page = await ann.page.goto(url);
    assert.equal(page?.status(), 410);
    assert.match(await ann.page.textContent('h1') ?? '', /ended/);
    // The page counts a passed deadline as closed at once; a sweeper records it within its interval.
    const deadline = Date.now() + 5000;
    while (!(await db.store.live.findMeetingRecord({ id: created.body.id }))?.closedAt) {
      assert.ok(Date.now() < deadline, 'closed in the database by a sweeper');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('keeps an isInfinite meeting open however long it stays empty', async () => {
    const created = await shortApi.post('/v3/meeting', { json: { isInfinite: true } });
    const url = pageUrl(shortIdle, created.body.redirectUrl);
    const ann = await open(url);
    await joinAs(ann.page, 'Ann');
    await ann.page.click('#leave');
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 3000));
    assert.equal((await fetch(url)).status, 200);
    const bob = await open(url);
    await joinAs(bob.page, 'Bob');
    await waitForParticipants(bob.page, ['Bob']);
    await ann.context.close();
    await bob.context.close();
  });

  it('lands a short link on its meeting with the stored parameters applied', async () => {
    const created = await api.post('/v3/meeting', {
      json: { queryParameters: { displayName: 'Zed', audio: 'off', skipPrejoin: true, lang: 'de', embed: true, unknownThing: 'x' } },
    });
    assert.match(created.body.redirectUrl, /\/m\/[0-9A-Za-z]+$/);
    const host = await open(server.origin + `/meetings/${created.body.id}`);
    await joinAs(host.page, 'Host');

    const zed = await open(pageUrl(server, created.body.redirectUrl));
    assert.match(zed.page.url(), new RegExp(`/meetings/${created.body.id}\\?`));
    // skipPrejoin: in the call without touching anything, under the given name.
    await zed.page.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: 15_000 });
    await waitForParticipants(host.page, ['Host', 'Zed']);
    assert.equal(await zed.page.evaluate(() => document.documentElement.lang), 'de');
    assert.equal(await zed.page.textContent('#leave'), 'Verlassen');
    assert.equal(await zed.page.evaluate(() => document.body.classList.contains('embed')), true);
    assert.equal(await zed.page.locator('.bar').isVisible(), false, 'embed: minimal interface');
    assert.deepEqual(await zed.page.evaluate(() => (window as any).foyer.media()), { audio: false, video: true, screen: false });
    // Others see Zed muted.
    await host.page.waitForSelector('#people-list li:has-text("Zed") small:has-text("muted")', { timeout: 10_000 });
  });
});

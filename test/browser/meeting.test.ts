/**
 * The meeting front end in real headless Chromium with fake devices,
 * against the real Foyer app (API, pages, signalling) on SQLite: live
 * remote video both ways, participant lists following joins and leaves,
 * idle closing ending in 410, isInfinite staying open, and short links
 * landing on the meeting with their parameters applied.
 * (Media controls: meeting-media.test.ts; connections: meeting-connection.test.ts.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserSkipReason, framesDecoded, joinAs, waitForParticipants } from './support.ts';
import { IDLE_SECONDS, pageUrl, useMeetingSuite } from './meeting-suite.ts';

describe('meeting pages in Chromium', { skip: browserSkipReason() }, () => {
  const s = useMeetingSuite();

  it('shows each of two participants the other one\'s live video', async () => {
    const created = await s.api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const url = pageUrl(s.server, created.body.redirectUrl);
    const ann = await s.open(url);
    const bob = await s.open(url);
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
    const created = await s.api.post('/v3/meeting', { json: { type: 'consultation' } });
    const url = pageUrl(s.server, created.body.redirectUrl);
    const ann = await s.open(url);
    const bob = await s.open(url);
    await joinAs(ann.page, 'Ann');
    await joinAs(bob.page, 'Bob');
    await waitForParticipants(ann.page, ['Ann', 'Bob']);

    const cat = await s.open(url);
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
    const dan = await s.open(url);
    await joinAs(dan.page, 'Dan');
    await waitForParticipants(ann.page, ['Ann', 'Bob', 'Dan']);
    await dan.context.close();
    await waitForParticipants(ann.page, ['Ann', 'Bob']);
    await ann.context.close();
    await bob.context.close();
  });

  it('closes a meeting left empty after the idle time; its page then answers 410', async () => {
    const created = await s.shortApi.post('/v3/meeting', { json: {} });
    const url = pageUrl(s.shortIdle, created.body.redirectUrl);
    const ann = await s.open(url);
    await joinAs(ann.page, 'Ann');
    // Present for longer than the idle time: still open.
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000 + 500));
    assert.equal((await fetch(url)).status, 200);
    await ann.page.click('#leave');
    await ann.page.waitForSelector('#finished');
    // Judged by the server's own deadline, not by when this (possibly starved) test noticed the leave.
    let closesAt: Date | null | undefined = null;
    const noticed = Date.now() + 30_000;
    while (!(closesAt = (await s.db.store.live.findMeetingRecord({ id: created.body.id }))?.closesAt)) {
      assert.ok(Date.now() < noticed, 'the last departure sets the deadline');
      await new Promise((r) => setTimeout(r, 100));
    }
    let status = 200;
    const patience = closesAt.getTime() + 60_000;
    while (status === 200) {
      assert.ok(Date.now() < patience, 'closed once its deadline passed');
      status = (await fetch(url)).status;
      // An answer that came back before the deadline was decided before it: the meeting is still open then.
      if (Date.now() < closesAt.getTime()) assert.equal(status, 200, 'open during the idle time');
      // A 410 is never decided before the deadline.
      if (status === 410) assert.ok(Date.now() >= closesAt.getTime(), 'not closed before its deadline');
      if (status === 200) await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(status, 410);
    const page = await ann.page.goto(url);
    assert.equal(page?.status(), 410);
    assert.match(await ann.page.textContent('h1') ?? '', /ended/);
    // The page counts a passed deadline as closed at once; a sweeper records it within its interval.
    const deadline = Date.now() + 30_000;
    while (!(await s.db.store.live.findMeetingRecord({ id: created.body.id }))?.closedAt) {
      assert.ok(Date.now() < deadline, 'closed in the database by a sweeper');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('keeps an isInfinite meeting open however long it stays empty', async () => {
    const created = await s.shortApi.post('/v3/meeting', { json: { isInfinite: true } });
    const url = pageUrl(s.shortIdle, created.body.redirectUrl);
    const ann = await s.open(url);
    await joinAs(ann.page, 'Ann');
    await ann.page.click('#leave');
    // Well past the idle time after the last leave: a finite meeting would be closed by now.
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000 + 3000));
    assert.equal((await fetch(url)).status, 200);
    const bob = await s.open(url);
    await joinAs(bob.page, 'Bob');
    await waitForParticipants(bob.page, ['Bob']);
    await ann.context.close();
    await bob.context.close();
  });

  it('lands a short link on its meeting with the stored parameters applied', async () => {
    const created = await s.api.post('/v3/meeting', {
      json: { queryParameters: { displayName: 'Zed', audio: 'off', skipPrejoin: true, lang: 'de', embed: true, unknownThing: 'x' } },
    });
    assert.match(created.body.redirectUrl, /\/m\/[0-9A-Za-z]+$/);
    const host = await s.open(s.server.origin + `/meetings/${created.body.id}`);
    await joinAs(host.page, 'Host');

    const zed = await s.open(pageUrl(s.server, created.body.redirectUrl));
    assert.match(zed.page.url(), new RegExp(`/meetings/${created.body.id}\\?`));
    // skipPrejoin: in the call without touching anything, under the given name.
    await zed.page.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: 60_000 });
    await waitForParticipants(host.page, ['Host', 'Zed']);
    assert.equal(await zed.page.evaluate(() => document.documentElement.lang), 'de');
    assert.equal(await zed.page.textContent('#leave'), 'Verlassen');
    assert.equal(await zed.page.evaluate(() => document.body.classList.contains('embed')), true);
    assert.equal(await zed.page.locator('.bar').isVisible(), false, 'embed: minimal interface');
    assert.deepEqual(await zed.page.evaluate(() => (window as any).foyer.media()), { audio: false, video: true, screen: false });
    // Others see Zed muted.
    await host.page.waitForSelector('#people-list li:has-text("Zed") small:has-text("muted")', { state: 'attached', timeout: 60_000 });
  });
});

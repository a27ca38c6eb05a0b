/**
 * Calls through a real TURN relay in headless Chromium: coturn on loopback
 * with a generated secret, Foyer forcing relay-only ICE. Video goes both
 * ways through the relay (and coturn logs the allocations and the bytes);
 * the page never receives the secret, and its credential carries the
 * documented 12-hour expiry. With a wrong secret nothing gets through and
 * the page says so: the failure state, "Try again", then a hint naming
 * TURN; and one participant who cannot connect leaves the others' call alone.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { TURN_CREDENTIAL_TTL_SECONDS } from '../../src/realtime/ice.ts';
import { coturnSkipReason } from '../support/coturn.ts';
import { browserSkipReason, joinAs, launch, openParticipant, remoteStats, waitForGrowth, waitForParticipants, waitUntil, type Participant } from './support.ts';
import { WAIT } from './meeting-suite.ts';
import { assertRelayed, peerStates, refuseCredential, tileIn, turnCredential, useTurnSuite } from './turn-support.ts';

describe('calls through a TURN relay in Chromium', { skip: coturnSkipReason() ?? browserSkipReason() }, () => {
  const s = useTurnSuite();
  let browser: Browser;
  const opened: Participant[] = [];
  before(async () => {
    browser = await launch();
  });
  afterEach(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
  });
  after(async () => {
    await browser?.close();
  });

  /** Everything a page receives and says: HTTP bodies, WebSocket frames, console lines. */
  const recorded: string[] = [];
  const open = async (url: string, record = false, setup?: (page: Page) => Promise<unknown>) => {
    const p = await openParticipant(browser, url, {
      setup: async (page) => {
        await setup?.(page);
        if (!record) return;
        page.on('response', (r) => void r.text().then((t) => recorded.push(t), () => {}));
        page.on('websocket', (ws) => {
          ws.on('framereceived', (f) => recorded.push(String(f.payload)));
          ws.on('framesent', (f) => recorded.push(String(f.payload)));
        });
        page.on('console', (m) => recorded.push(m.text()));
      },
    });
    opened.push(p);
    return p;
  };
  const join = async (url: string, names: string[], record = false) => {
    const people = [];
    for (const name of names) {
      const p = await open(url, record);
      await joinAs(p.page, name, WAIT);
      people.push(p);
    }
    for (const p of people) await waitForParticipants(p.page, names, WAIT);
    return people;
  };

  it('carries video both ways through the relay only, with a 12-hour credential and never the secret', async () => {
    const [ann, bob] = await join(await s.newMeeting(s.server), ['Ann', 'Bob'], true);
    const credentials: string[] = [];
    for (const p of [ann!, bob!]) {
      await waitForGrowth(p.page, 'framesDecoded', 20, WAIT);
      // The path media takes is relay to relay: nothing went directly.
      await assertRelayed(p.page, s.turn);
      // Connected on whichever attempt: a busy machine may rebuild a slow first connection, and the proof here is the relay.
      const states = await peerStates(p.page);
      assert.deepEqual(states.map((x) => x.state), ['connected'], JSON.stringify(states));
      assert.equal(await p.page.locator('.tile .peer-state:not([hidden])').count(), 0);
      const credential = await turnCredential(p.page, s.turn.secret);
      const ttl = credential.expiresAt - Math.floor(Date.now() / 1000);
      assert.ok(ttl <= TURN_CREDENTIAL_TTL_SECONDS && ttl > TURN_CREDENTIAL_TTL_SECONDS - 300, `credential valid for ${ttl} s`);
      credentials.push(credential.username);
    }
    // coturn allocated for each page's own credential...
    for (const username of credentials) assert.ok(s.turn.allocations().includes(username), `an allocation for ${username}:\n${s.turn.allocations().join('\n')}`);
    await waitForGrowth(ann!.page, 'audioPackets', 20, WAIT);
    for (const p of [ann!, bob!]) await p.context.close();
    // ...and, once the calls ended, counted the media it relayed for them.
    const relayed = await waitUntil('coturn logging the relayed bytes', async () => {
      const usage = s.turn.peerUsage().filter((u) => credentials.includes(u.username));
      const total = usage.reduce((sum, u) => sum + u.receivedBytes, 0);
      return total > 100_000 && total;
    });
    assert.ok(relayed > 100_000);
    // The secret reached no page: not in any HTTP answer, socket frame or console line, nor in Foyer's log.
    assert.ok(recorded.length > 20, `recorded ${recorded.length} items`);
    for (const text of [...recorded, ...s.serverLog]) assert.ok(!text.includes(s.turn.secret), 'the TURN secret leaked');
  });

  it('says "Reconnecting…" when the relay goes silent mid-call, and carries video again once it is back', async () => {
    const [ann, bob] = await join(await s.newMeeting(s.server), ['Ann', 'Bob']);
    for (const p of [ann!, bob!]) await waitForGrowth(p.page, 'framesDecoded', 10, WAIT);
    s.turn.pause();
    try {
      for (const [p, other] of [[ann!, 'Bob'], [bob!, 'Ann']] as const) {
        await p.page.waitForSelector(tileIn(other, 'reconnecting'), { timeout: WAIT });
        assert.equal(await p.page.textContent(`${tileIn(other, 'reconnecting')} .state-text`), 'Reconnecting…');
      }
    } finally {
      s.turn.resume();
    }
    for (const [p, other] of [[ann!, 'Bob'], [bob!, 'Ann']] as const) {
      await p.page.waitForSelector(tileIn(other, 'connected'), { timeout: WAIT });
      await waitForGrowth(p.page, 'framesDecoded', 10, WAIT);
    }
  });

  it('with a wrong secret shows no media but the failure, "Try again" and a hint naming TURN, on both sides', async () => {
    const [ann, bob] = await join(await s.newMeeting(s.wrongSecret), ['Ann', 'Bob']);
    for (const [p, other] of [[ann!, 'Bob'], [bob!, 'Ann']] as const) {
      // Connecting first, then failed once the bound passes: said in words, with the button.
      await p.page.waitForSelector(tileIn(other, 'failed'), { timeout: WAIT });
      assert.equal(await p.page.textContent(`${tileIn(other, 'failed')} .state-text`), `Can't reach ${other} — trying again`);
      assert.equal(await p.page.locator(tileIn(other, 'failed')).getByRole('button', { name: 'Try again', exact: true }).count(), 1);
      assert.equal(await p.page.textContent(`#people-list li:has-text("${other}") .connection[data-state="failed"]`), `Can't reach ${other} — trying again`);
      // After the ICE restart has failed too: the hint, naming the relay.
      await p.page.waitForSelector(`${tileIn(other, 'failed')} .tip[data-hint="turn"]:not([hidden])`, { timeout: WAIT });
      assert.match((await p.page.textContent(`${tileIn(other, 'failed')} .tip`)) ?? '', /relay server for video \(TURN\)/);
    }
    // coturn refused every page's credential, and nothing was decoded.
    for (const p of [ann!, bob!]) {
      const { username } = await turnCredential(p.page, `not-${s.turn.secret}`);
      assert.ok(s.turn.unauthorized().includes(username));
      assert.ok(!s.turn.allocations().includes(username));
      assert.ok(Object.values(await remoteStats(p.page)).every((r) => r.framesDecoded === 0 && r.state !== 'connected'));
    }
    // "Try again" starts a new attempt at once: shown as connecting, then failed again.
    const before = (await peerStates(ann!.page))[0]!.attempt;
    await ann!.page.locator(tileIn('Bob', 'failed')).getByRole('button', { name: 'Try again', exact: true }).click();
    await ann!.page.waitForSelector(tileIn('Bob', 'connecting'), { timeout: WAIT });
    assert.equal((await peerStates(ann!.page))[0]!.attempt, before + 1);
    await ann!.page.waitForSelector(tileIn('Bob', 'failed'), { timeout: WAIT });
    // The first-frame hook never fired: there was no frame.
    assert.equal(await ann!.page.evaluate(() => (window as any).foyer.firstRemoteFrameAt()), null);
  });

  it('keeps the others\' call going while one participant cannot connect', async () => {
    const url = await s.newMeeting(s.server);
    const [ann, bob] = await join(url, ['Ann', 'Bob']);
    // Cat's page gets a credential coturn refuses.
    const cat = await open(url, false, refuseCredential);
    await joinAs(cat.page, 'Cat', WAIT);
    for (const p of [ann!, bob!, cat]) await waitForParticipants(p.page, ['Ann', 'Bob', 'Cat'], WAIT);
    await cat.page.waitForSelector(tileIn('Ann', 'failed'), { timeout: WAIT });
    await cat.page.waitForSelector(tileIn('Bob', 'failed'), { timeout: WAIT });
    await ann!.page.waitForSelector(tileIn('Cat', 'failed'), { timeout: WAIT });
    // Meanwhile Ann and Bob see each other, connected, video still arriving.
    await ann!.page.waitForSelector(tileIn('Bob', 'connected'), { timeout: WAIT });
    const bobId = await bob!.page.evaluate(() => (window as any).foyer.selfId());
    const frames = async () => (await remoteStats(ann!.page))[bobId]?.framesDecoded ?? 0;
    const start = await frames();
    await waitUntil('Bob\'s video still arriving at Ann', async () => (await frames()) > start + 20);
  });
});

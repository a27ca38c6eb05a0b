/**
 * The relay-only proof in Firefox (Debian's firefox-esr over WebDriver
 * BiDi), for what a Firefox page can show: a Firefox and a Chromium
 * participant receive each other's video through coturn, relay to relay;
 * with a wrong secret the Firefox page shows the failure, "Try again" and
 * a hint, and no frame. (That the secret never reaches a page and the
 * credential's expiry are properties of the server's answer, the same for
 * every browser: test/browser/turn.test.ts checks them.)
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { coturnSkipReason } from '../support/coturn.ts';
import { firefoxSkipReason, launchFirefox, openFirefoxParticipant, type LaunchedFirefox } from './firefox-support.ts';
import { browserSkipReason, joinAs, launch, openParticipant, remoteStats, waitForGrowth, waitForParticipants, type Participant } from './support.ts';
import { WAIT } from './meeting-suite.ts';
import { assertRelayed, peerStates, tileIn, turnCredential, useTurnSuite } from './turn-support.ts';

describe('calls through a TURN relay in Firefox', { skip: coturnSkipReason() ?? firefoxSkipReason() ?? browserSkipReason() }, () => {
  const s = useTurnSuite();
  let ff: LaunchedFirefox;
  let chromium: Browser;
  const opened: Participant[] = [];
  before(async () => {
    // Firefox does not use the loopback interface for ICE unless told to, so
    // it cannot reach a TURN server on 127.0.0.1 (it reports error 701,
    // unreachable); a real TURN server is never on loopback.
    ff = await launchFirefox({ 'media.peerconnection.ice.loopback': true });
    chromium = await launch();
  });
  afterEach(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
  });
  after(async () => {
    await ff?.close();
    await chromium?.close();
  });

  /** Fox in Firefox and Ann in Chromium, in one meeting at `url`. */
  const pair = async (url: string) => {
    const fox = await openFirefoxParticipant(ff.browser, url);
    opened.push(fox);
    const ann = await openParticipant(chromium, url);
    opened.push(ann);
    await joinAs(fox.page, 'Fox', WAIT);
    await joinAs(ann.page, 'Ann', WAIT);
    for (const p of [fox, ann]) await waitForParticipants(p.page, ['Ann', 'Fox'], WAIT);
    return { fox, ann };
  };

  it('carries video both ways between Firefox and Chromium through the relay only', async () => {
    const { fox, ann } = await pair(await s.newMeeting(s.server));
    for (const p of [fox, ann]) {
      await waitForGrowth(p.page, 'framesDecoded', 20, WAIT);
      // Connected on whichever attempt: a busy machine may rebuild a slow first connection, and the proof here is the relay.
      const states = await peerStates(p.page);
      assert.deepEqual(states.map((x) => x.state), ['connected'], JSON.stringify(states));
    }
    // Firefox reports its selected pair as relay to relay, as Chromium does.
    for (const p of [fox, ann]) await assertRelayed(p.page, s.turn);
    const { username } = await turnCredential(fox.page, s.turn.secret);
    assert.ok(s.turn.allocations().includes(username), `coturn allocated for Firefox's credential ${username}`);
    assert.ok((await fox.page.evaluate(() => (window as any).foyer.firstRemoteFrameAt())) > 0);
  });

  it('with a wrong secret shows the failure, "Try again" and a hint in Firefox, and no frame', async () => {
    const { fox } = await pair(await s.newMeeting(s.wrongSecret));
    await fox.page.waitForSelector(tileIn('Ann', 'failed'), { timeout: WAIT });
    assert.equal(await fox.page.textContent(`${tileIn('Ann', 'failed')} .state-text`), "Can't reach Ann — trying again");
    await fox.page.locator(tileIn('Ann', 'failed')).getByRole('button', { name: 'Try again', exact: true }).click();
    await fox.page.waitForSelector(tileIn('Ann', 'connecting'), { timeout: WAIT });
    await fox.page.waitForSelector(`${tileIn('Ann', 'failed')} .tip[data-hint="turn"]:not([hidden])`, { timeout: WAIT });
    const { username } = await turnCredential(fox.page, `not-${s.turn.secret}`);
    assert.ok(s.turn.unauthorized().includes(username), `coturn refused Firefox's credential ${username}`);
    assert.ok(Object.values(await remoteStats(fox.page)).every((r) => r.framesDecoded === 0));
    assert.equal(await fox.page.evaluate(() => (window as any).foyer.firstRemoteFrameAt()), null);
  });
});

/**
 * A meeting page whose signalling socket drops (the network between it and
 * the server cut: no closing handshake on either side) in real headless
 * Chromium: it says so, keeps its peer connection and media running,
 * comes back with its resume token as the same participant, and says who
 * is still there; the other page shows it as reconnecting meanwhile and
 * never rebuilds its connection to it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startTcpProxy } from '../support/tcp-proxy.ts';
import { browserSkipReason, joinAs, onlyRemote, waitForGrowth, waitForParticipants, waitUntil } from './support.ts';
import { listed, useMeetingSuite, WAIT } from './meeting-suite.ts';
import { peerStates } from './turn-support.ts';

type Sample = { at: number; id: string | undefined; frames: number | undefined };

/** The only remote's id and frames decoded, sampled until stopped. */
function sampler(page: Page) {
  const samples: Sample[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const r = await onlyRemote(page).catch(() => undefined);
      samples.push({ at: Date.now(), id: r?.id, frames: r?.framesDecoded });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    samples,
    async stop() {
      running = false;
      await done;
      return samples;
    },
  };
}

describe('a meeting page resuming after its socket drops, in Chromium', { skip: browserSkipReason() }, () => {
  const s = useMeetingSuite();

  it('keeps video flowing, shows the loss, comes back with the same id, and the other page keeps its connection', async () => {
    // Ann reaches the server through a TCP proxy: taking it down cuts her socket as a lost network would.
    const proxy = await startTcpProxy(Number(new URL(s.server.origin).port));
    try {
      const url = await s.newMeeting();
      const ann = await s.open(url.replace(s.server.origin, `http://127.0.0.1:${proxy.port}`));
      const bob = await s.open(url);
      await joinAs(ann.page, 'Ann', WAIT);
      await joinAs(bob.page, 'Bob', WAIT);
      for (const p of [ann, bob]) await waitForParticipants(p.page, ['Ann', 'Bob'], WAIT);
      for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 5, WAIT);
      const selfId = (page: Page) => page.evaluate(() => (window as any).foyer.selfId() as string);
      const [annId, bobId] = [await selfId(ann.page), await selfId(bob.page)];
      const watching = [sampler(ann.page), sampler(bob.page)];

      const cut = Date.now();
      await proxy.down();
      await ann.page.waitForSelector('#notice:has-text("Connection to the meeting lost")', { timeout: WAIT });
      await bob.page.waitForSelector(listed('Ann', 'reconnecting to the meeting'), { state: 'attached', timeout: WAIT });
      const seenAway = Date.now() - cut;
      // The socket is gone, not the media: both still decode while Ann is away.
      for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 10, WAIT);
      await proxy.up();

      await waitUntil('Ann back in the call', async () => (await ann.page.evaluate(() => (window as any).foyer.phase())) === 'call' && (await ann.page.textContent('#notice'))?.includes('Connected again'));
      const back = Date.now() - cut;
      assert.equal(await selfId(ann.page), annId, 'the same participant');
      await ann.page.waitForSelector('#notice:has-text("Connected again. Still here: Bob.")', { timeout: WAIT });
      await bob.page.waitForSelector(listed('Ann', 'reconnecting to the meeting'), { state: 'detached', timeout: WAIT });
      for (const p of [ann, bob]) await waitForGrowth(p.page, 'framesDecoded', 10, WAIT);
      const [annSamples, bobSamples] = (await Promise.all(watching.map((w) => w.stop()))) as [Sample[], Sample[]];

      assert.ok((await ann.page.evaluate(() => (window as any).foyer.closes())).includes(1006), 'the socket dropped without a close');
      // Neither page rebuilt or restarted its connection: still the first attempt, the remote's frame count never started over.
      for (const p of [ann, bob]) assert.deepEqual(await peerStates(p.page), [{ state: 'connected', attempt: 1 }]);
      const sides: Array<[string, Sample[], string]> = [['Ann', annSamples, bobId], ['Bob', bobSamples, annId]];
      for (const [name, samples, remote] of sides) {
        const frames = samples.map((x) => x.frames ?? -1);
        assert.ok(samples.every((x) => x.id === remote), `${name} saw only ${remote}: ${JSON.stringify(samples.map((x) => x.id))}`);
        assert.ok(frames.every((f, i) => i === 0 || f >= frames[i - 1]!), `${name}'s frames never went back: ${frames}`);
        // Frames grew through the whole outage, not only after it: the longest wait for a new frame stays short (generous for a loaded machine).
        let lastGrowth = samples[0]!.at;
        let longest = 0;
        samples.forEach((x, i) => {
          if (i > 0 && frames[i]! > frames[i - 1]!) {
            longest = Math.max(longest, x.at - lastGrowth);
            lastGrowth = x.at;
          }
        });
        console.log(`  ${name}: frames ${frames[0]} → ${frames.at(-1)} over ${((samples.at(-1)!.at - samples[0]!.at) / 1000).toFixed(1)} s, ${samples.length} samples; longest wait for a new frame ${longest} ms`);
        assert.ok(longest < 8000, `${name} went ${longest} ms without a new frame`);
      }
      console.log(`  Ann's socket cut: loss shown on both pages after ${seenAway} ms, back as the same participant after ${back} ms`);
      assert.deepEqual(await bob.page.evaluate(() => (window as any).foyer.participants()), ['Ann', 'Bob']);
    } finally {
      for (const p of s.opened.splice(0)) await p.context.close().catch(() => {});
      await proxy.close();
    }
  });
});

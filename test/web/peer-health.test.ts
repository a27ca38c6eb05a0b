/**
 * A connection's health (public/js/lib/peer-health.js) with a stand-in for
 * RTCPeerConnection and a short bound: the states it reports, and when it
 * calls its remedies. The browsers are in test/browser and test/sfu.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PeerHealth } from '../../public/js/lib/peer-health.js';

const BOUND = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function setup() {
  const states: string[] = [];
  const calls: string[] = [];
  let carries = false;
  const pc = { connectionState: 'new', addEventListener() {} };
  const health = new PeerHealth(
    {
      onState: (r: { state: string }) => states.push(r.state),
      carried: async () => carries,
      restartIce: () => calls.push('restartIce'),
      rebuild: () => calls.push('rebuild'),
    },
    { boundMs: BOUND },
  );
  return { health, pc, states, calls, carry: (value: boolean) => (carries = value) };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (const start = Date.now(); !check(); await sleep(10)) {
    if (Date.now() - start > 10_000) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('connection health', () => {
  it('reports reconnecting when media it does not watch is lost after it worked, restarting ICE first', async () => {
    const { health, pc, states, calls, carry } = setup();
    health.start();
    health.attach(pc);
    carry(true);
    await until('connected', () => states.at(-1) === 'connected');
    carry(false);
    health.lost();
    assert.equal(states.at(-1), 'reconnecting');
    assert.deepEqual(calls, ['restartIce']);
    // Still no media once the bound has passed: a rebuild, after the backoff.
    await until('a rebuild', () => calls.includes('rebuild'));
    assert.equal(states.at(-1), 'failed');
    carry(true);
    await until('connected again', () => states.at(-1) === 'connected');
    health.stop();
  });

  it('leaves a loss before the first media to the attempt under way: no remedy out of turn', async () => {
    const { health, pc, states, calls } = setup();
    health.start();
    health.attach(pc);
    health.lost();
    health.lost();
    assert.deepEqual(states, ['connecting']);
    assert.deepEqual(calls, []);
    health.stop();
  });
});

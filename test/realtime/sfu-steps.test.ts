/** Which layer of each received video the SFU link asks Janus for (sfu-steps.ts, layerSpecs). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layerSpecs } from '../../src/realtime/sessions/sfu-steps.ts';
import type { VideoWant } from '../../src/realtime/protocol.ts';

describe('SFU layer choice', () => {
  it('gives each video the layer its tile asks for, the highest when nobody asked', () => {
    const wants = new Map<string, VideoWant>([['a', 'low'], ['b', 'high'], ['c', 'off']]);
    const mids = new Map([['a', '1'], ['b', '3'], ['c', '5'], ['d', '7']]);
    assert.deepEqual(layerSpecs(wants, mids, 9), [
      { mid: '1', send: true, substream: 0 },
      { mid: '3', send: true, substream: 2 },
      { mid: '5', send: false },
      { mid: '7', send: true, substream: 2 },
    ]);
  });

  it('gives the video slots to the latest wants, and none to people the subscription no longer carries', () => {
    // Two slots; "gone" asked last but left: "a" and "b" keep their videos.
    const wants = new Map<string, VideoWant>([['a', 'low'], ['b', 'low'], ['gone', 'low']]);
    const mids = new Map([['a', '1'], ['b', '3']]);
    assert.deepEqual(layerSpecs(wants, mids, 2).map((s) => s.send), [true, true]);
    // Three present for two slots: the earliest want is paused.
    const three = new Map([['a', '1'], ['b', '3'], ['gone', '5']]);
    assert.deepEqual(layerSpecs(wants, three, 2).map((s) => s.send), [false, true, true]);
  });
});

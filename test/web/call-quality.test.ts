/**
 * The quality bars' judgement (public/js/call/quality.js): the path is
 * judged by its round trip and loss; a low bitrate alone (a still picture,
 * a small layer, a sender easing off for a larger call) is not a bad
 * network, only video that has as good as stopped is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classify, sendProfile, weakUplink } from '../../public/js/call/quality.js';

describe('call quality', () => {
  it('reads loopback-like figures as good whatever the bitrate, as long as video arrives', () => {
    // Three people on one machine: a millisecond round trip, nothing lost, each sender eased off.
    for (const inKbps of [40, 90, 300, 900]) assert.equal(classify({ rtt: 0.002, loss: 0, inKbps, expectVideo: true }), 3, `${inKbps} kbps`);
    assert.equal(classify({ rtt: 0.002, loss: 0, inKbps: 30, expectVideo: false }), 3, 'audio only');
  });

  it('reads a long round trip or loss as fair or poor, and stalled video as poor', () => {
    assert.equal(classify({ rtt: undefined, loss: 0, inKbps: 500 }), 0, 'still measuring');
    assert.equal(classify({ rtt: 0.4, loss: 0, inKbps: 500 }), 2);
    assert.equal(classify({ rtt: 0.05, loss: 0.05, inKbps: 500 }), 2);
    assert.equal(classify({ rtt: 1.2, loss: 0, inKbps: 500 }), 1);
    assert.equal(classify({ rtt: 0.05, loss: 0.2, inKbps: 500 }), 1);
    assert.equal(classify({ rtt: 0.05, loss: 0, inKbps: 3, expectVideo: true }), 1, 'video expected, none arriving');
  });

  it('sends less as the call grows and on a weak uplink', () => {
    assert.ok(sendProfile(3, false)!.maxBitrate < sendProfile(2, false)!.maxBitrate);
    assert.ok(sendProfile(3, true)!.maxBitrate < sendProfile(3, false)!.maxBitrate);
    assert.equal(weakUplink([{ availableOut: 2_000_000, lossOut: 0 }, { availableOut: 3_000_000 }]), false);
    assert.equal(weakUplink([{ availableOut: 100_000 }, { availableOut: 120_000 }]), true);
  });
});

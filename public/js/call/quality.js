// @module public/js/call/quality — how good each connection is, from
// getStats (round trip, loss, bitrate): three bars on every tile, a word to
// a person whose own uplink is weak about what helps, and what this page
// sends made lighter as the call grows or the uplink weakens.

/** Below this, video that should arrive has as good as stopped. */
const STALLED_KBPS = 15;

/**
 * 0 measuring, 1 poor, 2 fair, 3 good, from one connection's figures (rtt
 * in seconds, loss as a fraction). The network is judged by its round trip
 * and loss; the bitrate only tells a stall. A low bitrate by itself says
 * nothing about the path: a still picture, a small tile's layer or a
 * sender easing off for a larger call all send little over a perfect one
 * (three people on one machine's loopback read "fair" or "poor" before).
 */
export function classify({ rtt, loss, inKbps, expectVideo = true }) {
  if (rtt === undefined || rtt === null) return 0;
  if (rtt > 0.8 || loss > 0.1 || (expectVideo && inKbps !== undefined && inKbps < STALLED_KBPS)) return 1;
  if (rtt > 0.3 || loss > 0.03) return 2;
  return 3;
}

/** This page's uplink is weak: little room to send, or much of it lost, on most connections. */
export function weakUplink(all) {
  const judged = all.filter((s) => s.availableOut !== undefined || s.lossOut !== undefined);
  if (judged.length === 0) return false;
  const weak = judged.filter((s) => (s.availableOut !== undefined && s.availableOut < 250_000) || (s.lossOut ?? 0) > 0.08);
  return weak.length * 2 > judged.length;
}

/**
 * What the camera sends to each person: the more people (a mesh sends to
 * each one), the less; one step less again on a weak uplink. A shared
 * screen keeps its resolution (text must stay readable) and gives up frames.
 */
export function sendProfile(people, weak, screen = false) {
  if (screen) return weak ? { maxBitrate: 600_000, scaleResolutionDownBy: 1, maxFramerate: 5 } : { maxBitrate: 1_500_000, scaleResolutionDownBy: 1, maxFramerate: 15 };
  const steps = [
    { maxBitrate: 800_000, scaleResolutionDownBy: 1, maxFramerate: 24 },
    { maxBitrate: 500_000, scaleResolutionDownBy: 1.5, maxFramerate: 20 },
    { maxBitrate: 300_000, scaleResolutionDownBy: 2, maxFramerate: 15 },
    { maxBitrate: 200_000, scaleResolutionDownBy: 2.5, maxFramerate: 12 },
    { maxBitrate: 120_000, scaleResolutionDownBy: 4, maxFramerate: 8 },
  ];
  let step = people <= 2 ? 0 : people <= 4 ? 1 : people <= 6 ? 2 : 3;
  if (weak) step += 1;
  return steps[Math.min(step, steps.length - 1)];
}

/**
 * @module scripts/sfu-load/profile
 * With `--trace`, the observer page's JavaScript CPU profile from opening
 * the link to the first frame (Chromium's profiler over CDP), summed by
 * function: what the page itself spends a join on, beside the network and
 * the SFU. The names are the served bundle's, minified; the figure that
 * matters is the total.
 */
import type { CDPSession, Page } from 'playwright-core';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export async function startProfile(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return cdp;
}

/** The profile's `top` functions by their own time, and the page's total busy time, in one line each. */
export async function stopProfile(cdp: CDPSession, top = 5): Promise<string> {
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  await cdp.detach().catch(() => {});
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') return;
    busy += ms;
    const where = url ? `${url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + ms);
  });
  const lines = [...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, ms]) => `${ms.toFixed(0).padStart(5)} ms  ${k}`);
  return [`JavaScript busy ${busy.toFixed(0)} ms, by own time:`, ...lines].join('\n#   ');
}

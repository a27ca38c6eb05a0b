/**
 * @module scripts/sfu-load/timeline
 * With `--trace`, what the observer page's main thread did from opening
 * the link to the first frame, from a Chromium timeline trace: its busy
 * time, and the kinds of work that took it by their own time (scripts,
 * style and layout, paint), beside the network and the SFU; and, from
 * V8's sampling profiler in the same trace, the page's own functions that
 * took the most of it. One trace at a time per browser: the observers join
 * one after another.
 */
import type { Browser, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: { name?: string; beginData?: { url?: string }; data?: { cpuProfile?: CpuProfileChunk; timeDeltas?: number[] } };
}

interface CpuProfileChunk {
  nodes?: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }>;
  samples?: number[];
}

export async function startTimeline(browser: Browser, page: Page): Promise<void> {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'disabled-by-default-v8.cpu_profiler'] });
}

/** The renderer main thread of the page at `link`: its busy time and the `top` kinds of work, in a few lines. */
export async function stopTimeline(browser: Browser, link: string, top = 8): Promise<string> {
  const { traceEvents: events } = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  // The renderer that parsed a page of Foyer's during the trace (the link may redirect): tracing starts on
  // about:blank, and the pages opened before it (an observer staying in the meeting) parsed theirs earlier.
  const origin = new URL(link).origin;
  const parsed = events.find((e) => e.name === 'ParseHTML' && URL.canParse(e.args?.beginData?.url ?? '') && new URL(e.args!.beginData!.url!).origin === origin);
  if (!parsed) return 'the meeting page was not found in the trace';
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === parsed.pid && e.tid === parsed.tid);
  if (!main) return 'no main thread found in the trace';
  const slices = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  // Own time: a slice's length less the slices nested in it.
  const own = new Map<string, number>();
  const stack: { end: number; name: string }[] = [];
  let busy = 0;
  for (const s of slices) {
    while (stack.length && stack.at(-1)!.end <= s.ts) stack.pop();
    const end = s.ts + s.dur!;
    const parent = stack.at(-1);
    if (parent) own.set(parent.name, (own.get(parent.name) ?? 0) - Math.min(s.dur!, parent.end - s.ts));
    else busy += s.dur!;
    own.set(s.name, (own.get(s.name) ?? 0) + s.dur!);
    stack.push({ end, name: s.name });
  }
  const lines = [...own].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, us]) => `${(us / 1000).toFixed(0).padStart(5)} ms  ${name}`);
  const functions = sampledFunctions(events, main, origin, top);
  return [`main thread busy ${(busy / 1000).toFixed(0)} ms, by own time:`, ...lines, ...functions].join('\n#   ');
}

/**
 * The page's own JavaScript functions (those of `origin`) by the time V8's sampling profiler found them running on
 * the main thread, their callees excluded. Native work (WebRTC, media elements, layout) is not sampled here.
 */
function sampledFunctions(events: TraceEvent[], main: TraceEvent, origin: string, top: number): string[] {
  const profile = events.find((e) => e.name === 'Profile' && e.pid === main.pid && e.tid === main.tid);
  if (!profile) return ['no JavaScript profile in the trace'];
  const frames = new Map<number, string>();
  const own = new Map<string, number>();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || e.pid !== main.pid || e.id !== profile.id) continue;
    const chunk = e.args?.data?.cpuProfile;
    for (const node of chunk?.nodes ?? []) {
      const { functionName, url, lineNumber, columnNumber } = node.callFrame;
      // Line and column: the minified bundle is one line.
      if (URL.canParse(url) && new URL(url).origin === origin) frames.set(node.id, `${functionName || '(anonymous)'} ${new URL(url).pathname}:${lineNumber + 1}:${columnNumber + 1}`);
    }
    const deltas = e.args?.data?.timeDeltas ?? [];
    (chunk?.samples ?? []).forEach((id, i) => {
      const frame = frames.get(id);
      if (frame) own.set(frame, (own.get(frame) ?? 0) + (deltas[i] ?? 0));
    });
  }
  const total = [...own.values()].reduce((a, b) => a + b, 0);
  const lines = [...own].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, us]) => `${(us / 1000).toFixed(0).padStart(5)} ms  ${name}`);
  return [`Foyer's own functions sampled ${(total / 1000).toFixed(0)} ms, by own time:`, ...lines];
}

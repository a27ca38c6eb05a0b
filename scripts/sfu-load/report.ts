/**
 * @module scripts/sfu-load/report
 * The benchmark's printed table, its ratios against the goals, and JSON.
 */
import { summary } from '../first-frame.ts';
import type { Window } from './measure.ts';

export interface SizeResult {
  size: number;
  load: number;
  observers: number;
  window?: Window;
  /** Each observer's time from opening the link to its first remote frame, or why there was none. */
  firstFrames: ({ ok: true; ms: number } | { ok: false; why: string })[];
  /** With `--joins N`: N more observers opening the link one after another (each leaves before the next): their times. */
  joins?: ({ ok: true; ms: number; /** The generator's event loop at its latest during the join. */ generatorLateMs?: number } | { ok: false; why: string })[];
  problem?: string;
}

const f = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));

export function table(results: SizeResult[]): string {
  const head = ['size', 'load+obs', 'foyer %cpu', 'janus %cpu', 'f+j %cpu', 'foyer MiB', 'janus MiB', 'machine %', 'gen %cpu', 'gen lag ms', 'udp drop %', 'up kbit/s', 'down kbit/s', 'first frame ms', 'obs fps (videos, carried)'];
  const rows = results.map((r) => {
    const w = r.window;
    const frames = r.firstFrames.map((x) => (x.ok ? f(x.ms) : 'FAILED')).join(',') || '-';
    const fps = w ? w.observerFps.map((x, i) => `${f(x, 1)} (${w.observerVideos[i]}, ${w.observerCarried[i]})`).join(',') || '-' : '-';
    return [String(r.size), `${r.load}+${r.observers}`, f(w?.foyerCpu), f(w?.janusCpu), f(w ? w.foyerCpu + w.janusCpu : undefined), f(w?.foyerRssMiB), f(w?.janusRssMiB), f(w?.machineCpu), f(w?.generatorCpu), f(w?.generatorLagMs), f(w?.udpDropped, 1), f(w?.uploadKbps), f(w?.downloadKbps), frames, fps];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  const legend =
    '%cpu: of one core over the window; machine %: of all cores together (everything running, other users included); gen: this process (load participants), its CPU and event-loop delay (p99: how late it may answer a key frame request); udp drop: datagrams the kernel dropped for full receive buffers, machine-wide (high: the generator could not keep up, down figures too low); ' +
    'MiB: resident memory at the end; up/down: median per load participant (DTLS bytes: SRTP and SRTCP, without UDP/IP headers); first frame: each observer, from opening the link; obs fps: per remote video decoded (videos: how many grew; carried: how many others the subscription carries at the end).';
  return [line(head), ...rows.map(line), legend].join('\n');
}

export function ratios(results: SizeResult[]): string[] {
  const out: string[] = [];
  const measured = results.filter((r) => r.window && r.size >= 3);
  const smallest = measured[0];
  const largest = measured.at(-1);
  if (smallest && largest && smallest !== largest) {
    const ratio = largest.window!.uploadKbps / smallest.window!.uploadKbps;
    out.push(`upload per participant at ${largest.size} / at ${smallest.size}: ${ratio.toFixed(2)} (goal: flat, about 1.00)`);
  }
  const at25 = results.find((r) => r.size === 25)?.window;
  if (at25) out.push(`25-person meeting, Foyer + Janus: ${(at25.foyerCpu + at25.janusCpu).toFixed(0)} % of one core (goal < 100 %)`);
  const all = results.flatMap((r) => r.firstFrames);
  const times = all.filter((x): x is { ok: true; ms: number } => x.ok).map((x) => x.ms);
  const failed = all.length - times.length;
  if (all.length) out.push(`join to first frame: max ${times.length ? Math.max(...times).toFixed(0) : '-'} ms over ${times.length}${failed ? `, ${failed} FAILED` : ''} (goal < 1000 ms at every size)`);
  for (const r of results) {
    if (!r.joins?.length) continue;
    const ok = r.joins.filter((x): x is { ok: true; ms: number } => x.ok).map((x) => x.ms);
    out.push(summary(`joins one after another into the meeting of ${r.size}, to first frame`, ok, r.joins.length - ok.length, 1000));
  }
  return out;
}

/**
 * @module scripts/sfu-load/proc
 * CPU and memory of a process from /proc: utime + stime (clock ticks,
 * 100 a second on Linux) at the start and the end of a window give its CPU
 * as a percentage of one core; VmRSS its resident memory.
 */
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

export interface CpuMark {
  pid: number;
  ticks: number;
  at: number;
}

/** utime + stime of `pid`, or undefined when it is gone. */
export function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces), from field 3 on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

export function mark(pid: number): CpuMark {
  return { pid, ticks: cpuTicks(pid) ?? NaN, at: performance.now() };
}

/** CPU of the mark's process since the mark, in % of one core (NaN when it died). */
export function cpuSince(start: CpuMark): number {
  const ticks = cpuTicks(start.pid);
  if (ticks === undefined) return NaN;
  const seconds = (performance.now() - start.at) / 1000;
  return ((ticks - start.ticks) / TICKS_PER_SECOND / seconds) * 100;
}

/** Resident memory in MiB (NaN when the process is gone). */
export function rssMiB(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The whole machine's CPU use over a window, in % of all cores together, from /proc/stat. */
export function machineMark(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const idle = line[3]! + (line[4] ?? 0);
  const total = line.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

export function machineBusySince(start: { busy: number; total: number }): number {
  const now = machineMark();
  return ((now.busy - start.busy) / Math.max(1, now.total - start.total)) * 100;
}

/**
 * @module scripts/sfu-load/measure
 * One measuring window over running meetings: CPU (% of one core) and
 * resident memory of Foyer and of its Janus, the whole machine's CPU, the
 * load participants' upload and download (kbit/s each), and the
 * observers' decoded frame rate.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Foyer } from './foyer.ts';
import { loadBytes, type Meeting } from './meeting.ts';
import { framesDecoded, frameRate, mediaPath } from './observer.ts';
import { cpuSince, machineBusySince, machineMark, mark, rssMiB } from './proc.ts';
import { droppedSince, udpCounters } from './udp.ts';

export interface Window {
  seconds: number;
  foyerCpu: number;
  janusCpu: number;
  foyerRssMiB: number;
  janusRssMiB: number;
  /** The whole machine, % of all its cores (load generator and browsers included). */
  machineCpu: number;
  /** This process: the load participants (werift) and the script. */
  generatorCpu: number;
  /**
   * This process's event-loop delay over the window, p99 in ms: how late the load participants may answer Janus
   * (a key frame request for a newcomer among them). High: the generator, not Foyer or Janus, is what a join waits for.
   */
  generatorLagMs: number;
  /** Of the UDP datagrams that reached the machine's sockets in the window, the % the kernel dropped (full receive buffers). */
  udpDropped: number;
  /** Per load participant, kbit/s: median of upload and of download. */
  uploadKbps: number;
  downloadKbps: number;
  /** Load participants that sent or received nothing in the window. */
  silentParticipants: number;
  /** Observers: frames a second per remote video, and remote videos decoding. */
  observerFps: number[];
  observerVideos: number[];
  /** How many others each observer's subscription carries at the end (everyone but itself, when all is well). */
  observerCarried: number[];
}

function median(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export async function measure(foyer: Foyer, meetings: Meeting[], seconds: number): Promise<Window> {
  const janusPid = foyer.janusPid();
  const observers = meetings.flatMap((m) => m.observers);
  const framesBefore = await Promise.all(observers.map(framesDecoded));
  const bytesBefore = meetings.flatMap(loadBytes);
  const start = performance.now();
  const foyerMark = mark(foyer.pid);
  const janusMark = janusPid ? mark(janusPid) : undefined;
  const machine = machineMark();
  const own = process.cpuUsage();
  const udp = udpCounters();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const foyerCpu = cpuSince(foyerMark);
  const janusCpu = janusMark ? cpuSince(janusMark) : NaN;
  const machineCpu = machineBusySince(machine);
  const elapsed = (performance.now() - start) / 1000;
  const ownUsed = process.cpuUsage(own);
  const udpDropped = droppedSince(udp);
  lag.disable();
  const bytesAfter = meetings.flatMap(loadBytes);
  const framesAfter = await Promise.all(observers.map(framesDecoded));
  const up = bytesAfter.map((b, i) => ((b.sent - bytesBefore[i]!.sent) * 8) / 1000 / elapsed);
  const down = bytesAfter.map((b, i) => ((b.received - bytesBefore[i]!.received) * 8) / 1000 / elapsed);
  const rates = observers.map((_, i) => frameRate(framesBefore[i]!, framesAfter[i]!, elapsed));
  const paths = (await Promise.all(observers.map(mediaPath))) as Array<{ sfu?: { carried?: string[] } } | null>;
  return {
    seconds: elapsed,
    foyerCpu,
    janusCpu,
    foyerRssMiB: rssMiB(foyer.pid),
    janusRssMiB: janusPid ? rssMiB(janusPid) : NaN,
    machineCpu,
    udpDropped,
    // The monitor's samples include its own resolution: an idle loop reads about 10 ms.
    generatorLagMs: Math.max(0, lag.percentile(99) / 1e6 - 10),
    generatorCpu: ((ownUsed.user + ownUsed.system) / 1e6 / elapsed) * 100,
    uploadKbps: median(up),
    downloadKbps: median(down),
    silentParticipants: up.filter((u, i) => u < 1 || down[i]! < 1).length,
    observerFps: rates.map((r) => r.fps),
    observerVideos: rates.map((r) => r.videos),
    observerCarried: paths.map((p) => p?.sfu?.carried?.length ?? 0),
  };
}

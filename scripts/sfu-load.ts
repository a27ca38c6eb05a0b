/**
 * @module scripts/sfu-load
 * Benchmark (not a test) of meetings through the SFU: the real Foyer
 * server (`bin/foyer-server.js`) as a child process with its own Janus
 * (JANUS_BIN), load participants without a browser (werift, in this
 * process) that publish a pre-encoded VP8 + Opus stream (recorded once at
 * the start from one headless Chromium page and replayed in a loop), and
 * one or two Chromium observers per meeting (the real meeting page).
 *
 * For each meeting size: Foyer's and Janus's CPU (% of one core, from
 * /proc utime+stime over the window) and resident memory; upload and
 * download per load participant (their DTLS transports' bytes); the
 * observers' time from opening the link to the first remote frame (a
 * failed join is printed as FAILED, never as a time) and decoded frame
 * rate. With `--meetings-of-8 N`: 8-person meetings added to one Foyer
 * one by one (one observer, in the first) until N, or until the observer
 * decodes below `--min-fps`, or Foyer + Janus take more than the
 * machine's cores; the number that held is printed.
 *
 * Each size runs on a fresh Foyer (and Janus). SFU_FROM_PARTICIPANTS is 2
 * here (`--sfu-from`), so that the meeting of 2 goes through Janus as
 * well: load participants speak only the SFU's side of the signalling.
 * Load participants count what they receive without decrypting it
 * (`--decrypt` processes it as werift does, with NACKs and receiver
 * reports, at a CPU cost that grows with the square of the size). The
 * load generator runs on the same machine (its own CPU is printed): run
 * under `nice -n 19` on a shared machine, and read the capacity figure
 * with that in mind.
 *
 * `--joins N`: after the measured window, N more observers open the link
 * one after another, each gone before the next, and the median of their
 * times to the first remote frame is printed: two observers are two
 * samples of a figure that varies by a few hundred ms from join to join.
 *
 * `--talkers N`: only the first N load participants of each meeting talk;
 * the others' microphones are muted, sent as a browser sends a muted one
 * with the Opus DTX that Foyer's rooms ask for (5 packets a second, as
 * measured in Chromium).
 * The default, every one of them talking at once, is the worst case; a
 * meeting of 50 where two or three talk is the usual one. The observers'
 * fake microphones always send (a tone).
 *
 * `--nice-load N` runs the load participants at niceness N (Foyer, Janus
 * and the browser stay at 0): on one machine, the nearest thing to load
 * from another machine; it needs root (to start each Foyer at 0 again).
 *
 * With `--origin URL --pid PID` it measures a Foyer already running there
 * instead (`npm start` on a fresh checkout, say; PID is the node process
 * running bin/foyer-server.js, whose child is its Janus), with an organization's
 * API key from FOYER_API_KEY and FOYER_API_SECRET; it must allow the load
 * participants' sockets from one address (WS_CONNECTIONS_PER_ADDRESS, 100
 * by default), and `--slots` should match its SFU_VIDEO_SLOTS.
 *
 *   node --import tsx scripts/sfu-load.ts [--sizes 2,8,25,50] [--seconds 20] [--observers 1] [--meetings-of-8 0] [--min-fps 5] [--slots 9] [--load-watches 9] [--decrypt] [--sfu-from 2] [--talkers N] [--joins N] [--trace] [--nice-load N] [--json FILE] [--origin URL --pid PID]
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, setPriority } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Browser } from 'playwright-core';
import { findOnPath } from '../src/config-sfu.ts';
import { launch } from '../test/browser/support.ts';
import { cameraFpsFor } from '../test/sfu/meeting-pages.ts';
import { attachFoyer, startFoyer, type Foyer } from './sfu-load/foyer.ts';
import { measure, type Window } from './sfu-load/measure.ts';
import { close as closeObserver, observe } from './sfu-load/observer.ts';
import { endMeeting, startMeeting, type Meeting } from './sfu-load/meeting.ts';
import { record, type Recording } from './sfu-load/recording.ts';
import { ratios, table, type SizeResult } from './sfu-load/report.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback;
};
const sizes = option('sizes', '2,8,25,50').split(',').map(Number);
const seconds = Number(option('seconds', '20'));
const observersPer = Number(option('observers', '1'));
const meetingsOf8 = Number(option('meetings-of-8', '0'));
const minFps = Number(option('min-fps', '5'));
const slots = Number(option('slots', '9'));
/**
 * `--load-watches N`: each load participant asks for N videos, not `slots` (the observers always get the slots).
 * The generator receives what it asks for: at 25 and 50 with every load participant watching nine, its
 * receiving alone saturates a two-core machine, and the kernel drops datagrams before anyone reads them.
 * Fewer watched is the nearest thing to receivers on other machines; Foyer and Janus still forward to each.
 */
const loadWatches = Number(option('load-watches', String(slots)));
if (!(Number.isInteger(loadWatches) && loadWatches >= 0 && loadWatches <= slots)) throw new Error(`--load-watches takes a whole number of videos from 0 to --slots (${slots})`);
// A Foyer of the user's (`--origin`) moves meetings to the SFU from its own SFU_FROM_PARTICIPANTS: 3 unless they set it.
const sfuFrom = Number(option('sfu-from', args.includes('--origin') ? '3' : '2'));
const decrypt = args.includes('--decrypt');
const trace = args.includes('--trace');
const niceLoad = Number(option('nice-load', '0'));
const joins = Number(option('joins', '0'));
if (!(Number.isInteger(joins) && joins >= 0)) throw new Error('--joins takes a whole number of joins (0 or more)');
const talkers = args.includes('--talkers') ? Number(option('talkers', 'none')) : undefined;
if (talkers !== undefined && !(Number.isInteger(talkers) && talkers >= 0)) throw new Error('--talkers takes a whole number of load participants (0 or more)');
const jsonFile = args.includes('--json') ? option('json', '') : '';
const attachTo = option('origin', '');
const janusBin = process.env.JANUS_BIN ?? findOnPath('janus', process.env.PATH);
if (!janusBin && !attachTo) throw new Error('no janus on the PATH (apt-get install janus) and JANUS_BIN unset');
const TIMEOUT = 30_000;

let foyer: Foyer | undefined;
let browser: Browser | undefined;
const meetings: Meeting[] = [];
/**
 * `--nice-load N`: this process's main thread, where the load participants run, at niceness N while it measures, so
 * that Foyer, Janus and the observers' browser (started at 0) come first, as if the load ran on another machine.
 * Foyer is started at 0 (children inherit the niceness of the thread that starts them; going back to 0 needs root).
 */
function loadNiceness(n: number): void {
  if (!niceLoad) return;
  try {
    setPriority(n);
  } catch (error) {
    throw new Error(`--nice-load: cannot set this process's niceness to ${n} (${(error as Error).message}; going back to 0 needs root)`);
  }
}

/** A fresh Foyer for each size; or, with `--origin`, the one running there each time. */
const startFresh = async (): Promise<Foyer> => {
  if (!attachTo) {
    loadNiceness(0);
    const started = await startFoyer({ fromParticipants: sfuFrom, videoSlots: slots, janusBin: janusBin! });
    loadNiceness(niceLoad);
    return started;
  }
  const { FOYER_API_KEY: key, FOYER_API_SECRET: secret } = process.env;
  if (!key || !secret || !Number(option('pid', ''))) throw new Error('--origin needs --pid (the Foyer process) and FOYER_API_KEY and FOYER_API_SECRET in the environment');
  return attachFoyer(attachTo, Number(option('pid', '')), key, secret);
};
async function cleanUp(): Promise<void> {
  for (const m of meetings.splice(0)) await endMeeting(m).catch(() => {});
  await foyer?.stop().catch(() => {});
  foyer = undefined;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([cleanUp(), browser?.close()]).finally(() => process.exit(130));
  });
}

async function measureSize(foyer: Foyer, size: number): Promise<SizeResult> {
  console.log(`# meeting of ${size}: joining`);
  const m = await startMeeting(foyer, browser, recording, { size, sfuFrom, decrypt, observers: observersPer, watches: loadWatches, label: `m${size}`, timeoutMs: TIMEOUT, trace, talkers });
  for (const o of m.observers) if (o.trace) console.log(`# ${o.name} join: ${o.trace} | first frame ${o.first.ok ? o.first.at.toFixed(0) : 'none'}`);
  meetings.push(m);
  const firstFrames = m.observers.map((o) => (o.first.ok ? { ok: true as const, ms: o.first.at } : { ok: false as const, why: o.first.why }));
  for (const [i, x] of firstFrames.entries()) if (!x.ok) console.log(`# ${m.observers[i]!.name} FAILED: ${x.why}`);
  if (m.loadProblem) console.log(`# ${m.loadProblem}`);
  const window = await measure(foyer, [m], seconds);
  console.log(`# meeting of ${size}: measured ${window.seconds.toFixed(1)} s, ${window.silentParticipants} silent load participants`);
  // After the window: a joining observer costs the machine as much as one that stays, while it joins.
  const joined: NonNullable<SizeResult['joins']> = [];
  for (let i = 0; i < joins && browser; i++) {
    const gone = m.load.filter((p) => p.closed).length;
    if (gone) console.log(`# before m${size}-J${i + 1}: ${gone} of ${m.load.length} load participants' sockets closed (codes ${[...new Set(m.load.map((p) => p.closeCode).filter(Boolean))].join(', ')}; ${m.load.find((p) => p.closed)?.errors.join('; ')})`);
    // How late the load participants may have been to answer (Janus's key frame requests above all) while it joined.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const o = await observe(browser, m.link, `m${size}-J${i + 1}`, TIMEOUT, trace).catch((error: Error) => error);
    lag.disable();
    const lateMs = Math.max(0, Math.round(lag.max / 1e6 - 10));
    if (o instanceof Error) {
      joined.push({ ok: false, why: o.message });
      console.log(`# m${size}-J${i + 1} FAILED: ${o.message}`);
      continue;
    }
    joined.push(o.first.ok ? { ok: true, ms: o.first.at, generatorLateMs: lateMs } : { ok: false, why: o.first.why });
    if (!o.first.ok) console.log(`# ${o.name} FAILED: ${o.first.why}`);
    else console.log(`# ${o.name}: first frame after ${o.first.at.toFixed(0)} ms; the load generator's event loop late by up to ${lateMs} ms meanwhile`);
    if (o.trace) console.log(`# ${o.name} join: ${o.trace} | first frame ${o.first.ok ? o.first.at.toFixed(0) : 'none'}`);
    // Gone as a person leaves (the page's socket closes with 1001), not dropped: a dropped participant stays for the
    // resume grace, their SFU link too, and ten of them would make the meeting larger with every join.
    await o.page.goto('about:blank').catch(() => {});
    await closeObserver(o);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  return { size, load: m.load.length, observers: m.observers.length, window, firstFrames, ...(joins ? { joins: joined } : {}), ...(m.loadProblem ? { problem: m.loadProblem } : {}) };
}

/** 8-person meetings added to one Foyer until `meetingsOf8`, the observer's frame rate, or the cores give out. */
async function capacityRun(): Promise<void> {
  await cleanUp();
  foyer = await startFresh();
  const cores = cpus().length;
  for (let n = 1; n <= meetingsOf8; n++) {
    const m = await startMeeting(foyer, browser, recording, { size: 8, sfuFrom, decrypt, observers: n === 1 ? 1 : 0, watches: loadWatches, label: `c${n}`, timeoutMs: TIMEOUT, talkers });
    meetings.push(m);
    if (m.loadProblem || m.observers.some((o) => !o.first.ok)) {
      stopReason = `meeting ${n} did not connect: ${m.loadProblem ?? m.observers.map((o) => (o.first.ok ? '' : o.first.why)).join(' ')}`;
      break;
    }
    const window = await measure(foyer, meetings, Math.min(seconds, 10));
    capacity.push({ meetings: n, window });
    const fps = window.observerFps[0] ?? NaN;
    console.log(`# ${n} meetings of 8: Foyer ${window.foyerCpu.toFixed(0)} %, Janus ${window.janusCpu.toFixed(0)} % (${window.janusRssMiB.toFixed(0)} MiB), machine ${window.machineCpu.toFixed(0)} %, observer ${fps.toFixed(1)} fps, down ${window.downloadKbps.toFixed(0)} kbit/s, udp dropped ${window.udpDropped.toFixed(1)} %`);
    if (fps < minFps) {
      stopReason = `observer at ${fps.toFixed(1)} fps (< ${minFps}) with ${n}`;
      break;
    }
    if (window.foyerCpu + window.janusCpu > cores * 100 * 0.9) {
      stopReason = `Foyer + Janus at ${(window.foyerCpu + window.janusCpu).toFixed(0)} % with ${n} (cores: ${cores})`;
      break;
    }
    held = n;
  }
  stopReason ||= `reached --meetings-of-8 ${meetingsOf8}`;
}

const results: SizeResult[] = [];
const capacity: { meetings: number; window: Window }[] = [];
let held: number | undefined;
let stopReason = '';
let recording!: Recording;
try {
  browser = await launch({ cameraFps: cameraFpsFor() });
  foyer = await startFresh();
  recording = await record(browser, foyer.origin, { seconds: 6, width: 640, height: 480, fps: 15, videoBitrate: 500_000 });
  const v = recording.video;
  console.log(`# recorded ${recording.width}x${recording.height} VP8 ${v.frames.length} frames in ${(v.loopMs / 1000).toFixed(1)} s (${(v.payloadBitsPerSecond / 1000).toFixed(0)} kbit/s payload, ${v.frames.filter((x) => x.keyframe).length} key frames), Opus ${(recording.audio.payloadBitsPerSecond / 1000).toFixed(0)} kbit/s`);
  for (const size of sizes) {
    try {
      await cleanUp();
      foyer = await startFresh();
      results.push(await measureSize(foyer, size));
    } catch (error) {
      console.log(`# meeting of ${size} FAILED: ${(error as Error).stack}`);
      results.push({ size, load: 0, observers: 0, firstFrames: [], problem: (error as Error).message });
    }
  }
  if (meetingsOf8 > 0) await capacityRun().catch((error: Error) => {
    stopReason = `FAILED: ${error.message}`;
    console.log(`# meetings of 8 FAILED: ${error.stack}`);
  });
} finally {
  await cleanUp();
  await browser?.close().catch(() => {});
}

console.log('');
console.log(table(results));
for (const line of ratios(results)) console.log(line);
if (meetingsOf8 > 0) {
  const last = capacity.at(-1)?.window;
  const perMeeting = last ? (last.foyerCpu + last.janusCpu) / capacity.at(-1)!.meetings : NaN;
  console.log(`meetings of 8 held: ${held ?? 0} (stopped: ${stopReason}); Foyer + Janus ${perMeeting.toFixed(0)} % of one core per meeting, so ${((cpus().length * 100) / perMeeting).toFixed(1)} would fill the ${cpus().length} cores without the load generator`);
}
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}, ${cpus().length} cores`);
const json = { settings: { sizes, seconds, observers: observersPer, slots, loadWatches, talkers: talkers ?? 'all', sfuFrom, decrypt, niceLoad, joins }, sizes: results, capacity: meetingsOf8 > 0 ? { held: held ?? 0, stopReason, windows: capacity } : undefined, recording: { width: recording?.width, height: recording?.height, videoKbps: recording?.video.payloadBitsPerSecond / 1000, audioKbps: recording?.audio.payloadBitsPerSecond / 1000 }, loadavg: loadavg() };
console.log(JSON.stringify(json));
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(json, null, 2));
// werift's timers and sockets would keep the process alive.
process.exit(results.some((r) => r.problem || [...r.firstFrames, ...(r.joins ?? [])].some((x) => !x.ok)) ? 1 : 0);

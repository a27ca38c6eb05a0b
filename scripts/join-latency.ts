/**
 * @module scripts/join-latency
 * How long a person waits for the other side's video: from opening the
 * meeting link (navigation start) to the first remote video frame painted
 * in the page (requestVideoFrameCallback). Two shapes:
 *
 * - `waiting`: one person is already in the call, the other opens the link
 *   (the figure is the newcomer's);
 * - `together`: two people open the link at the same moment (each one's
 *   figure counts).
 *
 * The link is a short link whose stored parameters skip the pre-join
 * screen, so no human step is counted. Each checkout runs as its own
 * Foyer process (`src/main.ts`, as `npm start` runs it) on a fresh SQLite
 * file, with an organization and key made by its own CLI; both are driven
 * by one headless Chromium with fake devices, on loopback.
 *
 * With `--against DIR` (a second checkout, e.g. `git worktree add
 * /tmp/old <commit>`), the two versions run side by side, alternating
 * join by join (the order swapped each round), so a regression shows as a
 * ratio measured under the same load. DIR needs its dependencies
 * (`npm ci`); without node_modules it borrows this checkout's. `--this DIR`
 * measures another checkout in place of this one (to bisect a regression
 * between two older commits).
 *
 * A join whose page reports its connection failed (no media within the
 * page's bound), or that shows no frame within 30 s, is printed as FAILED
 * and never counted as a time; the script then exits with 1.
 *
 * `--relay` starts coturn on loopback (test/support/coturn.ts) and has
 * every version send all calls through it (ICE_TRANSPORT_POLICY=relay);
 * `--wrong-turn-secret` gives Foyer a secret coturn refuses, to see failed
 * joins reported as failures.
 *
 *   node --import tsx scripts/join-latency.ts [--runs 9] [--shapes waiting,together] [--against DIR] [--this DIR] [--relay [--wrong-turn-secret]]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/browser/support.ts';
import { firstFrame, median, relayOption, type FirstFrame } from './first-frame.ts';
import { freePort } from '../test/support/processes.ts';

type Shape = 'waiting' | 'together';

const args = process.argv.slice(2);
const option = (name: string, fallback?: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const runs = Number(option('runs', '9'));
const shapes = option('shapes', 'waiting,together')!.split(',') as Shape[];
const against = option('against');
const HERE = fileURLToPath(new URL('..', import.meta.url));
const relay = await relayOption(args);

interface Version {
  label: string;
  dir: string;
  origin: string;
  process: ChildProcess;
  headers: Record<string, string>;
  /** The one already in the call, for the `waiting` shape. */
  host?: Page;
  hostLink?: string;
  figures: Record<Shape, number[]>;
  failures: Record<Shape, number>;
}

function cli(dir: string, env: NodeJS.ProcessEnv, ...cmd: string[]): Record<string, string> {
  const run = spawnSync(process.execPath, ['bin/foyer.js', '--json', ...cmd], { cwd: dir, env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`foyer ${cmd.join(' ')} in ${dir}: ${run.stderr || run.stdout}`);
  return JSON.parse(run.stdout);
}

async function start(label: string, dir: string, scratch: string): Promise<Version> {
  if (!existsSync(join(dir, 'node_modules'))) {
    console.log(`# ${dir} has no node_modules: linking this checkout's`);
    symlinkSync(join(HERE, 'node_modules'), join(dir, 'node_modules'), 'dir');
  }
  const port = await freePort();
  const env = { ...process.env, ...relay.env, DATABASE_URL: `sqlite:${join(scratch, `${label}.db`)}`, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', API_PREFIX: '/api' };
  cli(dir, env, 'migrate');
  const org = cli(dir, env, 'org', 'create', '--name', `Latency ${label}`, '--type', 'basic');
  const key = cli(dir, env, 'key', 'create', '--org', org.slug!);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${label}: Foyer exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`${label}: Foyer did not start within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { label, dir, origin, process: child, headers: { API_KEY: key.apiKey!, API_SECRET: key.apiSecret!, 'content-type': 'application/json' }, figures: { waiting: [], together: [] }, failures: { waiting: 0, together: 0 } };
}

/** A new meeting's short link, whose stored parameters skip the pre-join screen. */
async function newLink(v: Version): Promise<string> {
  const res = await fetch(`${v.origin}/api/v3/meeting`, { method: 'POST', headers: v.headers, body: JSON.stringify({ isInfinite: true, queryParameters: { skipPrejoin: true } }) });
  const body = (await res.json()) as { redirectUrl?: string };
  if (res.status !== 201 || !body.redirectUrl) throw new Error(`${v.label}: POST /v3/meeting answered ${res.status} ${JSON.stringify(body)}`);
  const url = new URL(body.redirectUrl);
  return `${v.origin}${url.pathname}${url.search}`;
}

async function open(browser: Browser, link: string, name: string): Promise<Page> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await page.goto(`${link}${link.includes('?') ? '&' : '?'}displayName=${name}`);
  return page;
}

async function measure(browser: Browser, v: Version, shape: Shape, i: number): Promise<FirstFrame[]> {
  if (shape === 'waiting') {
    if (!v.host) {
      v.hostLink = await newLink(v);
      v.host = await open(browser, v.hostLink, 'Host');
      await v.host.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: 30_000 });
    }
    const guest = await open(browser, v.hostLink!, `Guest${i}`);
    const ms = await firstFrame(guest);
    await guest.context().close();
    // The host notices the departure before the next guest arrives.
    await v.host.waitForFunction(() => (window as any).foyer.participants().length === 1, undefined, { timeout: 15_000 });
    return [ms];
  }
  const link = await newLink(v);
  const pages = await Promise.all([open(browser, link, `Ann${i}`), open(browser, link, `Bob${i}`)]);
  const ms = await Promise.all(pages.map((p) => firstFrame(p)));
  for (const p of pages) await p.context().close();
  return ms;
}

const scratch = mkdtempSync(join(tmpdir(), 'foyer-join-latency-'));
const versions: Version[] = [];
let browser: Browser | undefined;
try {
  versions.push(await start('this', resolve(option('this', HERE)!), scratch));
  if (against) versions.push(await start('against', resolve(against), scratch));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  console.log(`# calls ${relay.label}`);
  for (const shape of shapes) {
    // One unmeasured warm-up per version: the first page load compiles the server's routes and fills caches.
    for (const v of versions) await measure(browser, v, shape, 0);
    for (let i = 1; i <= runs; i++) {
      const order = i % 2 ? versions : [...versions].reverse();
      for (const v of order) {
        const joins = await measure(browser, v, shape, i);
        for (const join of joins) {
          if (join.ok) v.figures[shape].push(join.at);
          else v.failures[shape] += 1;
        }
        console.log(`${shape} ${i} ${v.label}: ${joins.map((j) => (j.ok ? `${j.at.toFixed(0)} ms` : `FAILED (${j.why})`)).join(', ')}`);
      }
    }
    // The people who waited leave before the next shape: their pages (camera on) would load the machine it is measured on.
    for (const v of versions) {
      await v.host?.context().close();
      v.host = undefined;
    }
  }
  console.log('');
  for (const shape of shapes) {
    for (const v of versions) {
      const f = v.figures[shape];
      const failed = v.failures[shape] ? `; ${v.failures[shape]} of ${f.length + v.failures[shape]} FAILED (no video)` : '';
      const times = f.length ? `median ${median(f).toFixed(0)} ms over ${f.length} (min ${Math.min(...f).toFixed(0)}, max ${Math.max(...f).toFixed(0)})` : 'no successful join';
      console.log(`${shape.padEnd(8)} ${v.label.padEnd(8)} ${times}${failed}  ${v.dir}`);
    }
    if (versions.length === 2 && versions.every((v) => v.figures[shape].length)) {
      console.log(`${shape.padEnd(8)} ratio    this/against ${(median(versions[0]!.figures[shape]) / median(versions[1]!.figures[shape])).toFixed(2)}`);
    }
  }
  console.log('goal: median < 700 ms on an idle machine, and no slower than the previous release');
} finally {
  await browser?.close();
  for (const v of versions) v.process.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
  await relay.turn?.stop();
}
if (versions.some((v) => shapes.some((shape) => v.failures[shape] > 0))) process.exitCode = 1;

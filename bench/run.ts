/**
 * @module bench/run
 * `npm run bench`: Foyer on SQLite, Foyer on PostgreSQL + Redis, and a bare
 * node:http server, measured in one run on this machine. Each server runs
 * pinned to one core and autocannon (a separate process) to another, so
 * the load generator does not steal the server's CPU.
 *
 * Prints requests/s, p50, p99 and the ratio to the bare server for
 * authenticated GET /api/v3/meeting/:id (with 100 and with 1,000,000
 * meetings stored), POST /api/v3/meeting and GET /api/v3/organizations
 * (also while a flood of made-up keys comes from the same address, and the
 * flood itself: all but AUTH_FAILURES_PER_MINUTE of it refused with 429);
 * peak RSS per server; and a memory soak (RSS sampled every second under
 * load). Writes everything to bench/results.json.
 *
 * A minimal Fastify app with the same constant body is measured too: the
 * framework's own floor, which bounds what any Fastify service can reach.
 *
 * Knobs (environment): BENCH_DURATION seconds per measurement (10),
 * BENCH_SOAK_SECONDS (60), BENCH_CONNECTIONS (50), BENCH_MEETINGS
 * (1000000), BENCH_TARGETS (comma list of bare,fastify,sqlite,postgres),
 * BENCH_WARMUP seconds of unmeasured load before each measurement (2),
 * BENCH_CPU_PROF=1 (write --cpu-prof profiles of the Foyer servers to
 * bench/profiles/). Quick run: BENCH_DURATION=3 BENCH_SOAK_SECONDS=10 BENCH_MEETINGS=100000.
 * Goals are reported, never asserted.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createContext } from '../src/context.ts';
import { operatorActor } from '../src/domain/actors.ts';
import { createApiKey } from '../src/domain/keys.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { withDefaultUser } from '../src/store/postgres.ts';
import { seedMeetings, seededMeetingId } from './seed.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const DURATION = Number(env.BENCH_DURATION ?? 10);
const SOAK_SECONDS = Number(env.BENCH_SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 50);
const BIG = Number(env.BENCH_MEETINGS ?? 1_000_000);
const SMALL = 100;
const TARGETS = (env.BENCH_TARGETS ?? 'bare,fastify,sqlite,postgres').split(',').map((s) => s.trim());
const CPU_PROF = env.BENCH_CPU_PROF === '1';
const PG_ADMIN = withDefaultUser(env.TEST_POSTGRES_URL ?? 'postgres://127.0.0.1:5432/test');
const REDIS_URL = env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PEPPER = 'bench-pepper';
const API = '/api/v3';

const pinning = cpus().length >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const SERVER_CORE = '0';
const LOAD_CORE = '1';

interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

interface Row extends Measurement {
  target: string;
  scenario: string;
  ratioToBare?: number;
  /** A load of bad requests, measured for its effect on the others: not held to the goals. */
  refusalsExpected?: boolean;
}

function pinned(core: string, args: string[]): [string, string[]] {
  return pinning ? ['taskset', ['-c', core, process.execPath, ...args]] : [process.execPath, args];
}

function freePort(): number {
  return 20_000 + Math.floor(Math.random() * 20_000);
}

async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up within ${timeoutMs} ms`);
}

function rssKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

const WARMUP = Number(env.BENCH_WARMUP ?? 2);

/** Runs the job once unmeasured (JIT, caches, pools), then measured. */
async function measure(job: Parameters<typeof load>[0]): Promise<Measurement> {
  if (WARMUP > 0) await load({ ...job, duration: WARMUP });
  return load(job);
}

async function load(job: {
  url: string;
  method: 'GET' | 'POST';
  paths: string[];
  headers: Record<string, string>;
  body?: string;
  madeUpKeys?: boolean;
  duration?: number;
}): Promise<Measurement> {
  const spec = JSON.stringify({ connections: CONNECTIONS, duration: DURATION, ...job });
  const [cmd, args] = pinned(LOAD_CORE, ['--import', 'tsx', join(ROOT, 'bench/load.ts'), spec]);
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`load generator failed (${code})`);
  return JSON.parse(out.trim().split('\n').pop()!) as Measurement;
}

interface Started {
  child: ChildProcess;
  base: string;
  samples: number[];
  sampler: NodeJS.Timeout;
}

function startServer(args: string[], extraEnv: Record<string, string>): Started {
  const [cmd, argv] = pinned(SERVER_CORE, args);
  const child = spawn(cmd, argv, {
    cwd: ROOT,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssKb(child.pid!, 'VmRSS')), 1000);
  return { child, base: '', samples, sampler };
}

/** A constant-body server: `bare` (node:http, the ceiling) or `fastify` (the framework's floor). */
async function benchConstant(name: 'bare' | 'fastify'): Promise<{ rows: Row[]; peakRssMb: number }> {
  const port = freePort();
  const file = name === 'bare' ? 'bench/bare-server.ts' : 'bench/fastify-server.ts';
  const server = startServer(['--import', 'tsx', join(ROOT, file), String(port)], {});
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(base + '/');
    const get = await measure({ url: base, method: 'GET', paths: ['/'], headers: {} });
    const post = await measure({
      url: base,
      method: 'POST',
      paths: ['/'],
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'MEETING' }),
    });
    const peak = rssKb(server.child.pid!, 'VmHWM') / 1024;
    return {
      rows: [
        { target: name, scenario: 'GET (constant JSON)', ...get },
        { target: name, scenario: 'POST (constant JSON)', ...post },
      ],
      peakRssMb: peak,
    };
  } finally {
    clearInterval(server.sampler);
    await stop(server.child);
  }
}

interface FoyerTarget {
  name: 'sqlite' | 'postgres';
  databaseUrl: string;
  extraEnv: Record<string, string>;
  dispose(): Promise<void>;
}

async function sqliteTarget(): Promise<FoyerTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'foyer-bench-'));
  return {
    name: 'sqlite',
    databaseUrl: `sqlite:${join(dir, 'foyer.db')}`,
    extraEnv: {},
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresTarget(): Promise<FoyerTarget> {
  const name = `foyer_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: PG_ADMIN });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    name: 'postgres',
    databaseUrl: url.toString(),
    extraEnv: { REDIS_URL, REDIS_KEY_PREFIX: `foyer-bench:${name}:` },
    dispose: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Organization and key through the domain (as the CLI would), plus SMALL seeded meetings. */
async function prepare(databaseUrl: string): Promise<{ orgId: string; headers: Record<string, string> }> {
  const ctx = await createContext({ databaseUrl, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: PEPPER }, { migrate: true });
  try {
    const org = await createOrganization(ctx, { name: 'Bench Clinic', type: 'basic' });
    const { key, secret } = await createApiKey(ctx, operatorActor(org), { expiresAt: null });
    return { orgId: org.id, headers: { API_KEY: key.publicKey, API_SECRET: secret } };
  } finally {
    await ctx.close();
  }
}

/** `count` ids spread evenly over meetings 1..n. */
function spreadPaths(n: number, count: number): string[] {
  const paths: string[] = [];
  const step = Math.max(1, Math.floor(n / count));
  for (let i = 1; i <= n && paths.length < count; i += step) paths.push(`${API}/meeting/${seededMeetingId(i)}`);
  return paths;
}

async function benchFoyer(target: FoyerTarget): Promise<{ rows: Row[]; peakRssMb: number; soak?: number[] }> {
  const { orgId, headers } = await prepare(target.databaseUrl);
  await seedMeetings(target.databaseUrl, orgId, 0, SMALL);
  const port = freePort();
  const profDir = join(ROOT, 'bench/profiles');
  if (CPU_PROF) mkdirSync(profDir, { recursive: true });
  const nodeArgs = [...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), '--import', 'tsx', join(ROOT, 'src/main.ts')];
  const server = startServer(nodeArgs, {
    ...target.extraEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: target.databaseUrl,
    API_SECRET_PEPPER: PEPPER,
    RATE_LIMIT_PER_MINUTE: '10000000',
    LOG_LEVEL: 'warn',
  });
  const base = `http://127.0.0.1:${port}`;
  const rows: Row[] = [];
  const t = target.name === 'sqlite' ? 'Foyer SQLite' : 'Foyer PostgreSQL+Redis';
  let soak: number[] | undefined;
  try {
    await waitFor(base + '/health');
    const json = { ...headers, 'content-type': 'application/json' };
    rows.push({ target: t, scenario: `GET meeting/:id (${SMALL} stored)`, ...(await measure({ url: base, method: 'GET', paths: spreadPaths(SMALL, SMALL), headers })) });
    rows.push({ target: t, scenario: 'POST meeting', ...(await measure({ url: base, method: 'POST', paths: [`${API}/meeting`], headers: json, body: JSON.stringify({ type: 'MEETING' }) })) });
    rows.push({ target: t, scenario: 'GET organizations', ...(await measure({ url: base, method: 'GET', paths: [`${API}/organizations`], headers })) });
    // Both from 127.0.0.1: valid credentials must not be refused for the flood's failures, nor slowed much by it.
    const flood = load({ url: base, method: 'GET', paths: [`${API}/organizations`], headers: { API_SECRET: 'fs_wrong' }, madeUpKeys: true, duration: WARMUP + DURATION });
    const amid = await measure({ url: base, method: 'GET', paths: [`${API}/organizations`], headers });
    rows.push({ target: t, scenario: 'GET organizations amid a bad-key flood', ...amid });
    rows.push({ target: t, scenario: 'the bad-key flood (429 expected)', ...(await flood), refusalsExpected: true });
    const started = Date.now();
    await seedMeetings(target.databaseUrl, orgId, SMALL, BIG);
    console.log(`# ${t}: seeded ${BIG.toLocaleString('en')} meetings in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    rows.push({ target: t, scenario: `GET meeting/:id (${BIG.toLocaleString('en')} stored)`, ...(await measure({ url: base, method: 'GET', paths: spreadPaths(BIG, 1000), headers })) });
    if (target.name === 'sqlite' && SOAK_SECONDS > 0) {
      const before = server.samples.length;
      const soakRow = await load({ url: base, method: 'GET', paths: spreadPaths(BIG, 1000), headers, duration: SOAK_SECONDS });
      rows.push({ target: t, scenario: `soak: GET meeting/:id for ${SOAK_SECONDS} s`, ...soakRow });
      soak = server.samples.slice(before).map((kb) => Math.round(kb / 1024));
    }
    const peak = rssKb(server.child.pid!, 'VmHWM') / 1024;
    return { rows, peakRssMb: peak, soak };
  } finally {
    clearInterval(server.sampler);
    await stop(server.child);
    await target.dispose();
  }
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

async function main(): Promise<void> {
  console.log(`# bench: ${DURATION} s per measurement, ${CONNECTIONS} connections, ${cpus().length} cores, ${pinning ? 'server on core 0, load on core 1' : 'NOT pinned (taskset or a second core missing)'}`);
  const rows: Row[] = [];
  const peaks: Record<string, number> = {};
  let soak: number[] | undefined;
  let bareGet: number | undefined;
  let barePost: number | undefined;
  if (TARGETS.includes('bare')) {
    const bare = await benchConstant('bare');
    rows.push(...bare.rows);
    peaks.bare = bare.peakRssMb;
    bareGet = bare.rows[0]!.requestsPerSecond;
    barePost = bare.rows[1]!.requestsPerSecond;
  }
  if (TARGETS.includes('fastify')) {
    const floor = await benchConstant('fastify');
    for (const row of floor.rows) {
      const ceiling = row.scenario.startsWith('POST') ? barePost : bareGet;
      if (ceiling) row.ratioToBare = row.requestsPerSecond / ceiling;
    }
    rows.push(...floor.rows);
    peaks.fastify = floor.peakRssMb;
  }
  for (const name of ['sqlite', 'postgres'] as const) {
    if (!TARGETS.includes(name)) continue;
    const target = name === 'sqlite' ? await sqliteTarget() : await postgresTarget();
    const result = await benchFoyer(target);
    for (const row of result.rows) {
      const ceiling = row.scenario.startsWith('POST') ? barePost : bareGet;
      if (ceiling && !row.refusalsExpected) row.ratioToBare = row.requestsPerSecond / ceiling;
    }
    rows.push(...result.rows);
    peaks[result.rows[0]!.target] = result.peakRssMb;
    soak ??= result.soak;
  }

  const header = ['target', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'x bare', 'non-2xx'];
  const table = rows.map((r) => [
    r.target,
    r.scenario,
    fmt(r.requestsPerSecond),
    fmt(r.p50, 1),
    fmt(r.p99, 1),
    r.ratioToBare === undefined ? '' : fmt(r.ratioToBare, 2),
    String(r.non2xx + r.errors + r.timeouts),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(line(header));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const row of table) console.log(line(row));
  console.log('peak RSS (MB): ' + Object.entries(peaks).map(([k, v]) => `${k} ${fmt(v)}`).join(', '));

  const goals: Record<string, string> = {};
  for (const r of rows.filter((r) => r.ratioToBare !== undefined && r.target.startsWith('Foyer'))) {
    const failed = r.non2xx + r.errors + r.timeouts;
    if (failed > 0) {
      // A 401 or a 429 is cheaper than the work being measured: such a row proves nothing.
      goals[`${r.target} ${r.scenario}`] = `INVALID (${fmt(failed)} answers were not 2xx)`;
      continue;
    }
    const write = r.scenario.startsWith('POST');
    const want = write ? 0.2 : 0.5;
    goals[`${r.target} ${r.scenario} >= ${want} x bare`] = r.ratioToBare! >= want ? 'met' : `MISSED (${fmt(r.ratioToBare!, 2)})`;
    goals[`${r.target} ${r.scenario} p99 < 20 ms`] = r.p99 < 20 ? 'met' : `MISSED (${fmt(r.p99, 1)} ms)`;
  }
  for (const t of new Set(rows.filter((r) => r.target.startsWith('Foyer')).map((r) => r.target))) {
    const small = rows.find((r) => r.target === t && r.scenario === `GET meeting/:id (${SMALL} stored)`);
    const big = rows.find((r) => r.target === t && r.scenario === `GET meeting/:id (${BIG.toLocaleString('en')} stored)`);
    if (small && big) {
      const ratio = big.requestsPerSecond / small.requestsPerSecond;
      goals[`${t} reads with ${BIG.toLocaleString('en')} meetings as fast as with ${SMALL} (within 10%)`] = ratio >= 0.9 ? `met (${fmt(ratio, 2)})` : `MISSED (${fmt(ratio, 2)})`;
    }
  }
  if (soak && soak.length >= 4) {
    const q = Math.max(1, Math.floor(soak.length / 4));
    const first = soak.slice(0, q).reduce((a, b) => a + b, 0) / q;
    const last = soak.slice(-q).reduce((a, b) => a + b, 0) / q;
    const growth = (last - first) / first;
    console.log(`soak RSS (MB, every second): ${soak.join(' ')}`);
    goals['flat memory over the soak (last quarter within 10% of first)'] = growth <= 0.1 ? `met (${fmt(growth * 100, 1)}%)` : `MISSED (+${fmt(growth * 100, 1)}%)`;
  }
  for (const [goal, verdict] of Object.entries(goals)) console.log(`goal: ${goal}: ${verdict}`);

  writeFileSync(
    join(ROOT, 'bench/results.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        settings: { duration: DURATION, connections: CONNECTIONS, meetings: BIG, soakSeconds: SOAK_SECONDS, pinned: pinning, cores: cpus().length, node: process.version },
        rows,
        peakRssMb: peaks,
        soakRssMb: soak,
        goals,
      },
      null,
      2,
    ) + '\n',
  );
  console.log('# wrote bench/results.json');
}

await main();

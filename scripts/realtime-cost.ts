/**
 * @module scripts/realtime-cost
 * The real-time side's cost, before and after a change, in one run on the
 * same machine (versions alternate, the order swapped each round, so both
 * see the same load):
 *
 * 1. database statements (and rows returned, and transactions opened) per
 *    join and per media change in a meeting of 2 and of 20 participants,
 *    on one SQLite instance and on several instances sharing PostgreSQL +
 *    Redis (./realtime-cost/statements.ts, counted below Kysely);
 * 2. signalling under load: PARTICIPANTS sockets joining PARTICIPANTS / 2
 *    meetings of one server process: join p50 / p99, resident memory per
 *    participant, CPU at rest (./realtime-cost/load.ts).
 *
 * `--before DIR` is the other checkout (default /tmp/before; made with
 * `git worktree add --detach /tmp/before 3aff176` when missing, the base
 * before the realtime restructure, with this checkout's node_modules
 * linked). Figures are printed, never asserted.
 *
 *   node --import tsx scripts/realtime-cost.ts [--before DIR] [--rounds 2] [--sizes 2,20]
 *     [--instances 4] [--participants 5000] [--concurrency 50] [--skip statements|load]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Counts } from './realtime-cost/counting.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const HERE = fileURLToPath(new URL('..', import.meta.url));
const BASE = '3aff176';
const beforeDir = option('before', '/tmp/before');
const rounds = Number(option('rounds', '2'));
const sizes = option('sizes', '2,20');
const instances = option('instances', '4');
const participants = option('participants', '5000');
const concurrency = option('concurrency', '50');
const skip = option('skip', '');

if (!existsSync(beforeDir)) {
  const made = spawnSync('git', ['worktree', 'add', '--detach', beforeDir, BASE], { cwd: HERE, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`git worktree add ${beforeDir} ${BASE}: ${made.stderr}`);
}
if (!existsSync(join(beforeDir, 'node_modules'))) symlinkSync(join(HERE, 'node_modules'), join(beforeDir, 'node_modules'), 'dir');

const versions = [
  { label: 'before', dir: beforeDir },
  { label: 'after', dir: HERE },
];

/** Runs a probe of this checkout against `dir` (its cwd, so its own tsconfig applies) and returns its JSON line. */
function probe(dir: string, script: string, ...rest: string[]): any {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(HERE, 'scripts/realtime-cost', script), dir, ...rest], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`${script} on ${dir} failed (${run.status}):\n${run.stderr}\n${run.stdout}`);
  return JSON.parse(line);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ratio = (after: number, before: number) => (before === 0 ? (after === 0 ? '1' : '∞') : (after / before).toFixed(2));
const fmt = (n: number, digits = 0) => n.toFixed(digits);

function orderOf(round: number) {
  return round % 2 ? [...versions].reverse() : versions;
}

if (!skip.split(',').includes('statements')) {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const collected: Record<string, Record<string, { join: Counts[]; media: Counts[]; stale: number }>> = { before: {}, after: {} };
    for (let round = 0; round < rounds; round++) {
      for (const v of orderOf(round)) {
        const out = probe(v.dir, 'statements.ts', dialect, sizes, '2', instances);
        for (const [size, figures] of Object.entries(out.result as Record<string, { join: Counts[]; media: Counts[]; stale: number }>)) {
          const into = (collected[v.label]![size] ??= { join: [], media: [], stale: 0 });
          into.join.push(...figures.join);
          into.media.push(...figures.media);
          into.stale += figures.stale;
        }
      }
    }
    const where = dialect === 'sqlite' ? 'one instance, SQLite' : `${instances} instances, PostgreSQL + Redis, participants spread over them`;
    console.log(`\nStatements (${where}); median of ${rounds * 2} runs each: statements / rows returned / transactions opened`);
    console.log('| | before | after | after ÷ before (statements) |');
    console.log('|---|---|---|---|');
    for (const size of sizes.split(',')) {
      for (const what of ['join', 'media'] as const) {
        const cell = (label: string) => {
          const runs = collected[label]![size]![what];
          return { s: median(runs.map((c) => c.statements)), r: median(runs.map((c) => c.rows)), t: median(runs.map((c) => c.transactions)) };
        };
        const b = cell('before');
        const a = cell('after');
        const name = what === 'join' ? `join, meeting of ${size}` : `media change, meeting of ${size}`;
        console.log(`| ${name} | ${b.s} / ${b.r} / ${b.t} | ${a.s} / ${a.r} / ${a.t} | ${ratio(a.s, b.s)} |`);
      }
    }
    for (const v of versions) {
      const stale = sizes.split(',').reduce((n, size) => n + collected[v.label]![size]!.stale, 0);
      if (stale > 0) console.log(`${v.label}: ${stale} time(s) some participant's list never showed the change within 15 s (counted all the same)`);
    }
  }
}

if (!skip.split(',').includes('load')) {
  const collected: Record<string, any[]> = { before: [], after: [] };
  for (let round = 0; round < rounds; round++) {
    for (const v of orderOf(round)) {
      const out = probe(v.dir, 'load.ts', participants, concurrency);
      console.log(`# ${v.label}: ${JSON.stringify(out)}`);
      collected[v.label]!.push(out);
    }
  }
  const fig = (label: string, key: string) => median(collected[label]!.map((o) => o[key] as number));
  console.log(`\nSignalling load: ${participants} participants in ${Math.ceil(Number(participants) / 2)} meetings, one instance (SQLite), ${concurrency} joins in flight; median of ${rounds} runs each`);
  console.log('| | before | after | after ÷ before |');
  console.log('|---|---|---|---|');
  const rows: Array<[string, string, number]> = [
    ['join p50 (ms)', 'joinP50', 1],
    ['join p99 (ms)', 'joinP99', 1],
    ['all joined in (s)', 'joinSeconds', 1],
    ['RSS per participant (KiB)', 'rssKiBPerParticipant', 1],
    ['RSS with everyone present (MiB)', 'fullRssMiB', 0],
    ['CPU at rest (% of a core)', 'cpuAtRestPercent', 1],
  ];
  for (const [name, key, digits] of rows) {
    const b = fig('before', key);
    const a = fig('after', key);
    console.log(`| ${name} | ${fmt(b, digits)} | ${fmt(a, digits)} | ${ratio(a, b)} |`);
  }
}

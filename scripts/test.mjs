#!/usr/bin/env node
// Runs every *.test.ts under src/ and test/ with node:test, with the type
// check (tsc) and the layering check beside them. Extra arguments narrow the
// run to tests only: `npm test -- test/api` runs only that folder.
//
// The test files are bundled first with esbuild (Foyer's code in shared
// chunks, packages left to node_modules but for a few that are many small
// files: bin/node-bundle.js) and node runs the bundles without
// tsx: a test process then starts in about half the CPU time, which over a
// hundred files is minutes of the suite. Stack traces name the bundles,
// whose code reads as written (each module headed by its source path);
// TEST_SOURCE_MAPS=1 maps them to the sources, at a price: Playwright takes
// a stack trace for every call, and mapping each one made browser suites
// about a third slower. Servers and CLI commands a test starts run from
// their own bundles too (bin/foyer-server.js, bin/foyer.js).
//
// Two test files run at once unless TEST_CONCURRENCY says otherwise: on a
// two-core machine the browser suites keep both cores busy, and a third
// file at once made the run no quicker.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundleForNode, ROOT } from '../bin/node-bundle.js';

const narrowed = process.argv.slice(2).length > 0;
const roots = narrowed ? process.argv.slice(2) : ['src', 'test'];

// The whole run also type-checks and checks the layering, beside the tests
// rather than before them: each takes a core for a while at the start,
// when the first test files leave one idle, and a failure fails the run all
// the same. Their output comes after the tests'.
function check(name, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ name, ok: code === 0, output }));
  });
}
const checks = narrowed
  ? []
  : [check('tsc --noEmit', process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '-p', ROOT]), check('layering', 'npm', ['run', '-s', 'layering'])];
const files = [];
for (const root of roots) {
  if (statSync(root).isFile()) {
    files.push(root);
    continue;
  }
  for (const entry of readdirSync(root, { recursive: true })) {
    const path = join(root, String(entry));
    if (path.endsWith('.test.ts') && !path.includes('node_modules')) files.push(path);
  }
}
files.sort();
// The SFU suites with browser pages are the heaviest (several pages and a
// Janus each): side by side (they sort next to each other) they starve a
// slow two-core machine. Spread through the list, they seldom meet. Node's
// runner sorts the files it is given by path, so the order is carried by
// the names of small files that each import one bundle (below).
const heavy = files.filter((f) => /(^|\/)test\/sfu\//.test(f) && readFileSync(f, 'utf8').includes('browserSkipReason'));
const light = files.filter((f) => !heavy.includes(f));
files.length = 0;
heavy.forEach((file, i) => {
  const until = Math.round(((i + 1) * light.length) / (heavy.length + 1));
  while (files.length - i < until) files.push(light[files.length - i]);
  files.push(file);
});
files.push(...light.slice(files.length - heavy.length));
if (files.length === 0) {
  console.error('No test files found.');
  process.exit(1);
}

// One folder per checkout: worktrees may share one node_modules.
const checkout = createHash('sha256').update(ROOT).digest('hex').slice(0, 12);
const outdir = join(ROOT, 'node_modules', '.cache', `foyer-tests-${checkout}`);
rmSync(outdir, { recursive: true, force: true });
await bundleForNode({
  entryPoints: files.map((file) => relative(ROOT, join(process.cwd(), file))),
  outbase: '.',
  outdir,
  outExtension: { '.js': '.mjs' },
  inline: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: process.env.TEST_SOURCE_MAPS === '1' ? 'inline' : false,
});
const bundles = files.map((file) => join(outdir, relative(ROOT, join(process.cwd(), file)).replace(/\.ts$/, '.mjs')));
// In the order above, whatever the runner's sorting: each named by its place and its test file.
const ordered = join(outdir, 'in-order');
mkdirSync(ordered);
const entries = bundles.map((bundle, i) => {
  const name = `${String(i).padStart(4, '0')}-${relative(ROOT, join(process.cwd(), files[i])).replace(/[\\/]/g, '--').replace(/\.ts$/, '.mjs')}`;
  writeFileSync(join(ordered, name), `import ${JSON.stringify(`../${relative(outdir, bundle).split('\\').join('/')}`)};\n`);
  return join(ordered, name);
});

const status = await new Promise((resolve) => {
  const run = spawn(
    process.execPath,
    [...(process.env.TEST_SOURCE_MAPS === '1' ? ['--enable-source-maps'] : []), '--test', `--test-concurrency=${Number(process.env.TEST_CONCURRENCY) || 2}`, '--test-timeout=600000', ...entries],
    { stdio: 'inherit' },
  );
  run.on('close', (code) => resolve(code ?? 1));
});
let failed = status !== 0;
for (const c of await Promise.all(checks)) {
  console.log(`\n# ${c.name}: ${c.ok ? 'passed' : 'FAILED'}`);
  if (!c.ok || c.output.trim()) console.log(c.output.trimEnd());
  failed ||= !c.ok;
}
process.exit(failed ? status || 1 : 0);

/**
 * The launcher's bundle cache (bin/node-bundle.js, behind `npm start` and
 * `foyer`), driven as the launchers drive it: runBundled in a child process,
 * here on a small project of its own in a temporary directory, whose sources,
 * modification times and cache the test can change. The program prints the
 * URL of the file that runs, so each run says whether it ran a cached bundle
 * (and which) or its sources through tsx; a mark the test appends to a
 * bundle says whether it was made again, since the cache writes each bundle
 * whole and never changes one in place. (Not its inode: where the old file is
 * removed first, a new one can take the same number.)
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { SETTLED_MS, UNUSED_FOR_MS } from '../../bin/node-bundle.js';

const run = promisify(execFile);
const BUNDLER = new URL('../../bin/node-bundle.js', import.meta.url).href;
const LAUNCH = `const [bundler, root] = process.argv.slice(1);
const { runBundled } = await import(bundler);
await runBundled('src/main.ts', 'app', { root });`;
const MAIN = `import { greeting } from './greeting.ts';
// Destructured so that the test bundler's rewrite of the module's URL (each
// module keeps its source's) leaves it be: this one names the file that runs.
const { url } = import.meta;
console.log(JSON.stringify({ greeting, url }));
`;
/** The files the cache stamps, relative to the project. */
const INPUTS = ['src/main.ts', 'src/greeting.ts', 'tsconfig.json', 'package.json'];
/** The launcher's settle window, and how long a bundle goes unused before the sweep, with a minute to spare. */
const SETTLED_S = Math.ceil(SETTLED_MS / 1000);
const STALE_S = UNUSED_FOR_MS / 1000 + 60;

interface Ran {
  greeting: string;
  /** The file that ran: a bundle's name in the cache, or `source` (tsx). */
  from: string;
}

let root: string;
let cache: string;

const greeting = (text: string) => `export const greeting: string = ${JSON.stringify(text)};\n`;
const nowS = () => Math.floor(Date.now() / 1000);

/** Sets a file's modification time (whole seconds, which survive the round trip through utimes exactly). */
function age(path: string, atS: number) {
  utimesSync(path, atS, atS);
}

/**
 * Dates inputs well before the settle window, so that a bundle made now is
 * kept. Their change times become now: to the cache, a change.
 */
function settle(inputs = INPUTS) {
  for (const input of inputs) age(join(root, input), nowS() - 60);
}

/** Writes new contents over a source and puts its modification time back, as a copy with times kept would. */
function rewriteKeepingTime(path: string, contents: string) {
  const before = statSync(join(root, path));
  writeFileSync(join(root, path), contents);
  utimesSync(join(root, path), before.atime, before.mtime);
  const after = statSync(join(root, path));
  assert.equal(after.mtimeMs, before.mtimeMs);
  assert.equal(after.ino, before.ino);
}

async function launch(): Promise<Ran> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', LAUNCH, BUNDLER, root], {
    cwd: root,
    // tsx, where it is fallen back to, would otherwise keep its transforms in the system's temporary directory.
    env: { ...process.env, TSX_DISABLE_CACHE: '1' },
  });
  const { greeting, url } = JSON.parse(stdout) as { greeting: string; url: string };
  const file = fileURLToPath(url);
  if (file === join(root, 'src', 'main.ts')) return { greeting, from: 'source' };
  assert.equal(join(file, '..'), cache, `ran ${file}`);
  return { greeting, from: file.slice(cache.length + 1) };
}

/** The name of the manifest of the project's entry (there is one entry), if one is kept. */
const manifestName = () => readdirSync(cache).find((f) => /^app-[0-9a-f]{12}\.json$/.test(f));

function manifest(): { bundle: string; inputs: unknown[][] } | undefined {
  const name = manifestName();
  return name === undefined ? undefined : JSON.parse(readFileSync(join(cache, name), 'utf8'));
}

const MARK = '\n// the same file\n';
const mark = (bundle: string) => appendFileSync(join(cache, bundle), MARK);
const marked = (bundle: string) => readFileSync(join(cache, bundle), 'utf8').endsWith(MARK);

describe('the launcher’s bundle cache', () => {
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'foyer-bundle-cache-'));
    cache = join(root, 'node_modules', '.cache', 'foyer');
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'main.ts'), MAIN);
    writeFileSync(join(root, 'src', 'greeting.ts'), greeting('one'));
    writeFileSync(join(root, 'tsconfig.json'), '{ "compilerOptions": { "target": "ES2022" } }\n');
    writeFileSync(join(root, 'package.json'), '{ "type": "module", "private": true }\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('runs its kept bundle again, without bundling, while no input changed', async () => {
    settle();
    const first = await launch();
    assert.equal(first.greeting, 'one');
    assert.equal(manifest()?.bundle, first.from);
    assert.deepEqual(manifest()?.inputs.map((stamp) => stamp[0]).sort(), [...INPUTS].sort());
    mark(first.from);
    // Dated as unused for long: a use marks them used, for the sweep.
    age(join(cache, first.from), nowS() - STALE_S);
    age(join(cache, manifestName()!), nowS() - STALE_S);
    const second = await launch();
    assert.deepEqual(second, first);
    assert.ok(marked(second.from), 'not bundled again');
    assert.ok(statSync(join(cache, first.from)).mtimeMs > Date.now() - 60_000);
    assert.ok(statSync(join(cache, manifestName()!)).mtimeMs > Date.now() - 60_000);

    // A manifest whose bundle is gone (removed by hand, say): bundled anew, not a failed import.
    rmSync(join(cache, first.from));
    assert.deepEqual(await launch(), first);
  });

  it('bundles anew after a source changes, also at the same size and modification time', async () => {
    settle();
    const first = await launch();

    // Longer, but dated as before: told by its size and change time.
    rewriteKeepingTime('src/greeting.ts', greeting('three'));
    const longer = await launch();
    assert.equal(longer.greeting, 'three');
    assert.notEqual(longer.from, first.from);

    // As long and dated as before: told by its change time only. (Settling
    // is a change too: bundled and kept anew first.)
    settle();
    await launch();
    rewriteKeepingTime('src/greeting.ts', greeting('THREE'));
    const same = await launch();
    assert.equal(same.greeting, 'THREE');
    assert.equal(manifest()?.bundle, same.from);

    // A settings file esbuild reads without naming it: the same bundle, made again.
    mark(same.from);
    writeFileSync(join(root, 'package.json'), '{ "type": "module", "private": true, "name": "changed" }\n');
    settle(['package.json']);
    const settings = await launch();
    assert.equal(settings.from, same.from);
    assert.ok(!marked(settings.from), 'bundled again');
  });

  it('uses a bundle made within the settle window of a save once, and keeps one made after it', async () => {
    // Saved just now, as far as the cache can tell: dated a minute ahead, so
    // that a loaded machine slow to start the run cannot carry the save out
    // of the window (a file system with coarse times could date a later save
    // the same, which is why such a bundle is not kept).
    for (const input of INPUTS) age(join(root, input), nowS() + 60);
    const fresh = await launch();
    assert.equal(fresh.greeting, 'one');
    assert.equal(manifest(), undefined, 'not kept');
    mark(fresh.from);
    const again = await launch();
    assert.equal(again.from, fresh.from);
    assert.ok(!marked(again.from), 'bundled again');

    // Saved just over the window before: kept, and used again.
    for (const input of INPUTS) age(join(root, input), nowS() - SETTLED_S - 1);
    const settled = await launch();
    assert.equal(manifest()?.bundle, settled.from);
    mark(settled.from);
    await launch();
    assert.ok(marked(settled.from), 'not bundled again');
  });

  it('runs the sources through tsx when the cache cannot be written', async () => {
    settle();
    mkdirSync(join(cache, '..'), { recursive: true });
    writeFileSync(cache, 'a file where the cache directory goes\n');
    assert.deepEqual(await launch(), { greeting: 'one', from: 'source' });
    writeFileSync(join(root, 'src', 'greeting.ts'), greeting('two'));
    assert.deepEqual(await launch(), { greeting: 'two', from: 'source' });
    assert.ok(statSync(cache).isFile());

    // A cache whose manifest cannot be replaced: the bundle made is not used either.
    rmSync(cache);
    settle();
    await launch();
    const name = manifestName()!;
    rmSync(join(cache, name));
    mkdirSync(join(cache, name));
    writeFileSync(join(root, 'src', 'greeting.ts'), greeting('four'));
    settle();
    assert.deepEqual(await launch(), { greeting: 'four', from: 'source' });
  });

  it('sweeps, when it bundles, stale files no manifest names and keeps the named ones', async () => {
    settle();
    const first = await launch();
    const stale = nowS() - STALE_S;
    const files: Record<string, number> = {
      [first.from]: stale, // named by the manifest
      'app-000000000000-000000000000.mjs': stale,
      'app-000000000000.json.0123456789ab.tmp': stale,
      'app-000000000000-111111111111.mjs': nowS() - 60, // unused for less than the threshold
      'gone-000000000000.json': nowS() - 8 * 24 * 3600, // a manifest unused for over a week
      'gone-000000000000-000000000000.mjs': stale, // named by it only
      'other-000000000000.json': nowS() - 60,
      'other-000000000000-000000000000.mjs': stale, // named by it
      'notes.txt': stale, // not the cache's
    };
    writeFileSync(join(cache, 'gone-000000000000.json'), JSON.stringify({ bundle: 'gone-000000000000-000000000000.mjs', inputs: [] }));
    writeFileSync(join(cache, 'other-000000000000.json'), JSON.stringify({ bundle: 'other-000000000000-000000000000.mjs', inputs: [] }));
    for (const [name, atS] of Object.entries(files)) {
      if (!name.endsWith('.json') && name !== first.from) writeFileSync(join(cache, name), '');
      age(join(cache, name), atS);
    }

    writeFileSync(join(root, 'src', 'greeting.ts'), greeting('two'));
    settle();
    const second = await launch();
    assert.equal(manifest()?.bundle, second.from);
    assert.deepEqual(readdirSync(cache).sort(), [
      first.from, // still named when the sweep ran: a start may have just read its name
      'app-000000000000-111111111111.mjs',
      manifestName(),
      second.from,
      'notes.txt',
      'other-000000000000-000000000000.mjs',
      'other-000000000000.json',
    ].sort());

    // Now no manifest names the first bundle, unused for long: swept at the next bundling.
    age(join(cache, second.from), stale);
    writeFileSync(join(root, 'src', 'greeting.ts'), greeting('three'));
    settle();
    const third = await launch();
    const left = readdirSync(cache);
    assert.ok(!left.includes(first.from), 'the bundle no manifest names is swept');
    assert.ok(left.includes(second.from), 'the one named when the sweep ran is kept, however old');
    assert.ok(left.includes(third.from));
  });
});

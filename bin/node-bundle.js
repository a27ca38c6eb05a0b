// Bundles Foyer's own TypeScript for Node with esbuild, leaving packages to
// node_modules (the test files carry a few: see INLINED). Used by
// `npm start`, the `foyer` launcher and the test runner instead of tsx's
// loader, which resolves and loads every file through a hook thread and
// costs seconds of CPU per process for a graph of a few hundred files. The
// launchers keep their last bundle and use it again while its sources are
// unchanged (`runBundled`, the cache below).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each module keeps its own `import.meta.url`, so paths relative to a source file still resolve. */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      return {
        contents: source.includes('import.meta.url')
          ? source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          : source,
        loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};

/**
 * Packages a bundle run many times carries with Foyer's code (`inline`):
 * ES modules of many small files, which Node resolves and loads one by one
 * at every start. Worth it for the test files, bundled once and started by
 * the hundred; not for a launch, whose bundle would carry them for one
 * start at a time (and be rebuilt with every edit of Foyer's code). No
 * other package in node_modules imports them, so such a bundle holds their
 * only copy.
 */
const INLINED = new Set(['@fastify/type-provider-typebox', 'typebox', 'kysely']);

/** Packages stay in node_modules, but for INLINED ones with `inline`. */
function packages(inline) {
  return {
    name: 'packages',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path.split('/').slice(0, args.path.startsWith('@') ? 2 : 1).join('/');
        return inline && INLINED.has(name) && !args.path.startsWith('node:') ? undefined : { external: true };
      });
    },
  };
}

/** esbuild's build with Foyer's settings for Node; `options` adds entry points and output (and `inline`, above). */
export async function bundleForNode({ inline = false, ...options }) {
  // Loaded only to bundle: a start with its bundle made already needs none of it.
  const { build } = await import('esbuild');
  return build({
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Names stay as written (two classes of one name in the graph would be renamed otherwise).
    keepNames: true,
    sourcemap: 'inline',
    logLevel: 'error',
    plugins: [packages(inline), ownUrls],
    ...options,
  });
}

/** How long a bundle no start used stays: a process that has just read its name may still be about to load it. */
export const UNUSED_FOR_MS = 10 * 60_000;

/** How long a manifest no start used stays (one of a checkout or worktree since removed, or of an older launcher). */
const MANIFEST_UNUSED_FOR_MS = 7 * 24 * 3600_000;

/**
 * A file saved this close before a bundle was made may be in it as it was
 * before (some file systems keep modification times to a second or two):
 * such a bundle is used once, not kept.
 */
export const SETTLED_MS = 2000;

/** Files esbuild reads that its metafile does not name, but which change what it makes. */
const SETTINGS = ['tsconfig.json', 'package.json'];

/**
 * Removes manifests no start used for a week, then bundles no manifest names
 * (the sources changed since), those of the per-process scheme this cache
 * replaced and files a start killed mid-write left, once unused for a while.
 */
function sweep(dir) {
  const named = new Set();
  for (const entry of readdirSync(dir)) {
    if (!entry.endsWith('.json')) continue;
    try {
      if (Date.now() - statSync(join(dir, entry)).mtimeMs > MANIFEST_UNUSED_FOR_MS) rmSync(join(dir, entry), { force: true });
      else named.add(JSON.parse(readFileSync(join(dir, entry), 'utf8')).bundle);
    } catch {
      // Being replaced or removed by another start: its bundle is only not swept this time.
    }
  }
  for (const entry of readdirSync(dir)) {
    if (!(entry.endsWith('.mjs') || entry.endsWith('.tmp')) || named.has(entry)) continue;
    try {
      if (Date.now() - statSync(join(dir, entry)).mtimeMs > UNUSED_FOR_MS) rmSync(join(dir, entry), { force: true });
    } catch {
      // Swept by another start meanwhile.
    }
  }
}

/** Writes by renaming a whole file into place: a process reading `path` meanwhile sees the old file or the new one. */
function writeWhole(path, contents) {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** What tells a file's change: the inode and change time too, which copying with times kept does not bring back. */
function stamp(root, path) {
  const { size, mtimeMs, ctimeMs, ino } = statSync(join(root, path));
  return [path, size, mtimeMs, ctimeMs, ino];
}

/** True when every file of `inputs` (stamps, under `root`) is as it was. */
function unchanged(root, inputs) {
  return inputs.every((was) => {
    try {
      return stamp(root, was[0]).every((v, i) => v === was[i]);
    } catch {
      return false;
    }
  });
}

/** Marks a file used now, for the sweep; a read-only cache is not swept either. */
function touch(path) {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Read-only.
  }
}

/**
 * The bundle of `entry` in `dir`: the last one made while none of the files
 * it was made from changed since (checked at each start: a few hundred
 * stats), else a new one. Named by the checkout as well as the entry, since
 * worktrees may share one node_modules and a bundle holds its sources' paths.
 */
async function bundleOf(entry, name, root, dir) {
  const key = createHash('sha256').update(`${root}\0${entry}\0${createRequire(import.meta.url)('esbuild/package.json').version}\0${statSync(fileURLToPath(import.meta.url)).mtimeMs}`).digest('hex').slice(0, 12);
  const manifest = join(dir, `${name}-${key}.json`);
  try {
    const { bundle, inputs } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (unchanged(root, inputs) && existsSync(join(dir, bundle))) {
      touch(manifest);
      touch(join(dir, bundle));
      return join(dir, bundle);
    }
  } catch {
    // None yet, or being replaced: bundled below.
  }
  const startedAt = Date.now();
  const { outputFiles, metafile } = await bundleForNode({ absWorkingDir: root, entryPoints: [entry], write: false, metafile: true });
  const contents = outputFiles[0].contents;
  const bundle = `${name}-${key}-${createHash('sha256').update(contents).digest('hex').slice(0, 12)}.mjs`;
  mkdirSync(dir, { recursive: true });
  sweep(dir);
  writeWhole(join(dir, bundle), contents);
  const inputs = [...Object.keys(metafile.inputs), ...SETTINGS].map((path) => stamp(root, path));
  if (inputs.every(([, , mtimeMs]) => mtimeMs < startedAt - SETTLED_MS)) writeWhole(manifest, JSON.stringify({ bundle, inputs }));
  return join(dir, bundle);
}

/**
 * Runs `entry` (a path under the project) in this process from its bundle
 * (bundleOf), kept inside node_modules so that its package imports resolve
 * from the project. Where the cache cannot be written (node_modules
 * read-only, as in an image run by another user, or a full disk) and holds
 * no bundle of the sources as they are, the sources run through tsx
 * instead: slower to start, the same program. `root` is the project's
 * directory (a test's own small project, whose cache it can fill and break).
 */
export async function runBundled(entry, name, { root = ROOT } = {}) {
  let file;
  try {
    file = await bundleOf(entry, name, root, join(root, 'node_modules', '.cache', 'foyer'));
  } catch (error) {
    // esbuild's own errors (the sources do not compile) carry no system call: those are the program's to show.
    if (!error?.syscall) throw error;
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(join(root, entry)).href);
    return;
  }
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(file).href);
}

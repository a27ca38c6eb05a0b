// Bundles Foyer's own TypeScript for Node with esbuild, leaving packages to
// node_modules (the test files carry a few: see INLINED). Used by the
// `foyer` launcher and the test runner instead of tsx's loader, which
// resolves and loads every file through a hook thread and costs seconds of
// CPU per process for a graph of a few hundred files.
import { createHash } from 'node:crypto';
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
 * the hundred; not for a launch, which would bundle them every time. No
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

/** How long an unused bundle stays: a process that has just read its name may still be about to load it. */
const UNUSED_FOR_MS = 10 * 60_000;

/** How long a manifest no start used stays (one of a checkout or worktree since removed, or of an older launcher). */
const MANIFEST_UNUSED_FOR_MS = 7 * 24 * 3600_000;

/**
 * Removes manifests no start used for a week, then bundles no manifest names
 * (the sources changed since) and those of the per-process scheme this cache
 * replaced, once unused for a while.
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
    if (!entry.endsWith('.mjs') || named.has(entry)) continue;
    try {
      if (Date.now() - statSync(join(dir, entry)).mtimeMs > UNUSED_FOR_MS) rmSync(join(dir, entry), { force: true });
    } catch {
      // Swept by another start meanwhile.
    }
  }
}

/** Writes by renaming a whole file into place: a process reading `path` meanwhile sees the old file or the new one. */
function writeWhole(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** True when every file of `inputs` ([path under ROOT, size, modified]) is as it was. */
function unchanged(inputs) {
  return inputs.every(([path, size, mtimeMs]) => {
    try {
      const now = statSync(join(ROOT, path));
      return now.size === size && now.mtimeMs === mtimeMs;
    } catch {
      return false;
    }
  });
}

/**
 * The bundle of `entry` in `dir`: the last one made while none of the files
 * it was made from changed since (size and modification time, checked at
 * each start: a few hundred stats), else a new one. Named by the checkout as
 * well as the entry, since worktrees may share one node_modules and a bundle
 * holds its sources' paths.
 */
async function bundleOf(entry, name, dir) {
  const key = createHash('sha256').update(`${ROOT}\0${entry}\0${createRequire(import.meta.url)('esbuild/package.json').version}\0${statSync(fileURLToPath(import.meta.url)).mtimeMs}`).digest('hex').slice(0, 12);
  const manifest = join(dir, `${name}-${key}.json`);
  try {
    const { bundle, inputs } = JSON.parse(readFileSync(manifest, 'utf8'));
    if (unchanged(inputs) && existsSync(join(dir, bundle))) {
      try {
        const now = new Date();
        utimesSync(manifest, now, now);
      } catch {
        // A read-only cache: its manifests are not swept either.
      }
      return join(dir, bundle);
    }
  } catch {
    // None yet, or being replaced: bundled below.
  }
  const startedAt = Date.now();
  const { outputFiles, metafile } = await bundleForNode({ entryPoints: [entry], write: false, metafile: true });
  const contents = outputFiles[0].contents;
  const bundle = `${name}-${key}-${createHash('sha256').update(contents).digest('hex').slice(0, 12)}.mjs`;
  mkdirSync(dir, { recursive: true });
  sweep(dir);
  writeWhole(join(dir, bundle), contents);
  const inputs = Object.keys(metafile.inputs).map((path) => {
    const { size, mtimeMs } = statSync(join(ROOT, path));
    return [path, size, mtimeMs];
  });
  // A source saved while esbuild read it may be in the bundle as it was before: such a bundle is used once, not kept.
  if (inputs.every(([, , mtimeMs]) => mtimeMs < startedAt)) writeWhole(manifest, JSON.stringify({ bundle, inputs }));
  return join(dir, bundle);
}

/**
 * Runs `entry` (a path under the project) in this process from its bundle
 * (bundleOf), kept inside node_modules so that its package imports resolve
 * from the project. Where node_modules is read-only (an image run by another
 * user) and holds no bundle of the sources as they are, the sources run
 * through tsx instead: slower to start, the same program.
 */
export async function runBundled(entry, name) {
  let file;
  try {
    file = await bundleOf(entry, name, join(ROOT, 'node_modules', '.cache', 'foyer'));
  } catch (error) {
    if (error.code !== 'EACCES' && error.code !== 'EROFS' && error.code !== 'EPERM') throw error;
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(join(ROOT, entry)).href);
    return;
  }
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(file).href);
}

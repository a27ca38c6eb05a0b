// Bundles Foyer's own TypeScript for Node with esbuild, leaving packages to
// node_modules (the test files carry a few: see INLINED). Used by the
// `foyer` launcher and the test runner instead of tsx's loader, which
// resolves and loads every file through a hook thread and costs seconds of
// CPU per process for a graph of a few hundred files.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
export function bundleForNode({ inline = false, ...options }) {
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

/** Removes bundles left by processes that no longer run (a kill -9 skips the exit hook). */
function sweep(dir) {
  for (const name of readdirSync(dir)) {
    const pid = Number(/^[a-z]+-(\d+)-/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      // Another process starting now may sweep the same file: gone is fine.
      if (error.code === 'ESRCH') rmSync(join(dir, name), { force: true });
    }
  }
}

/**
 * Bundles `entry` (a path under the project) in memory and runs it in this
 * process. The bundle is written inside node_modules, so that its package
 * imports resolve from the project, and removed when the process exits.
 * Where node_modules is read-only (an image run by another user), the
 * sources run through tsx instead: slower to start, the same program.
 */
export async function runBundled(entry, name) {
  const { outputFiles } = await bundleForNode({ entryPoints: [entry], write: false });
  const dir = join(ROOT, 'node_modules', '.cache', 'foyer');
  const file = join(dir, `${name}-${process.pid}-${Date.now()}.mjs`);
  try {
    mkdirSync(dir, { recursive: true });
    sweep(dir);
    writeFileSync(file, outputFiles[0].contents);
  } catch (error) {
    if (error.code !== 'EACCES' && error.code !== 'EROFS' && error.code !== 'EPERM') throw error;
    const { register } = await import('tsx/esm/api');
    register();
    await import(pathToFileURL(join(ROOT, entry)).href);
    return;
  }
  process.on('exit', () => rmSync(file, { force: true }));
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(file).href);
}

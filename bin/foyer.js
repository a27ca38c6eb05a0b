#!/usr/bin/env node
// The operator's `foyer` command. There is no build step between a checkout
// and a working CLI: each run bundles src/cli with esbuild in memory (about a
// quarter of a second) and runs the bundle. Loading the same TypeScript file
// by file through tsx's loader costs several seconds of CPU per command,
// which an operator's scripts (and the test suite) pay on every call.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each module keeps its own `import.meta.url`, so paths relative to a source file still resolve. */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
      resolveDir: dirname(args.path),
    }));
  },
};

const { outputFiles } = await build({
  absWorkingDir: ROOT,
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Dependencies load from node_modules as usual; only Foyer's own code is bundled.
  packages: 'external',
  sourcemap: 'inline',
  write: false,
  logLevel: 'error',
  plugins: [ownUrls],
});

// Inside node_modules, so that the bundle's package imports resolve from the project.
const dir = join(ROOT, 'node_modules', '.cache', 'foyer');
mkdirSync(dir, { recursive: true });
const file = join(dir, `cli-${process.pid}-${Date.now()}.mjs`);
writeFileSync(file, outputFiles[0].contents);
process.on('exit', () => {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
});
process.setSourceMapsEnabled(true);
await import(pathToFileURL(file).href);

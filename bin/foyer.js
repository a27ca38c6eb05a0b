#!/usr/bin/env node
// The operator's `foyer` command. There is no build step between a checkout
// and a working CLI: each run bundles src/cli with esbuild in memory (about a
// quarter of a second) and runs the bundle, which starts several times faster
// than loading the same TypeScript file by file through tsx.
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleForNode, ROOT } from './node-bundle.js';

const { outputFiles } = await bundleForNode({ entryPoints: ['src/cli/main.ts'], write: false });

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

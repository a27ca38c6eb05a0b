#!/usr/bin/env node
// The operator's `foyer` command. There is no build step between a checkout
// and a working CLI: each run bundles src/cli with esbuild in memory (about a
// quarter of a second) and runs the bundle, which starts several times faster
// than loading the same TypeScript file by file through tsx.
import { runBundled } from './node-bundle.js';

await runBundled('src/cli/main.ts', 'cli');

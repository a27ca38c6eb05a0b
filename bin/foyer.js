#!/usr/bin/env node
// The operator's `foyer` command. There is no build step between a checkout
// and a working CLI: it runs src/cli bundled with esbuild, which starts
// several times faster than loading the same TypeScript file by file through
// tsx. The bundle is kept in node_modules/.cache/foyer and made again (about
// a quarter of a second) at a run that finds a source changed.
import { runBundled } from './node-bundle.js';

await runBundled('src/cli/main.ts', 'cli');

#!/usr/bin/env node
// `npm start`: Foyer's server (src/main.ts), bundled with esbuild and run
// from the bundle, which takes about half the CPU of loading the same
// TypeScript file by file through tsx. No build step: the bundle is kept in
// node_modules/.cache/foyer and made again at a start that finds a source
// changed, so an edited file is in the next start.
import { runBundled } from './node-bundle.js';

await runBundled('src/main.ts', 'server');

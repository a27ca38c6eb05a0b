#!/usr/bin/env node
// `npm start`: Foyer's server (src/main.ts), bundled with esbuild in memory
// at each start and run from the bundle, which takes about half the CPU of
// loading the same TypeScript file by file through tsx. No build step: an
// edited source file is in the next start.
import { runBundled } from './node-bundle.js';

await runBundled('src/main.ts', 'server');

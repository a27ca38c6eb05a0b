#!/usr/bin/env node
// Runs every *.test.ts under src/ and test/ with node:test through tsx.
// Node 20's --test does not expand ** globs itself, hence this small finder.
// Extra arguments narrow the run: `npm test -- test/api` runs only that folder.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['src', 'test'];
const files = [];
for (const root of roots) {
  if (statSync(root).isFile()) {
    files.push(root);
    continue;
  }
  for (const entry of readdirSync(root, { recursive: true })) {
    const path = join(root, String(entry));
    if (path.endsWith('.test.ts') && !path.includes('node_modules')) files.push(path);
  }
}
files.sort();
if (files.length === 0) {
  console.error('No test files found.');
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=600000', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);

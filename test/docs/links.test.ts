/**
 * The documentation a newcomer reads on a clean clone: every relative link
 * in README.md and docs/ leads to a file of this repository (the spec
 * included: a copy lives in docs/spec/), and no page names a path of one
 * machine.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  return ['README.md', ...docs];
}

/** Link targets of a markdown text: `[text](target)`, without titles and anchors. */
function links(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

describe('the documentation on a clean clone', () => {
  it('links only to files of this repository', () => {
    const broken: string[] = [];
    for (const page of pages()) {
      for (const target of links(readFileSync(join(ROOT, page), 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
        const file = resolve(ROOT, dirname(page), decodeURIComponent(target.split('#')[0]!));
        const inside = !relative(ROOT, file).startsWith('..');
        if (!inside || !existsSync(file)) broken.push(`${page}: ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('names no path of one machine', () => {
    const found = pages().filter((page) => /\/work\/|\.\.\/shared\//.test(readFileSync(join(ROOT, page), 'utf8')));
    assert.deepEqual(found, []);
  });
});

/**
 * `npm ci` on the oldest Node.js the README promises prints no EBADENGINE
 * warning: every package the lockfile installs accepts that Node.js. What
 * runs the server must accept the `engines` minimum itself; the test tools
 * must accept the Node.js running the tests (CI's) and the minimum the
 * README names for development.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The oldest Node.js on which `npm ci` (development tools included) prints no engine warning, as the README says. */
const DEVELOPMENT_NODE = '20.17.0';
const manifest = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(resolve(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
};

function refusing(nodeVersion: string, include: (dev: boolean) => boolean): string[] {
  const refused: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || !include(entry.dev === true)) continue;
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (range && !semver.satisfies(nodeVersion, range)) refused.push(`${path} (node ${range})`);
  }
  return refused;
}

describe('the Node.js versions the packages accept', () => {
  it('lets every runtime package run on the oldest Node.js in package.json engines', () => {
    const oldest = semver.minVersion(manifest.engines.node);
    assert.ok(oldest, `engines.node ${manifest.engines.node} names no version`);
    assert.deepEqual(refusing(oldest.version, (dev) => !dev), []);
  });

  it('lets every package, test tools included, install without a warning on the Node.js the README names for development', () => {
    assert.deepEqual(refusing(DEVELOPMENT_NODE, () => true), []);
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    assert.match(readme, /development tools that `npm ci` also installs.* ask for Node\.js 20\.17 or newer/);
  });

  it('lets every package, test tools included, install without a warning on this Node.js', () => {
    assert.deepEqual(refusing(process.versions.node, () => true), []);
  });
});

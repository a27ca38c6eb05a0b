/**
 * The modules a shell preloads: everything its entry imports, directly or
 * not, and nothing else (the meeting page needs none of the server-only texts).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { modulesOf } from '../../src/web/modules.ts';

const PUBLIC_JS = new URL('../../public/js/', import.meta.url);

describe('module graph of a page', () => {
  const graph = modulesOf('/static/js/app.js');

  it('starts with the entry and reaches every part of the call component and the shared modules it uses', () => {
    assert.equal(graph[0], '/static/js/app.js');
    const callParts = readdirSync(new URL('call/', PUBLIC_JS)).map((name) => `/static/js/call/${name}`);
    for (const path of [
      '/static/js/pages/meeting.js',
      ...callParts,
      '/static/js/lib/mesh.js',
      '/static/js/lib/signalling.js',
      '/static/js/lib/i18n.js',
      '/static/js/shared/close-codes.js',
      '/static/js/shared/langs.js',
      '/static/js/shared/strings/meeting.js',
    ]) {
      assert.ok(graph.includes(path), path);
    }
  });

  it('lists each module once, each one a file under public/, and leaves out what the page does not import', () => {
    assert.equal(new Set(graph).size, graph.length);
    for (const path of graph) assert.ok(existsSync(fileURLToPath(new URL(path.slice('/static/js/'.length), PUBLIC_JS))), path);
    assert.ok(!graph.includes('/static/js/shared/strings/plain.js'));
  });
});

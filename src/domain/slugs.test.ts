import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { slugProblem, slugify } from './slugs.ts';

describe('slugs', () => {
  it('accepts lowercase letters, digits and single hyphens of 3 to 64 characters', () => {
    for (const ok of ['abc', 'dr-lee-2', 'a1b', 'x'.repeat(64)]) assert.equal(slugProblem(ok), undefined, ok);
  });

  it('refuses malformed slugs', () => {
    for (const bad of ['ab', 'x'.repeat(65), 'Dr-Lee', 'a--b', '-abc', 'abc-', 'a_b', 'a b', 'ümlaut']) {
      assert.ok(slugProblem(bad), bad);
    }
  });

  it("refuses the front end's own paths", () => {
    for (const reserved of ['api', 'meetings', 'dashboard', 'static', 'assets', 'health', 'ready', 'docs']) {
      assert.match(slugProblem(reserved)?.message ?? '', /reserved/, reserved);
    }
  });

  it('derives slugs from names', () => {
    assert.equal(slugify('Acme Clinic'), 'acme-clinic');
    assert.equal(slugify('  Clínica São Paulo!! '), 'clinica-sao-paulo');
  });
});

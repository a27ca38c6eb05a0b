/**
 * The texts shared by the server and the browser pages: every table under
 * public/js/shared/strings/ (one per page or group of pages, found by
 * listing the folder, so a new page's table is checked without a new test)
 * has exactly the offered languages, each with the same keys, none empty.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DEFAULT_LANG, LANGS } from '../../public/js/shared/langs.js';
import { pickLang } from '../../src/web/strings.ts';

const STRINGS_DIR = new URL('../../public/js/shared/strings/', import.meta.url);

describe('shared texts', () => {
  const files = readdirSync(STRINGS_DIR).filter((name) => name.endsWith('.js'));

  it('are found', () => {
    assert.ok(files.includes('meeting.js') && files.includes('plain.js'), files.join(', '));
  });

  for (const file of files) {
    it(`${file}: every language, the same keys, no empty text`, async () => {
      const module = (await import(new URL(file, STRINGS_DIR).href)) as Record<string, Record<string, Record<string, unknown>>>;
      const tables = Object.entries(module);
      assert.ok(tables.length > 0, 'exports a table');
      for (const [name, table] of tables) {
        assert.deepEqual(Object.keys(table).sort(), [...LANGS].sort(), `${name}: languages`);
        const keys = Object.keys(table[DEFAULT_LANG]!).sort();
        for (const lang of LANGS) {
          assert.deepEqual(Object.keys(table[lang]!).sort(), keys, `${name}.${lang}: keys`);
          for (const [key, text] of Object.entries(table[lang]!)) assert.ok(typeof text === 'string' && text.trim(), `${name}.${lang}.${key}`);
        }
      }
    });
  }

  it('the server pages pick their language from ?lang= as before', () => {
    assert.equal(pickLang('de'), 'de');
    assert.equal(pickLang('DE-at'), 'de');
    assert.equal(pickLang('en'), 'en');
    assert.equal(pickLang('fr'), 'en');
    assert.equal(pickLang(undefined), 'en');
    assert.equal(pickLang(['de']), 'en');
  });
});

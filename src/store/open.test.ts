/**
 * @module store/open.test
 * DATABASE_URL parsing and opening a file-backed SQLite store.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { openStore, parseDatabaseUrl } from './open.ts';

describe('DATABASE_URL', () => {
  it('accepts the documented forms', () => {
    assert.deepEqual(parseDatabaseUrl('sqlite::memory:'), { dialect: 'sqlite', filename: ':memory:' });
    assert.deepEqual(parseDatabaseUrl('sqlite:./data/foyer.db'), { dialect: 'sqlite', filename: resolve('data/foyer.db') });
    assert.deepEqual(parseDatabaseUrl('sqlite:/var/lib/foyer.db'), { dialect: 'sqlite', filename: '/var/lib/foyer.db' });
    assert.equal(parseDatabaseUrl('postgres://u@h/db').dialect, 'postgres');
    assert.equal(parseDatabaseUrl('postgresql://u@h/db').dialect, 'postgres');
  });

  it('refuses anything else without echoing the URL', () => {
    for (const url of ['mysql://u:hunter2@h/db', 'sqlite:', '', 'postgres:/x', 'sqlite://host/x']) {
      assert.throws(() => parseDatabaseUrl(url), (error: Error) => {
        assert.match(error.message, /DATABASE_URL/);
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      });
    }
  });

  it('creates the parent directory of a SQLite file and keeps data across reopening', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'foyer-open-'));
    try {
      const url = `sqlite:${join(dir, 'nested', 'deeper', 'foyer.db')}`;
      const store = await openStore(url, { migrate: true });
      const org = { id: 'o1', name: 'Acme', slug: 'acme', type: 'basic' as const, createdAt: new Date(1_700_000_000_000) };
      await store.insertOrganization(org);
      await store.close();
      assert.ok(existsSync(join(dir, 'nested', 'deeper', 'foyer.db')));
      const reopened = await openStore(url);
      assert.deepEqual(await reopened.migrate(), []);
      assert.deepEqual(await reopened.findOrganization('acme'), org);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

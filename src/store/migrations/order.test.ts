/**
 * Migrations only ever go after those already released: Kysely refuses to
 * migrate a database whose applied migrations are not a prefix of the
 * list. A database at the last released schema must reach the latest.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration } from 'kysely';
import { migrationProvider } from './index.ts';

/** The migrations of the last release, in order; extend it when a release ships new ones. */
const RELEASED = ['001_initial', '002_presence', '003_usage', '004_members', '008_waiting'];

describe('migration order', () => {
  it('migrates a database at the released schema to the latest, every new migration sorting after the released ones', async () => {
    const all = await migrationProvider.getMigrations();
    const names = Object.keys(all);
    assert.deepEqual(names, [...names].sort(), 'listed in name order');
    assert.deepEqual(names.slice(0, RELEASED.length), RELEASED, 'released migrations first, unchanged');

    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    try {
      const released: Record<string, Migration> = Object.fromEntries(RELEASED.map((name) => [name, all[name]!]));
      const first = await new Migrator({ db, provider: { getMigrations: async () => released } }).migrateToLatest();
      assert.equal(first.error, undefined);
      const rest = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
      assert.equal(rest.error, undefined, String(rest.error));
      assert.deepEqual(rest.results?.map((r) => r.migrationName), names.slice(RELEASED.length));
    } finally {
      await db.destroy();
    }
  });
});

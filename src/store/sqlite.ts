/**
 * @module store/sqlite
 * Opens the embedded SQLite store (better-sqlite3) and translates its
 * constraint errors into domain errors.
 */
import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { conflictForColumns } from './constraints.ts';
import type { StoreConnection } from '../domain/ports/store.ts';
import { createKyselyStore } from './kysely-store.ts';
import { groupCommitSqliteDialect } from './sqlite-driver.ts';
import type { Database as Schema } from './schema.ts';

/** `filename` is a path or `:memory:`. */
export function openSqliteStore(filename: string): StoreConnection {
  const database = new Database(filename);
  // WAL lets readers proceed during a write; synchronous=FULL makes a
  // commit durable once it returns (NORMAL could lose the last commits on
  // power loss in WAL mode). Foreign keys are off by default in SQLite.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // Durable and fast: concurrent writes share one commit (see sqlite-driver.ts).
  const db = new Kysely<Schema>({ dialect: groupCommitSqliteDialect(database) });
  return createKyselyStore(db, 'sqlite', translateSqliteError);
}

/** Example message: `UNIQUE constraint failed: users.organization_id, users.email_lower`. */
const UNIQUE_FAILED = /constraint failed: (.+)$/;

export function translateSqliteError(error: unknown): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  if (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const match = UNIQUE_FAILED.exec(error.message);
    const qualified = (match?.[1] ?? '').split(',').map((s) => s.trim());
    const table = qualified[0]?.split('.')[0] ?? '';
    const columns = qualified.map((q) => q.split('.')[1] ?? '');
    return conflictForColumns(table, columns);
  }
  return error;
}

/**
 * @module store/open
 * Opens the store named by a `DATABASE_URL`:
 * `sqlite::memory:`, `sqlite:./relative.db`, `sqlite:/abs/path.db`,
 * `postgres://…` or `postgresql://…`.
 * Migrations are not applied here unless asked: `npm start` and
 * `foyer migrate` decide when the schema changes.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openPostgresStore } from './postgres.ts';
import { openSqliteStore } from './sqlite.ts';
import type { StoreConnection } from '../domain/ports/store.ts';

export type DatabaseLocation =
  | { dialect: 'sqlite'; filename: string }
  | { dialect: 'postgres'; connectionString: string };

/** Parses a `DATABASE_URL`; throws an Error naming the accepted forms. The URL itself is not echoed: it may hold a password. */
export function parseDatabaseUrl(databaseUrl: string): DatabaseLocation {
  if (databaseUrl === 'sqlite::memory:') return { dialect: 'sqlite', filename: ':memory:' };
  if (databaseUrl.startsWith('sqlite:')) {
    const path = databaseUrl.slice('sqlite:'.length);
    if (path === '' || path.startsWith('//')) {
      throw new Error('DATABASE_URL for SQLite must be sqlite::memory:, sqlite:./relative/path.db or sqlite:/absolute/path.db.');
    }
    return { dialect: 'sqlite', filename: resolve(path) };
  }
  if (/^postgres(ql)?:\/\/./.test(databaseUrl)) return { dialect: 'postgres', connectionString: databaseUrl };
  throw new Error(
    'DATABASE_URL is not supported: expected sqlite::memory:, sqlite:<path>, postgres://… or postgresql://….',
  );
}

export async function openStore(databaseUrl: string, options: { migrate?: boolean } = {}): Promise<StoreConnection> {
  const location = parseDatabaseUrl(databaseUrl);
  let store: StoreConnection;
  if (location.dialect === 'sqlite') {
    if (location.filename !== ':memory:') mkdirSync(dirname(location.filename), { recursive: true });
    store = openSqliteStore(location.filename);
  } else {
    store = openPostgresStore(location.connectionString);
  }
  try {
    await store.ping();
    if (options.migrate) await store.migrate();
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  return store;
}

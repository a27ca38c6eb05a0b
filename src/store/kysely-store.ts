/**
 * @module store/kysely-store
 * The `Store` of both dialects, assembled from one query module per
 * aggregate (src/store/queries/). Every query is written once in Kysely
 * and runs unchanged on SQLite and PostgreSQL; the dialect modules only
 * open the connection and translate driver errors (see `sqlite.ts`,
 * `postgres.ts`). A transaction is the same assembly over Kysely's
 * transaction object, so domain commands see one `Store` either way.
 */
import { Migrator, sql, type Kysely } from 'kysely';
import type { Store, StoreConnection } from '../domain/ports/store.ts';
import { migrationProvider } from './migrations/index.ts';
import { apiKeyQueries } from './queries/api-keys.ts';
import { translated, type Db, type ErrorTranslator } from './queries/db.ts';
import { meetingQueries } from './queries/meetings.ts';
import { organizationQueries } from './queries/organizations.ts';
import { placeRecordQueries } from './queries/place-records.ts';
import { presenceQueries } from './queries/presence.ts';
import { roomQueries } from './queries/rooms.ts';
import { spaceQueries } from './queries/spaces.ts';
import { usageQueries } from './queries/usage.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';
export type { ErrorTranslator };

function storeOn(db: Db, dialect: Dialect, translate: ErrorTranslator): Store {
  const store: Store = {
    ...organizationQueries(db, translate),
    ...apiKeyQueries(db, translate),
    ...meetingQueries(db, translate),
    ...roomQueries(db, translate),
    ...spaceQueries(db, translate, dialect),
    ...usageQueries(db, translate),
    live: { ...presenceQueries(db), ...placeRecordQueries(db) },
    transaction: (work) =>
      db.isTransaction
        ? work(store)
        : translated(translate, () => db.transaction().execute((trx) => work(storeOn(trx, dialect, translate)))),
  };
  return store;
}

export function createKyselyStore(db: Kysely<Database>, dialect: Dialect, translate: ErrorTranslator): StoreConnection {
  return {
    ...storeOn(db, dialect, translate),
    dialect,
    async migrate() {
      const migrator = new Migrator({ db, provider: migrationProvider });
      const { error, results } = await migrator.migrateToLatest();
      if (error !== undefined) {
        const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
        throw new Error(`Database migration ${failed} failed.`, { cause: error });
      }
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

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
import { translated, type Db, type ErrorTranslator, type QueryContext } from './queries/db.ts';
import { hostingQueries } from './queries/hosting.ts';
import { meetingQueries } from './queries/meetings.ts';
import { memberQueries } from './queries/members.ts';
import { organizationChangeQueries } from './queries/organization-changes.ts';
import { organizationQueries } from './queries/organizations.ts';
import { placeRecordQueries } from './queries/place-records.ts';
import { placementQueries } from './queries/placements.ts';
import { presenceQueries } from './queries/presence.ts';
import { resumeQueries } from './queries/resumes.ts';
import { roomQueries } from './queries/rooms.ts';
import { spaceQueries } from './queries/spaces.ts';
import { ssoQueries } from './queries/sso.ts';
import { usageQueries } from './queries/usage.ts';
import { waitingQueries } from './queries/waiting.ts';
import { webhookQueries } from './queries/webhooks.ts';
import { serviceSettingQueries } from './queries/service-settings.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';
export type { ErrorTranslator };

type Internals = QueryContext & { live: Store['live'] };

/** Every store method, once; stores share these through their prototype and differ in `this.db`. */
const STORE_METHODS: Omit<Store, 'live'> & ThisType<Internals> = {
  ...organizationQueries,
  ...apiKeyQueries,
  ...meetingQueries,
  ...roomQueries,
  ...spaceQueries,
  ...usageQueries,
  ...memberQueries,
  ...ssoQueries,
  ...waitingQueries,
  ...hostingQueries,
  ...webhookQueries,
  ...organizationChangeQueries,
  ...placementQueries,
  ...serviceSettingQueries,
  transaction(work) {
    if (this.db.isTransaction) return work(this as unknown as Store);
    return translated(this.translate, () =>
      this.db.transaction().execute((trx) => work(storeOn(trx, this.dialect, this.translate))),
    );
  },
};
const LIVE_METHODS: Store['live'] & ThisType<QueryContext> = { ...presenceQueries, ...resumeQueries, ...placeRecordQueries };

/** The store over `db`: the database, or one transaction on it. */
function storeOn(db: Db, dialect: Dialect, translate: ErrorTranslator): Store {
  const context: QueryContext = { db, dialect, translate };
  const live = Object.assign(Object.create(LIVE_METHODS) as Store['live'], context);
  return Object.assign(Object.create(STORE_METHODS) as Store, context, { live });
}

export function createKyselyStore(db: Kysely<Database>, dialect: Dialect, translate: ErrorTranslator): StoreConnection {
  return Object.assign(storeOn(db, dialect, translate), {
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
  });
}

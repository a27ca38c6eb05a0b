/**
 * @module store/postgres
 * Opens the PostgreSQL store (node-postgres pool) and translates its
 * constraint errors into domain errors.
 */
import { userInfo } from 'node:os';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { conflictForConstraintName } from './constraints.ts';
import type { StoreConnection } from '../domain/ports/store.ts';
import { createKyselyStore } from './kysely-store.ts';
import type { Database as Schema } from './schema.ts';

const INT8_OID = 20;
const UNIQUE_VIOLATION = '23505';

export function openPostgresStore(connectionString: string): StoreConnection {
  const pool = new pg.Pool({
    connectionString: withDefaultUser(connectionString),
    max: 10,
    // Timestamps are epoch milliseconds in bigint columns. node-postgres
    // returns int8 as a string by default (it may exceed 2^53); ours never
    // do, so parse them to numbers. Set per pool, not globally, so other
    // pg users in the process keep the default.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID && format !== 'binary'
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its connection emits 'error' on the pool; without
  // a listener that would crash the process. The pool discards the client,
  // and the next query reports any lasting problem to its caller.
  pool.on('error', () => {});
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  const store = createKyselyStore(db, 'postgres', translatePostgresError);
  store.pool = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return store;
}

/**
 * Like libpq (psql), connect as the OS user when the URL names none.
 * node-postgres would otherwise need $PGUSER or $USER, which services and
 * containers often lack. (A `user` pool option does not help: the parsed
 * URL overrides it with an empty name.)
 */
export function withDefaultUser(connectionString: string): string {
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return connectionString;
  }
  if (url.username !== '') return connectionString;
  url.username = encodeURIComponent(process.env.PGUSER || process.env.USER || userInfo().username);
  return url.toString();
}

interface PgError {
  code?: unknown;
  constraint?: unknown;
}

export function translatePostgresError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return error;
  const { code, constraint } = error as PgError;
  if (code === UNIQUE_VIOLATION) {
    return conflictForConstraintName(typeof constraint === 'string' ? constraint : undefined);
  }
  return error;
}

/**
 * @module store/queries/db
 * What every query module shares: the connection type (the database or a
 * transaction on it), running a multi-statement write atomically inside
 * whatever transaction is already open, and turning driver errors into
 * domain errors.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { PageCursor } from '../../domain/pages.ts';
import type { Database } from '../schema.ts';

/** The database, or a transaction on it: query modules work on either. */
export type Db = Kysely<Database> | Transaction<Database>;

/**
 * Turns a driver error into a domain error (unique violation -> ConflictError),
 * or returns it unchanged when it is not one the domain can act on.
 */
export type ErrorTranslator = (error: unknown) => unknown;

/**
 * What every query method reads from `this`: the connection (or the
 * transaction), how to translate driver errors, and the dialect. Query
 * modules are plain objects of methods sharing one prototype, so a store
 * over a new transaction is one small object, not a copy of every method.
 */
export interface QueryContext {
  readonly db: Db;
  readonly translate: ErrorTranslator;
  readonly dialect: 'sqlite' | 'postgres';
}

/** Runs `work` in a transaction: a new one, or the one `db` already is. */
export function atomically<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

/** Runs a write and translates driver errors into domain errors. */
export async function translated<T>(translate: ErrorTranslator, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw translate(error);
  }
}

/**
 * The condition of a newest-first page after `cursor`, on the queried
 * table's own `created_at` and `id` (written as a row comparison spelled
 * out, which both databases can serve from a (…, created_at, id) index).
 */
export function olderThan(cursor: PageCursor): RawBuilder<SqlBool> {
  const at = cursor.createdAt.getTime();
  return sql<SqlBool>`(created_at < ${at} or (created_at = ${at} and id < ${cursor.id}))`;
}

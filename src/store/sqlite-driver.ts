/**
 * @module store/sqlite-driver
 * A Kysely driver for better-sqlite3 with group commit.
 *
 * Why: with `synchronous = FULL` every commit waits for an fsync of the
 * write-ahead log (a millisecond or more on common disks), and better-sqlite3
 * waits on the main thread, so with Kysely's own driver every API write
 * stalled every other request for that long and writes were capped near
 * one per fsync. Here concurrent writes share one transaction and one
 * fsync: the first write of an event-loop turn opens `BEGIN IMMEDIATE`,
 * writes arriving before the next `setImmediate` join it, and then one
 * `COMMIT` makes them all durable together. Each caller's promise settles
 * only after that COMMIT, so an API response never reports a write that a
 * power loss could still undo.
 *
 * Rules:
 * - Reads run at once, on the same connection. A read may therefore see a
 *   write whose commit is still pending (at most one event-loop turn), but
 *   no writer has been told it succeeded before its commit.
 * - A failing statement (a unique violation) fails alone: SQLite undoes
 *   that statement and the batch goes on. If SQLite abandons the whole
 *   transaction (an I/O error, a full disk), every write of the batch fails.
 * - An explicit Kysely transaction becomes a SAVEPOINT inside the batch:
 *   while it is open, every other query waits (as Kysely's own SQLite
 *   driver makes them wait), its rollback returns to the savepoint, and its
 *   commit resolves after the batch's COMMIT.
 * - While another process holds the write lock (the `foyer` CLI, a
 *   migration), `BEGIN IMMEDIATE` is retried on a timer for up to the busy
 *   timeout instead of in SQLite's busy handler, which would sleep on the
 *   main thread and stall every request meanwhile.
 *
 * Prepared statements are reused per SQL text: compiling the SQL was the
 * largest single cost of a cached-auth API read. Safe because
 * better-sqlite3 runs a statement to completion synchronously and the
 * store never streams (iterate) a query. Bounded: Kysely's SQL texts are
 * few (they vary only with the length of `in` lists).
 */
import type Database from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';

const STATEMENT_CACHE_SIZE = 500;

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** Counts of what the driver did; tests read them to see that writes were grouped. */
export interface GroupCommitStats {
  commits: number;
  writes: number;
}

/** How long a write waits for another process's write lock before failing with SQLITE_BUSY. */
const BUSY_WAIT_MS = 5000;

export class GroupCommitSqliteDriver implements Driver {
  private readonly statements = new Map<string, Database.Statement>();
  /** Writers waiting for the open batch's COMMIT; null when no batch is open. */
  private batch: Waiter[] | null = null;
  /** The pending `BEGIN IMMEDIATE` while another process holds the write lock. */
  private opening: Promise<void> | null = null;
  /** The connection inside an explicit transaction; everyone else waits for it. */
  private owner: GroupCommitConnection | null = null;
  private ownerReleased: Promise<void> | null = null;
  private wakeWaiters: (() => void) | null = null;
  /** The batch's commit came due while a transaction was open: it runs once the transaction ends. */
  private commitAfterOwner = false;
  readonly stats: GroupCommitStats = { commits: 0, writes: 0 };

  constructor(
    private readonly database: Database.Database,
    private readonly busyTimeoutMs: number,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // Statements run synchronously, so connections need no lock of their own; see `execute`.
    return new GroupCommitConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as GroupCommitConnection;
    for (;;) {
      if (this.owner && this.owner !== conn) await this.ownerReleased;
      else if (!this.batch) await this.openBatch();
      else break;
    }
    this.owner = conn;
    this.ownerReleased = new Promise<void>((resolve) => (this.wakeWaiters = resolve));
    try {
      this.control('SAVEPOINT kysely_tx');
    } catch (error) {
      this.releaseOwner();
      throw error;
    }
  }

  async commitTransaction(): Promise<void> {
    this.control('RELEASE kysely_tx');
    const durable = this.joinBatch();
    this.releaseOwner();
    await durable;
  }

  async rollbackTransaction(): Promise<void> {
    try {
      // The batch may already be gone if SQLite abandoned it (an I/O error).
      if (this.database.inTransaction) {
        this.control('ROLLBACK TO kysely_tx');
        this.control('RELEASE kysely_tx');
      }
    } finally {
      this.releaseOwner();
    }
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.opening?.catch(() => {});
    this.commitBatch();
    this.statements.clear();
    this.database.close();
  }

  /**
   * Runs one query. Every decision (wait for a transaction, wait for the
   * write lock, run) is taken synchronously right before the statement
   * runs, so nothing can slip into another caller's transaction.
   */
  async execute(conn: GroupCommitConnection, query: CompiledQuery): Promise<QueryResult<unknown>> {
    for (;;) {
      if (this.owner && this.owner !== conn) {
        await this.ownerReleased;
        continue;
      }
      const statement = this.prepare(query.sql);
      // `readonly` (not `reader`): INSERT … RETURNING returns rows and still writes.
      if (statement.readonly || this.owner === conn) return this.run(statement, query.parameters);
      if (!this.batch) {
        await this.openBatch();
        continue;
      }
      const result = this.run(statement, query.parameters);
      await this.joinBatch();
      return result;
    }
  }

  /**
   * Runs a transaction-control statement through the statement cache:
   * `exec` would compile it anew every time. One savepoint name serves every
   * transaction, since only one is open at a time and they never nest.
   */
  private control(sql: string): void {
    this.prepare(sql).run();
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.clear();
      statement = this.database.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private run(statement: Database.Statement, parameters: readonly unknown[]): QueryResult<unknown> {
    try {
      if (statement.reader) return { rows: statement.all(parameters) };
      const { changes, lastInsertRowid } = statement.run(parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    } catch (error) {
      this.abandonIfRolledBack(error);
      throw error;
    }
  }

  /** One shared attempt to open a batch; waits on a timer, not on the thread, while another process writes. */
  private openBatch(): Promise<void> {
    this.opening ??= this.begin().finally(() => (this.opening = null));
    return this.opening;
  }

  private async begin(): Promise<void> {
    const deadline = Date.now() + this.busyTimeoutMs;
    for (let delay = 1; ; delay = Math.min(delay * 2, 20)) {
      if (this.batch || this.tryBegin()) return;
      if (Date.now() >= deadline) throw busyError();
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  private tryBegin(): boolean {
    // SQLite's own busy handler would sleep on this thread, stalling every request (and,
    // with two stores in one process, never letting the other one commit).
    this.database.pragma('busy_timeout = 0');
    try {
      this.database.exec('BEGIN IMMEDIATE');
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return false;
      throw error;
    } finally {
      this.database.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    }
    this.batch = [];
    setImmediate(() => this.commitWhenFree());
    return true;
  }

  private joinBatch(): Promise<void> {
    this.stats.writes++;
    const batch = this.batch;
    if (!batch) return Promise.reject(new Error('SQLite write outside a batch'));
    return new Promise<void>((resolve, reject) => batch.push({ resolve, reject }));
  }

  /** A transaction in progress keeps the batch open until it ends (see releaseOwner). */
  private commitWhenFree(): void {
    if (this.owner) {
      this.commitAfterOwner = true;
      return;
    }
    this.commitBatch();
  }

  private commitBatch(): void {
    const waiters = this.batch;
    if (!waiters) return;
    this.batch = null;
    try {
      this.database.exec('COMMIT');
      this.stats.commits++;
    } catch (error) {
      if (this.database.inTransaction) {
        try {
          this.database.exec('ROLLBACK');
        } catch {
          // The rollback's own failure adds nothing to the commit's.
        }
      }
      for (const waiter of waiters) waiter.reject(error);
      return;
    }
    for (const waiter of waiters) waiter.resolve();
  }

  /** After an error that made SQLite roll the whole transaction back, the batch's writes are lost: say so to each. */
  private abandonIfRolledBack(error: unknown): void {
    if (!this.batch || this.database.inTransaction) return;
    const waiters = this.batch;
    this.batch = null;
    for (const waiter of waiters) waiter.reject(error);
  }

  private releaseOwner(): void {
    this.owner = null;
    this.ownerReleased = null;
    const wake = this.wakeWaiters;
    this.wakeWaiters = null;
    wake?.();
    if (this.commitAfterOwner) {
      this.commitAfterOwner = false;
      // After the woken queries have run, so they can still join this batch.
      setImmediate(() => this.commitWhenFree());
    }
  }
}

function busyError(): Error {
  return Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
}

class GroupCommitConnection implements DatabaseConnection {
  constructor(private readonly driver: GroupCommitSqliteDriver) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, compiledQuery) as Promise<QueryResult<R>>;
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The SQLite store does not stream queries.');
  }
}

/** Kysely's SQLite dialect with the group-commit driver. */
export function groupCommitSqliteDialect(
  database: Database.Database,
  options: { busyTimeoutMs?: number; onDriver?: (driver: GroupCommitSqliteDriver) => void } = {},
): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => {
      const driver = new GroupCommitSqliteDriver(database, options.busyTimeoutMs ?? BUSY_WAIT_MS);
      options.onDriver?.(driver);
      return driver;
    },
    createIntrospector: (db: Kysely<any>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}

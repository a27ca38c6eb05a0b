/**
 * @module scripts/realtime-cost/counting
 * Counts the SQL statements a process sends, below Kysely, by wrapping the
 * two drivers' own methods (node-postgres `Client.query`, better-sqlite3's
 * statements), so that any checkout of Foyer can be counted without
 * changing its code. Transaction control (BEGIN, COMMIT, SAVEPOINT, …) is
 * counted apart from the statements that read or write data.
 */
import Database from 'better-sqlite3';
import pg from 'pg';

export interface Counts {
  /** SELECT, INSERT, UPDATE, DELETE (and WITH …) statements. */
  statements: number;
  /** Rows those statements returned. */
  rows: number;
  /** Transactions opened (BEGIN; a SAVEPOINT is a nested one). */
  transactions: number;
}

const counts: Counts = { statements: 0, rows: 0, transactions: 0 };
const CONTROL = /^\s*(begin|commit|rollback|savepoint|release|end|start transaction|pragma)\b/i;
const OPENS = /^\s*(begin|savepoint|start transaction)\b/i;

function counted(sql: string): boolean {
  if (OPENS.test(sql)) counts.transactions++;
  if (CONTROL.test(sql)) return false;
  counts.statements++;
  return true;
}

function rowsOf(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  const rows = (result as { rows?: unknown[] } | undefined)?.rows;
  return Array.isArray(rows) ? rows.length : 0;
}

let installed = false;

/** Wraps the drivers once per process; every later query of either database is counted. */
export function installCounting(): void {
  if (installed) return;
  installed = true;

  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const sql = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
    const data = counted(sql);
    const result = query.apply(this, args);
    if (data && result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then((r) => (counts.rows += rowsOf(r)), () => {});
    }
    return result;
  } as typeof pg.Client.prototype.query;

  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['all', 'get', 'run', 'iterate'] as const) {
    const original = statement[method]!;
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      const data = counted(this.source);
      const result = original.apply(this, args);
      if (data && method !== 'run') counts.rows += method === 'get' ? (result === undefined ? 0 : 1) : rowsOf(result);
      return result;
    };
  }
  const exec = Database.prototype.exec;
  Database.prototype.exec = function (this: Database.Database, sql: string) {
    counted(sql);
    return exec.call(this, sql);
  };
}

/** The counts so far (a copy). */
export function snapshot(): Counts {
  return { ...counts };
}

export function difference(later: Counts, earlier: Counts): Counts {
  return { statements: later.statements - earlier.statements, rows: later.rows - earlier.rows, transactions: later.transactions - earlier.transactions };
}

/**
 * @module test/support/databases
 * Fresh databases for tests: an in-memory SQLite store, and a PostgreSQL
 * database created per call on the local server and dropped afterwards.
 * A migrated PostgreSQL database is a copy of a template migrated once
 * per set of migrations (its name carries a hash of their source):
 * copying a database is cheaper than migrating one, and a run makes
 * hundreds of them.
 *
 * PostgreSQL is found at TEST_POSTGRES_URL (default
 * postgres://127.0.0.1:5432/test, as the current OS user). When it cannot
 * be reached the PostgreSQL entries carry a `skip` reason for node:test,
 * except under CI=true, where that is an error: CI must run both storages.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/store/open.ts';
import { withDefaultUser } from '../../src/store/postgres.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface TestDatabase {
  /** DATABASE_URL of this database. */
  url: string;
  /** Open and migrated. */
  store: StoreConnection;
  /** Closes the store and removes the database. */
  dispose(): Promise<void>;
}

export interface TestDatabaseFactory {
  name: DatabaseKind;
  /** Reason to skip, for node:test's `{ skip }`; undefined when usable. */
  skip: string | undefined;
  open(): Promise<TestDatabase>;
}

export interface FreshDatabaseUrl {
  url: string;
  /** Removes the database (drop / delete file). Close any store on it first. */
  dispose(): Promise<void>;
}

const ADMIN_URL = withDefaultUser(process.env.TEST_POSTGRES_URL ?? 'postgres://127.0.0.1:5432/test');

let probe: Promise<string | undefined> | undefined;

/** Resolves to a reason when PostgreSQL is unusable; throws instead under CI=true. */
export function postgresSkipReason(): Promise<string | undefined> {
  probe ??= (async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return undefined;
    } catch (error) {
      const reason = `PostgreSQL not reachable at ${redact(ADMIN_URL)}: ${(error as Error).message}`;
      if (process.env.CI === 'true') throw new Error(`${reason} (CI=true requires the PostgreSQL suite)`);
      console.log(`# skipping PostgreSQL tests: ${reason}`);
      return reason;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return probe;
}

/** Both storages; the PostgreSQL entry has `skip` set when the server is absent (never under CI=true). */
export async function testDatabases(): Promise<TestDatabaseFactory[]> {
  const pgSkip = await postgresSkipReason();
  return [
    { name: 'sqlite', skip: undefined, open: () => openTestDatabase('sqlite') },
    { name: 'postgres', skip: pgSkip, open: () => openTestDatabase('postgres') },
  ];
}

/** A fresh, migrated store. SQLite is in memory: it dies with the store. */
export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const fresh: FreshDatabaseUrl =
    kind === 'sqlite' ? { url: 'sqlite::memory:', dispose: async () => {} } : await freshDatabaseUrl('postgres', { migrated: true });
  let store: StoreConnection;
  try {
    store = await openStore(fresh.url, { migrate: true });
  } catch (error) {
    await fresh.dispose();
    throw error;
  }
  return {
    url: fresh.url,
    store,
    async dispose() {
      await store.close();
      await fresh.dispose();
    },
  };
}

/**
 * An empty, unmigrated database for a test that starts the real server (or
 * CLI) as a separate process with DATABASE_URL (`migrated`: PostgreSQL
 * only, a copy of the migrated template). SQLite gets a file in a new
 * temporary directory, since an in-memory database cannot be shared.
 */
export async function freshDatabaseUrl(kind: DatabaseKind, { migrated = false } = {}): Promise<FreshDatabaseUrl> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'foyer-test-'));
    return {
      url: `sqlite:${join(dir, 'foyer.db')}`,
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const reason = await postgresSkipReason();
  if (reason !== undefined) throw new Error(reason);
  const name = `foyer_t_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}${migrated ? ` TEMPLATE ${await migratedTemplate()}` : ''}`);
  return {
    url: databaseUrl(name),
    // FORCE ends connections a crashed or still-running test left behind.
    dispose: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Held while a process looks for, or makes, the template: the test processes of a run start side by side. */
const TEMPLATE_LOCK = 0x466f796572;
let template: Promise<string> | undefined;

/** The migrations' source files (the bundle's copy of their code differs from one bundle to the next). */
const MIGRATIONS = new URL('../../src/store/migrations/', import.meta.url);

/**
 * The name of a database migrated with the migrations of this checkout, made by the first process that needs it.
 * Every migrated test database is a copy: a test still migrates its copy, which finds nothing left to do. Templates
 * of other migrations stay (another checkout's run may be copying one): `DROP DATABASE` them by hand.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const hash = createHash('sha256');
    for (const file of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort()) {
      hash.update(`${file}\n${readFileSync(new URL(file, MIGRATIONS), 'utf8')}\n`);
    }
    const name = `foyer_template_${hash.digest('hex').slice(0, 16)}`;
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const found = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'foyer\\_template\\_%' OR datname LIKE 'foyer\\_making\\_%'");
      if (found.rows.some((r) => r.datname === name)) return name;
      // One being made now would hold the lock: these were left by a process that died making them.
      for (const { datname } of found.rows.filter((r) => r.datname.startsWith('foyer_making_'))) {
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`).catch(() => {});
      }
      // Made under another name and renamed once migrated: a process that fails halfway leaves no template.
      const making = `foyer_making_${randomBytes(6).toString('hex')}`;
      await client.query(`CREATE DATABASE ${making}`);
      try {
        const store = await openStore(databaseUrl(making), { migrate: true });
        await store.close();
        await client.query(`ALTER DATABASE ${making} RENAME TO ${name}`);
      } catch (error) {
        await client.query(`DROP DATABASE IF EXISTS ${making} WITH (FORCE)`).catch(() => {});
        throw error;
      }
      return name;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => {});
      await client.end().catch(() => {});
    }
  })();
  template.catch(() => (template = undefined));
  return template;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid TEST_POSTGRES_URL)';
  }
}

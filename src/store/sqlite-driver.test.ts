/**
 * The group-commit SQLite driver: durability before a write's promise
 * settles, shared commits, failures that stay alone, transactions that
 * exclude everyone else, and lock waits that do not stall the event loop.
 * A second better-sqlite3 connection plays "another process": it sees
 * only what was committed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { groupCommitSqliteDialect, type GroupCommitSqliteDriver } from './sqlite-driver.ts';

interface Schema {
  items: { id: string; note: string };
}

describe('SQLite group-commit driver', () => {
  let dir: string;
  let file: string;
  let db: Kysely<Schema>;
  let driver: GroupCommitSqliteDriver;
  let other: Database.Database;

  const committed = (id: string) => other.prepare('select count(*) as n from items where id = ?').get(id) as { n: number };
  const insert = (id: string) => db.insertInto('items').values({ id, note: 'x' }).execute();

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'foyer-driver-'));
    file = join(dir, 'test.db');
    const setup = new Database(file);
    setup.pragma('journal_mode = WAL');
    setup.exec('create table items (id text primary key, note text not null)');
    setup.close();
    const database = new Database(file);
    database.pragma('synchronous = FULL');
    database.pragma('busy_timeout = 5000');
    db = new Kysely<Schema>({
      dialect: groupCommitSqliteDialect(database, { busyTimeoutMs: 300, onDriver: (d) => (driver = d) }),
    });
    other = new Database(file);
  });

  after(async () => {
    await db.destroy();
    other.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("settles each write's promise only once its commit is visible to another connection", async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `durable-${i}`);
    const seenWhenSettled = await Promise.all(ids.map((id) => insert(id).then(() => committed(id).n)));
    assert.deepEqual(seenWhenSettled, ids.map(() => 1));
  });

  it('makes concurrent writes share one commit', async () => {
    const before = { ...driver.stats };
    await Promise.all(Array.from({ length: 50 }, (_, i) => insert(`shared-${i}`)));
    assert.equal(driver.stats.writes - before.writes, 50);
    assert.ok(driver.stats.commits - before.commits <= 2, `${driver.stats.commits - before.commits} commits for 50 writes`);
  });

  it('treats INSERT … RETURNING as a write that waits for its commit', async () => {
    const row = await db.insertInto('items').values({ id: 'returning-1', note: 'r' }).returningAll().executeTakeFirstOrThrow();
    assert.equal(row.id, 'returning-1');
    assert.equal(committed('returning-1').n, 1);
  });

  it('fails a write alone when it violates a constraint, and commits the rest of its batch', async () => {
    await insert('taken');
    const results = await Promise.allSettled([insert('batch-a'), insert('taken'), insert('batch-b')]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE/);
    assert.equal(committed('batch-a').n, 1);
    assert.equal(committed('batch-b').n, 1);
  });

  it('keeps other writes out of a transaction, which rolls back alone', async () => {
    let outside: Promise<unknown> | undefined;
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ id: 'tx-1', note: 't' }).execute();
        // Another request writes while the transaction waits on something.
        outside = insert('outside-tx');
        await new Promise((resolve) => setTimeout(resolve, 20));
        await trx.insertInto('items').values({ id: 'tx-2', note: 't' }).execute();
        throw new Error('abort');
      }),
      /abort/,
    );
    await outside;
    assert.equal(committed('tx-1').n, 0);
    assert.equal(committed('tx-2').n, 0);
    assert.equal(committed('outside-tx').n, 1);
  });

  it('holds the batch open, without spinning, while a transaction waits, and commits it after', async () => {
    const commits = driver.stats.commits;
    let waitCpuMs = 0;
    const outside = insert('during-tx');
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 'slow-tx', note: 't' }).execute();
      const cpu = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const used = process.cpuUsage(cpu);
      waitCpuMs = (used.user + used.system) / 1000;
    });
    await outside;
    assert.equal(committed('slow-tx').n + committed('during-tx').n, 2);
    assert.ok(driver.stats.commits - commits <= 2, 'one batch for both');
    // A batch re-checking on every event-loop turn would burn this whole wait on the CPU.
    assert.ok(waitCpuMs < 40, `${waitCpuMs.toFixed(1)} ms of CPU during a 100 ms wait`);
  });

  it('commits a transaction durably before its promise settles', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 'tx-ok-1', note: 't' }).execute();
      await trx.insertInto('items').values({ id: 'tx-ok-2', note: 't' }).execute();
    });
    assert.equal(committed('tx-ok-1').n + committed('tx-ok-2').n, 2);
  });

  it("waits for another process's write lock without stalling the event loop", async () => {
    // Were the wait SQLite's own busy handler, this thread would sleep in it:
    // the read below could not run, nor the timer that releases the lock.
    other.exec('BEGIN IMMEDIATE');
    const events: string[] = [];
    try {
      const write = insert('after-lock').then(() => events.push('write committed'));
      const read = db.selectFrom('items').select('id').where('id', '=', 'taken').execute().then(() => events.push('read'));
      await new Promise((resolve) => setTimeout(resolve, 60));
      events.push('lock released');
      other.exec('COMMIT');
      await Promise.all([write, read]);
      assert.deepEqual(events, ['read', 'lock released', 'write committed']);
      assert.equal(committed('after-lock').n, 1);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
    }
  });

  it('gives up with SQLITE_BUSY when the lock stays taken past the busy timeout', async () => {
    other.exec('BEGIN IMMEDIATE');
    try {
      await assert.rejects(insert('never'), (error: { code?: string }) => error.code === 'SQLITE_BUSY');
    } finally {
      other.exec('ROLLBACK');
    }
    await insert('after-busy');
    assert.equal(committed('after-busy').n, 1);
  });
});

/**
 * Units of work, nested: a command called inside another joins its
 * transaction, and a command that retries (a colliding short code) does
 * so only as the outermost unit of work. A conflict inside a nested call
 * is retried once, at the top: the whole outer work runs again in a new
 * transaction, its first attempt's writes and events undone. On both
 * databases: on PostgreSQL a failed statement ends the transaction, so a
 * retry inside it could not work at all.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createContext } from '../../src/context.ts';
import { operatorActor, type Actor } from '../../src/domain/actors.ts';
import { transact, type DomainContext } from '../../src/domain/context.ts';
import { ConflictError } from '../../src/domain/errors.ts';
import type { DomainEvent } from '../../src/domain/events.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { createOrganization } from '../../src/domain/organizations.ts';
import type { Store } from '../../src/domain/ports/store.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';

for (const database of await testDatabases()) {
  describe(`units of work on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let ctx: DomainContext;
    let operator: Actor;
    const events: DomainEvent[] = [];

    beforeEach(async () => {
      db = await database.open();
      ctx = await createContext({ databaseUrl: db.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: 'test' }, { store: db.store });
      ctx.events.subscribe((event) => events.push(event));
      operator = operatorActor(await createOrganization(ctx, { name: 'Acme', type: 'basic', slug: `acme-${randomUUID().slice(0, 8)}` }));
      events.length = 0;
    });
    afterEach(() => db.dispose());

    /** The store, except that the first meeting inserted in any transaction really collides with `takenCode`. */
    const collidingOnce = (takenCode: string) => {
      let collisions = 0;
      const store: Store = Object.create(db.store, {
        transaction: {
          value: <T>(work: (tx: Store) => Promise<T>) =>
            db.store.transaction((tx) => {
              const colliding: Store = Object.create(tx, {
                insertMeeting: { value: (meeting: Parameters<Store['insertMeeting']>[0]) => tx.insertMeeting(collisions++ === 0 ? { ...meeting, shortCode: takenCode } : meeting) },
              });
              return work(colliding);
            }),
        },
      });
      return { store, collisions: () => collisions };
    };

    it('retries a conflict inside a nested call once, at the top, undoing the first attempt', async () => {
      const taken = await createMeeting(ctx, operator, { queryParameters: { lang: 'de' } });
      assert.ok(taken.shortCode);
      const { store, collisions } = collidingOnce(taken.shortCode);
      let outerRuns = 0;
      const slug = `desk-${randomUUID().slice(0, 8)}`;
      const made = await transact({ ...ctx, store }, async (tx) => {
        outerRuns++;
        // A write of the outer unit before the nested command: a second attempt would collide with it unless the first was undone.
        await createRoom(tx, operator, { slug });
        return createMeeting(tx, operator, { queryParameters: { lang: 'en' } });
      });
      assert.equal(outerRuns, 2, 'the outer work ran again');
      assert.equal(collisions(), 2, 'the meeting was inserted once per attempt');
      assert.notEqual(made.shortCode, taken.shortCode);
      assert.equal((await db.store.findMeeting(made.organizationId, made.id))?.shortCode, made.shortCode);
      assert.ok(await db.store.findRoom(operator.organization.id, slug));
      assert.deepEqual(
        events.map((e) => e.type),
        ['meeting.created', 'meeting.created'],
        'the taken one, then the made one: the failed attempt raised nothing',
      );
    });

    it('does not retry what no command asked to retry, and retries a lone command in its own unit', async () => {
      const taken = await createMeeting(ctx, operator, { queryParameters: { lang: 'de' } });
      const slug = `desk-${randomUUID().slice(0, 8)}`;
      await createRoom(ctx, operator, { slug });
      let runs = 0;
      await assert.rejects(
        transact(ctx, async (tx) => {
          runs++;
          await createRoom(tx, operator, { slug });
        }),
        ConflictError,
      );
      assert.equal(runs, 1);
      const { store, collisions } = collidingOnce(taken.shortCode!);
      const alone = await createMeeting({ ...ctx, store }, operator, { queryParameters: { lang: 'en' } });
      assert.equal(collisions(), 2);
      assert.notEqual(alone.shortCode, taken.shortCode);
    });
  });
}

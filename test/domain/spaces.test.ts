/**
 * The rules of boards and queues that the domain owns, on both storages:
 * who may be a member, the state a new member starts in and the state a
 * kept member keeps, and that queues never have a waiting list.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createContext } from '../../src/context.ts';
import { operatorActor, type Actor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { addUser, createOrganization } from '../../src/domain/organizations.ts';
import { createSpace, getSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { User } from '../../src/domain/types.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';

async function assertMembersRejected(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ValidationError, `expected ValidationError, got ${String(error)}`);
    assert.equal(error.fieldErrors[0]?.field, 'memberIds');
    return true;
  });
}

for (const database of await testDatabases()) {
  describe(`board and queue rules on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let ctx: DomainContext;
    let acme: Actor;
    let ann: User;
    let bob: User;
    let stranger: User;
    let clock: number;

    beforeEach(async () => {
      db = await database.open();
      clock = Date.parse('2025-03-01T09:00:00.000Z');
      ctx = await createContext(
        { databaseUrl: db.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: 'test' },
        { store: db.store, now: () => new Date(clock) },
      );
      const slug = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
      acme = operatorActor(await createOrganization(ctx, { name: 'Acme', type: 'basic', slug: slug('acme') }));
      const other = operatorActor(await createOrganization(ctx, { name: 'Other', type: 'basic', slug: slug('other') }));
      ann = await addUser(ctx, acme, { email: 'ann@acme.test', fullName: 'Ann Lee' });
      bob = await addUser(ctx, acme, { email: 'bob@acme.test', fullName: 'Bob Roe' });
      stranger = await addUser(ctx, other, { email: 'zed@other.test', fullName: 'Zed' });
    });
    afterEach(() => db.dispose());

    it('replaces members in order; new ones start active, not auto-accepting, not in a call', async () => {
      const board = await createSpace(ctx, acme, 'board', { name: 'Cardiology', slug: `card-${randomUUID().slice(0, 8)}` });
      const updated = await updateSpace(ctx, acme, 'board', board.id, { memberIds: [bob.id, ann.id] });
      assert.deepEqual(updated.members, [
        { userId: bob.id, fullName: 'Bob Roe', isActive: true, isAutoAccepting: false, joinedCallAt: null },
        { userId: ann.id, fullName: 'Ann Lee', isActive: true, isAutoAccepting: false, joinedCallAt: null },
      ]);
      assert.deepEqual((await updateSpace(ctx, acme, 'board', board.id, { memberIds: [] })).members, []);
    });

    it('keeps the state of members kept across a replacement', async () => {
      const cid = await addUser(ctx, acme, { email: 'cid@acme.test', fullName: 'Cid Poe' });
      const queue = await createSpace(ctx, acme, 'queue', { name: 'Walk-in', slug: `walk-${randomUUID().slice(0, 8)}` });
      await updateSpace(ctx, acme, 'queue', queue.id, { memberIds: [ann.id, bob.id] });
      // The waiting list changes a member's live state.
      const joinedCallAt = new Date(clock + 42);
      await db.store.setMemberStatus(queue.id, ann.id, { isActive: false, isAutoAccepting: true });
      await db.store.setMemberCallStarted(queue.id, ann.id, joinedCallAt);
      const updated = await updateSpace(ctx, acme, 'queue', queue.id, { memberIds: [cid.id, ann.id] });
      assert.deepEqual(updated.members, [
        { userId: cid.id, fullName: 'Cid Poe', isActive: true, isAutoAccepting: false, joinedCallAt: null },
        { userId: ann.id, fullName: 'Ann Lee', isActive: false, isAutoAccepting: true, joinedCallAt },
      ]);
    });

    it('refuses members from another organization, unknown or repeated, and changes nothing', async () => {
      const board = await createSpace(ctx, acme, 'board', { name: 'Cardiology', slug: `card-${randomUUID().slice(0, 8)}` });
      await updateSpace(ctx, acme, 'board', board.id, { memberIds: [ann.id] });
      const before = await getSpace(ctx, acme, 'board', board.id);
      await assertMembersRejected(updateSpace(ctx, acme, 'board', board.id, { memberIds: [stranger.id], name: 'X' }));
      await assertMembersRejected(updateSpace(ctx, acme, 'board', board.id, { memberIds: [randomUUID()] }));
      await assertMembersRejected(updateSpace(ctx, acme, 'board', board.id, { memberIds: [ann.id, ann.id] }));
      assert.deepEqual(await getSpace(ctx, acme, 'board', board.id), before);
    });

    it('never gives a queue a waiting list, on creation or update', async () => {
      const slug = `walk-${randomUUID().slice(0, 8)}`;
      const queue = await createSpace(ctx, acme, 'queue', { name: 'Walk-in', slug, hasWaitingList: true });
      assert.equal(queue.hasWaitingList, false);
      assert.equal((await updateSpace(ctx, acme, 'queue', queue.id, { hasWaitingList: true })).hasWaitingList, false);
      assert.equal((await getSpace(ctx, acme, 'queue', queue.id)).hasWaitingList, false);
    });
  });
}

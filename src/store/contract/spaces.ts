/**
 * @module store/contract/spaces
 * The storage contract: boards and queues with their members.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import { assertConflict, later, member, org, room, seed, space, user, type ContractEnv } from './fixtures.ts';

export function spacesContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  describe('boards and queues', () => {
    it('round-trips a board and a queue', async () => {
      const { o } = await seed(store);
      const b = space(o.id, 'board', { isActive: false, closingMessage: null });
      const q = space(o.id, 'queue');
      await store.insertSpace(b);
      await store.insertSpace(q);
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), b);
      assert.deepEqual(await store.findSpace(o.id, 'queue', q.id), q);
    });

    it('does not find a board as a queue, or a space of another organization', async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      assert.equal(await store.findSpace(o.id, 'queue', b.id), undefined);
      assert.equal(await store.findSpace(other.id, 'board', b.id), undefined);
      assert.equal(await store.updateSpace(other.id, 'board', b.id, { name: 'x' }, later(1)), undefined);
      assert.equal(await store.deleteSpace(other.id, 'board', b.id), undefined);
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), b);
    });

    it('applies a patch of plain fields and bumps updatedAt', async () => {
      const { o } = await seed(store);
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      const updated = await store.updateSpace(
        o.id,
        'board',
        b.id,
        { name: 'Renamed', closingMessage: null, isActive: false, hasWaitingList: false },
        later(500),
      );
      const expected = { ...b, name: 'Renamed', closingMessage: null, isActive: false, hasWaitingList: false, updatedAt: later(500) };
      assert.deepEqual(updated, expected);
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), expected);
    });

    it('changes a slug, freeing the old one and taking the new one', async () => {
      const { o } = await seed(store);
      const q = space(o.id, 'queue');
      await store.insertSpace(q);
      const updated = await store.updateSpace(o.id, 'queue', q.id, { slug: 'new-queue-slug' }, later(1));
      assert.equal(updated?.slug, 'new-queue-slug');
      await store.insertRoom(room(o.id, { slug: q.slug }));
      await assertConflict(store.insertRoom(room(o.id, { slug: 'new-queue-slug' })), 'slug');
    });

    it('refuses a slug change to a taken slug and changes nothing', async () => {
      const { o } = await seed(store);
      const r = room(o.id);
      const b = space(o.id, 'board');
      await store.insertRoom(r);
      await store.insertSpace(b);
      await assertConflict(store.updateSpace(o.id, 'board', b.id, { slug: r.slug, name: 'Changed' }, later(1)), 'slug');
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), b);
      // The board still holds its own slug.
      await assertConflict(store.insertRoom(room(o.id, { slug: b.slug })), 'slug');
    });

    it('replaces members in the order and with the states given', async () => {
      const { o, ann, bob } = await seed(store);
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      const updated = await store.updateSpace(
        o.id,
        'board',
        b.id,
        { members: [member(bob.id), member(ann.id, { isActive: false, isAutoAccepting: true, joinedCallAt: later(42) })] },
        later(1),
      );
      assert.deepEqual(updated?.members, [
        { userId: bob.id, fullName: 'Bob Roe', isActive: true, isAutoAccepting: false, joinedCallAt: null },
        { userId: ann.id, fullName: 'Ann Lee', isActive: false, isAutoAccepting: true, joinedCallAt: later(42) },
      ]);
      assert.deepEqual((await store.findSpace(o.id, 'board', b.id))?.members, updated?.members);
      const cleared = await store.updateSpace(o.id, 'board', b.id, { members: [] }, later(2));
      assert.deepEqual(cleared?.members, []);
    });

    it('stores the members a space is created with', async () => {
      const { o, ann, bob } = await seed(store);
      const q = space(o.id, 'queue', {
        members: [
          { userId: ann.id, fullName: ann.fullName, isActive: false, isAutoAccepting: true, joinedCallAt: later(42) },
          { userId: bob.id, fullName: bob.fullName, isActive: true, isAutoAccepting: false, joinedCallAt: null },
        ],
      });
      await store.insertSpace(q);
      assert.deepEqual((await store.findSpace(o.id, 'queue', q.id))?.members, q.members);
    });

    it('refuses a member listed twice and changes nothing', async () => {
      const { o, ann } = await seed(store);
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      await store.updateSpace(o.id, 'board', b.id, { members: [member(ann.id)] }, later(1));
      const before = await store.findSpace(o.id, 'board', b.id);
      await assertConflict(store.updateSpace(o.id, 'board', b.id, { members: [member(ann.id), member(ann.id)], name: 'X' }, later(2)), 'memberIds');
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), before);
    });

    it('deletes a space, returning it and freeing its slug', async () => {
      const { o, ann } = await seed(store);
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      const withMember = await store.updateSpace(o.id, 'board', b.id, { members: [member(ann.id)] }, later(1));
      assert.deepEqual(await store.deleteSpace(o.id, 'board', b.id), withMember);
      assert.equal(await store.findSpace(o.id, 'board', b.id), undefined);
      assert.equal(await store.deleteSpace(o.id, 'board', b.id), undefined);
      await store.insertSpace(space(o.id, 'queue', { slug: b.slug }));
      // The member's user is untouched.
      assert.deepEqual(await store.findUserByEmail(o.id, ann.email), ann);
    });
  });
}

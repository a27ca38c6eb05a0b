/**
 * @module store/contract/lists
 * The storage contract: an organization's meetings, rooms, boards and
 * queues listed newest first, in pages that continue after a cursor.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import { later, meeting, member, org, room, seed, space, type ContractEnv } from './fixtures.ts';

const ids = (list: Array<{ id: string }>) => list.map((o) => o.id);
const sortedNewestFirst = <T extends { id: string; createdAt: Date }>(list: T[]) =>
  [...list].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));

export function listsContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  describe('lists', () => {
    it("lists an organization's meetings newest first, deleted ones marked, another organization's left out", async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const made = [meeting(o.id, { createdAt: later(10) }), meeting(o.id, { createdAt: later(30) }), meeting(o.id, { createdAt: later(20) })];
      for (const m of made) await store.insertMeeting(m);
      await store.insertMeeting(meeting(other.id, { createdAt: later(40) }));
      await store.deleteMeeting(o.id, made[0]!.id, later(50));

      const listed = await store.listMeetings(o.id, { limit: 10 });
      assert.deepEqual(ids(listed), [made[1]!.id, made[2]!.id, made[0]!.id]);
      assert.deepEqual(listed[0], made[1]);
      assert.deepEqual(listed[2]!.deletedAt, later(50));
    });

    it('pages through meetings made in the same millisecond without repeating or skipping one', async () => {
      const { o } = await seed(store);
      const made = Array.from({ length: 7 }, (_, i) => meeting(o.id, { createdAt: later(i < 4 ? 5 : 9) }));
      for (const m of made) await store.insertMeeting(m);
      const seen: string[] = [];
      let before: { createdAt: Date; id: string } | undefined;
      for (;;) {
        const page = await store.listMeetings(o.id, { limit: 3, before });
        seen.push(...ids(page));
        if (page.length < 3) break;
        const last = page[page.length - 1]!;
        before = { createdAt: last.createdAt, id: last.id };
      }
      assert.deepEqual(seen, ids(sortedNewestFirst(made)));
    });

    it("lists an organization's rooms newest first, in pages", async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const made = [room(o.id, { createdAt: later(3) }), room(o.id, { createdAt: later(1) }), room(o.id, { createdAt: later(2) })];
      for (const r of made) await store.insertRoom(r);
      await store.insertRoom(room(other.id, { createdAt: later(9) }));
      const first = await store.listRooms(o.id, { limit: 2 });
      assert.deepEqual(first, [made[0], made[2]]);
      const rest = await store.listRooms(o.id, { limit: 2, before: { createdAt: made[2]!.createdAt, id: made[2]!.id } });
      assert.deepEqual(rest, [made[1]]);
    });

    it('lists boards and queues apart, newest first, each with its members in order', async () => {
      const { o, ann, bob } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const older = space(o.id, 'board', { createdAt: later(1), updatedAt: later(1) });
      const newer = space(o.id, 'board', { createdAt: later(2), updatedAt: later(2) });
      const queue = space(o.id, 'queue', { createdAt: later(3), updatedAt: later(3) });
      await store.insertSpace(older);
      await store.insertSpace(newer);
      await store.insertSpace(queue);
      await store.insertSpace(space(other.id, 'board', { createdAt: later(4) }));
      const withMembers = await store.updateSpace(o.id, 'board', older.id, { members: [member(bob.id), member(ann.id, { isActive: false })] }, later(1));

      assert.deepEqual(await store.listSpaces(o.id, 'board', { limit: 10 }), [newer, withMembers]);
      assert.deepEqual(await store.listSpaces(o.id, 'queue', { limit: 10 }), [queue]);
      assert.deepEqual(await store.listSpaces(o.id, 'board', { limit: 1, before: { createdAt: newer.createdAt, id: newer.id } }), [withMembers]);
      assert.deepEqual(await store.listSpaces(other.id, 'queue', { limit: 10 }), []);
    });
  });
}

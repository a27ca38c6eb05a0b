/**
 * @module store/contract/places
 * The storage contract: meetings, rooms and the shared slug namespace.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import { assertConflict, later, meeting, org, room, seed, space, type ContractEnv } from './fixtures.ts';

export function placesContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  describe('meetings', () => {
    it('round-trips a meeting with dates, booleans and query parameters', async () => {
      const { o, ann } = await seed(store);
      const m = meeting(o.id, {
        ownerUserId: ann.id,
        isInfinite: true,
        queryParameters: { lang: 'en', volume: 7, muted: true },
        shortCode: 'Ab3dE9xZ',
        closesAt: null,
        closedAt: later(1000),
      });
      await store.insertMeeting(m);
      const found = await store.findMeeting(o.id, m.id);
      assert.deepEqual(found, m);
      assert.ok(found?.createdAt instanceof Date);
      assert.deepEqual(await store.live.findMeetingRecord({ id: m.id }), m);
      assert.deepEqual(await store.live.findMeetingRecord({ shortCode: 'Ab3dE9xZ' }), m);
      assert.equal(await store.live.findMeetingRecord({ shortCode: 'ab3de9xz' }), undefined);
    });

    it('round-trips a plain consultation', async () => {
      const { o } = await seed(store);
      const m = meeting(o.id, { type: 'CONSULTATION' });
      await store.insertMeeting(m);
      assert.deepEqual(await store.findMeeting(o.id, m.id), m);
    });

    it("does not find another organization's meeting", async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const m = meeting(o.id);
      await store.insertMeeting(m);
      assert.equal(await store.findMeeting(other.id, m.id), undefined);
      assert.equal(await store.deleteMeeting(other.id, m.id, later(1)), undefined);
      assert.deepEqual(await store.findMeeting(o.id, m.id), m);
    });

    it('refuses a taken meeting id, even across organizations', async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const m = meeting(o.id);
      await store.insertMeeting(m);
      await assertConflict(store.insertMeeting(meeting(other.id, { id: m.id })), 'id', 'A meeting with this id already exists.');
    });

    it('refuses a taken short code', async () => {
      const { o } = await seed(store);
      await store.insertMeeting(meeting(o.id, { shortCode: 'code1234', queryParameters: { a: 'b' } }));
      await assertConflict(
        store.insertMeeting(meeting(o.id, { shortCode: 'code1234', queryParameters: { a: 'c' } })),
        'shortCode',
      );
      // Meetings without a short code never collide with each other.
      await store.insertMeeting(meeting(o.id));
      await store.insertMeeting(meeting(o.id));
    });

    it('deletes a meeting: afterwards it is not found, and a second delete finds nothing', async () => {
      const { o } = await seed(store);
      const m = meeting(o.id, { shortCode: 'gone1234', queryParameters: { x: 1 } });
      await store.insertMeeting(m);
      const deleted = await store.deleteMeeting(o.id, m.id, later(60));
      assert.deepEqual(deleted, { ...m, deletedAt: later(60) });
      assert.equal(await store.findMeeting(o.id, m.id), undefined);
      // The meeting pages still find the record, to answer 410 rather than 404.
      assert.deepEqual((await store.live.findMeetingRecord({ id: m.id }))?.deletedAt, later(60));
      assert.deepEqual((await store.live.findMeetingRecord({ shortCode: 'gone1234' }))?.deletedAt, later(60));
      assert.equal(await store.deleteMeeting(o.id, m.id, later(70)), undefined);
      // The id stays taken: links to a deleted meeting must not reach a new one.
      await assertConflict(store.insertMeeting(meeting(o.id, { id: m.id })), 'id');
    });

    it('counts the meetings open at a moment across organizations: not closed, not deleted, deadline not passed', async () => {
      const at = later(60_000);
      const before = await store.countOpenMeetings(at);
      const { o } = await seed(store);
      const { o: other } = await seed(store);
      await store.insertMeeting(meeting(o.id));
      await store.insertMeeting(meeting(other.id, { isInfinite: true, closesAt: null }));
      await store.insertMeeting(meeting(o.id, { closesAt: later(30_000) }));
      await store.insertMeeting(meeting(o.id, { closesAt: null, closedAt: later(1000) }));
      const deleted = meeting(o.id);
      await store.insertMeeting(deleted);
      await store.deleteMeeting(o.id, deleted.id, later(2000));
      assert.equal(await store.countOpenMeetings(at), before + 2);
    });
  });

  describe('rooms and the shared slug namespace', () => {
    it('round-trips rooms with and without a title', async () => {
      const { o } = await seed(store);
      const titled = room(o.id);
      const untitled = room(o.id, { title: null });
      await store.insertRoom(titled);
      await store.insertRoom(untitled);
      assert.deepEqual(await store.findRoom(o.id, titled.slug), titled);
      assert.deepEqual(await store.findRoom(o.id, untitled.slug), untitled);
      assert.deepEqual(await store.live.findSlugPlace(untitled.slug), {
        kind: 'room',
        id: untitled.id,
        organizationId: o.id,
        slug: untitled.slug,
        title: null,
      });
      assert.equal(await store.findRoom(o.id, 'no-such-room'), undefined);
    });

    it("does not find another organization's room", async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const r = room(o.id);
      await store.insertRoom(r);
      assert.equal(await store.findRoom(other.id, r.slug), undefined);
    });

    it('refuses a room slug taken by a room, a board or a queue, in any organization', async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const r = room(o.id);
      const b = space(o.id, 'board');
      const q = space(o.id, 'queue');
      await store.insertRoom(r);
      await store.insertSpace(b);
      await store.insertSpace(q);
      const taken = 'This slug is already taken.';
      await assertConflict(store.insertRoom(room(other.id, { slug: r.slug })), 'slug', taken);
      await assertConflict(store.insertRoom(room(o.id, { slug: b.slug })), 'slug', taken);
      await assertConflict(store.insertRoom(room(o.id, { slug: q.slug })), 'slug', taken);
      await assertConflict(store.insertSpace(space(o.id, 'board', { slug: r.slug })), 'slug', taken);
      await assertConflict(store.insertSpace(space(o.id, 'queue', { slug: b.slug })), 'slug', taken);
      await assertConflict(store.insertSpace(space(other.id, 'board', { slug: q.slug })), 'slug', taken);
    });

    it('leaves nothing behind when an insert fails on its slug', async () => {
      const { o } = await seed(store);
      const r = room(o.id);
      await store.insertRoom(r);
      const clash = space(o.id, 'board', { slug: r.slug });
      await assertConflict(store.insertSpace(clash), 'slug');
      assert.equal(await store.findSpace(o.id, 'board', clash.id), undefined);
    });

    it('keeps a slug given up reserved to its organization: taken as conflict by anyone else, back by the same organization', async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const q = space(o.id, 'queue');
      await store.insertSpace(q);
      const until = later(90 * 86_400_000);
      await store.updateSpace(o.id, 'queue', q.id, { slug: `${q.slug}-new`, oldSlugReservedUntil: until }, later(1));
      assert.equal(await store.live.findSlugPlace(q.slug), undefined);
      assert.deepEqual(await store.findReleasedSlug(q.slug, later(2)), { slug: q.slug, organizationId: o.id, kind: 'queue', currentSlug: `${q.slug}-new` });
      const taken = 'This slug is already taken.';
      await assertConflict(store.insertRoom(room(other.id, { slug: q.slug })), 'slug', taken);
      await assertConflict(store.insertSpace(space(other.id, 'board', { slug: q.slug })), 'slug', taken);

      // The same organization takes it back, with a room.
      const mine = room(o.id, { slug: q.slug, createdAt: later(3) });
      await store.insertRoom(mine);
      assert.equal(await store.findReleasedSlug(q.slug, later(4)), undefined);
      assert.equal((await store.live.findSlugPlace(q.slug))?.id, mine.id);
    });

    it('says where a renamed place is now, follows it through a second rename, and says ended once it is deleted', async () => {
      const { o } = await seed(store);
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      const until = later(90 * 86_400_000);
      await store.updateSpace(o.id, 'board', b.id, { slug: `${b.slug}-two`, oldSlugReservedUntil: until }, later(1));
      await store.updateSpace(o.id, 'board', b.id, { slug: `${b.slug}-three`, oldSlugReservedUntil: until }, later(2));
      assert.equal((await store.findReleasedSlug(b.slug, later(3)))?.currentSlug, `${b.slug}-three`);
      assert.equal((await store.findReleasedSlug(`${b.slug}-two`, later(3)))?.currentSlug, `${b.slug}-three`);
      await store.deleteSpace(o.id, 'board', b.id, { at: later(4), until });
      for (const slug of [b.slug, `${b.slug}-two`, `${b.slug}-three`]) {
        assert.deepEqual(await store.findReleasedSlug(slug, later(5)), { slug, organizationId: o.id, kind: 'board', currentSlug: null }, slug);
      }
    });

    it('frees a reserved slug for anyone once its reservation has run out', async () => {
      const { o } = await seed(store);
      const other = org();
      await store.insertOrganization(other);
      const q = space(o.id, 'queue');
      await store.insertSpace(q);
      await store.deleteSpace(o.id, 'queue', q.id, { at: later(1), until: later(1000) });
      await assertConflict(store.insertRoom(room(other.id, { slug: q.slug, createdAt: later(999) })), 'slug');
      assert.equal(await store.findReleasedSlug(q.slug, later(1000)), undefined);
      const theirs = room(other.id, { slug: q.slug, createdAt: later(1000) });
      await store.insertRoom(theirs);
      assert.equal((await store.live.findSlugPlace(q.slug))?.organizationId, other.id);
    });
  });
}

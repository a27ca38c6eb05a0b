/**
 * The spec's meeting lifecycle on both storages, with an injected clock:
 * deadlines set at creation, cleared by the first participant, set again
 * when the last one leaves (on any instance), closed exactly once by the
 * sweepers, surviving a crashed instance and a restart; rooms per session.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createContext } from '../../src/context.ts';
import { liveContext, meetingState, retireInstance, sweep, type LiveContext } from '../../src/domain/lifecycle.ts';
import { joinPlace } from '../../src/domain/joining.ts';
import { leavePlace, participantsOf, type JoinTarget } from '../../src/domain/places.ts';
import { createMeeting, deleteMeeting } from '../../src/domain/meetings.ts';
import { createOrganization } from '../../src/domain/organizations.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { Organization } from '../../src/domain/types.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { operatorActor } from '../../src/domain/actors.ts';

const IDLE_S = 60;
const TTL_MS = 10_000;
const T0 = Date.parse('2025-01-01T10:00:00.000Z');

for (const database of await testDatabases()) {
  describe(`meeting lifecycle on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let clock: number;
    let org: Organization;
    const instance = async (instanceId: string): Promise<LiveContext> =>
      liveContext(
        await createContext(
          { databaseUrl: db.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: IDLE_S, secretPepper: 'test' },
          { store: db.store, now: () => new Date(clock) },
        ),
        { instanceId, instanceTtlMs: TTL_MS },
      );
    let a: LiveContext;
    let b: LiveContext;
    const joiner = (name = 'Ann') => ({ id: randomUUID(), displayName: name });
    /** Joins through the one join command; its outcome as entered (with the place) or refused (with the reason). */
    const enterPlace = async (ctx: LiveContext, target: JoinTarget, who: { id: string; displayName: string }) => {
      const outcome = await joinPlace(ctx, { connectionId: who.id, actor: null, guestKey: null, target, name: who.displayName, audio: true, video: true });
      if (outcome.kind === 'entered') return { ok: true as const, place: outcome.place, title: outcome.title };
      return { ok: false as const, reason: outcome.kind === 'refused' ? outcome.reason : 'knocking' };
    };
    const meetingOf = async (id: string) => (await db.store.live.findMeetingRecord({ id }))!;

    beforeEach(async () => {
      db = await database.open();
      clock = T0;
      a = await instance('instance-a');
      b = await instance('instance-b');
      org = await createOrganization(a, { name: 'Acme', type: 'basic', slug: `acme-${randomUUID().slice(0, 8)}` });
      await sweep(a);
      await sweep(b);
    });
    afterEach(async () => {
      await db.dispose();
    });

    it('closes a meeting nobody joined once the idle time after creation has passed, exactly once', async () => {
      const meeting = await createMeeting(a, operatorActor(org), {});
      assert.equal(meeting.closesAt?.getTime(), T0 + IDLE_S * 1000);
      clock = T0 + IDLE_S * 1000 - 1;
      assert.deepEqual((await sweep(a)).closed, []);
      assert.equal(meetingState(await meetingOf(meeting.id), new Date(clock)), 'open');
      clock = T0 + IDLE_S * 1000;
      const [first, second] = await Promise.all([sweep(a), sweep(b)]);
      assert.deepEqual([...first.closed, ...second.closed], [{ kind: 'meeting', id: meeting.id }]);
      const closed = await meetingOf(meeting.id);
      assert.equal(closed.closedAt?.getTime(), T0 + IDLE_S * 1000);
      assert.deepEqual((await sweep(a)).closed, []);
    });

    it('counts a meeting past its deadline as closed before any sweeper ran, and refuses to join it', async () => {
      const meeting = await createMeeting(a, operatorActor(org), {});
      clock = T0 + IDLE_S * 1000 + 5;
      assert.equal(meetingState(await meetingOf(meeting.id), new Date(clock)), 'closed');
      assert.deepEqual(await enterPlace(a, { meetingId: meeting.id }, joiner()), { ok: false, reason: 'closed' });
    });

    it('keeps a meeting open while anyone is present and closes it the idle time after the last one left', async () => {
      const meeting = await createMeeting(a, operatorActor(org), {});
      clock += 5_000;
      const ann = joiner('Ann');
      const bob = joiner('Bob');
      assert.equal((await enterPlace(a, { meetingId: meeting.id }, ann)).ok, true);
      assert.equal((await meetingOf(meeting.id)).closesAt, null);
      clock += 1;
      assert.equal((await enterPlace(b, { meetingId: meeting.id }, bob)).ok, true);
      assert.deepEqual((await participantsOf(a, { kind: 'meeting', id: meeting.id })).map((p) => p.displayName), ['Ann', 'Bob']);

      await sweep(a);
      await sweep(b);
      // Three idle times pass, both instances heartbeating: nothing closes.
      for (let t = 0; t < 3 * IDLE_S * 1000; t += TTL_MS / 2) {
        clock += TTL_MS / 2;
        await sweep(a);
        assert.deepEqual((await sweep(b)).closed, []);
      }
      await leavePlace(a, ann.id);
      assert.equal((await meetingOf(meeting.id)).closesAt, null, 'Bob is still there (on the other instance)');
      clock += 1000;
      const leftAt = clock;
      await leavePlace(b, bob.id);
      assert.equal((await meetingOf(meeting.id)).closesAt?.getTime(), leftAt + IDLE_S * 1000);

      clock = leftAt + IDLE_S * 1000 - 1;
      assert.deepEqual((await sweep(a)).closed, []);
      clock += 1;
      assert.deepEqual((await sweep(b)).closed, [{ kind: 'meeting', id: meeting.id }]);
      assert.deepEqual(await enterPlace(a, { meetingId: meeting.id }, joiner()), { ok: false, reason: 'closed' });
    });

    it('lets someone rejoin during the idle time, which clears the deadline again', async () => {
      const meeting = await createMeeting(a, operatorActor(org), {});
      const ann = joiner();
      await enterPlace(a, { meetingId: meeting.id }, ann);
      await leavePlace(a, ann.id);
      clock += IDLE_S * 1000 - 1;
      assert.equal((await enterPlace(b, { meetingId: meeting.id }, joiner())).ok, true);
      assert.equal((await meetingOf(meeting.id)).closesAt, null);
      clock += IDLE_S * 1000 * 3;
      await sweep(a);
      assert.deepEqual((await sweep(b)).closed, []);
    });

    it('never closes an isInfinite meeting, with or without participants', async () => {
      const meeting = await createMeeting(a, operatorActor(org), { isInfinite: true });
      assert.equal(meeting.closesAt, null);
      clock += IDLE_S * 1000 * 10;
      assert.deepEqual((await sweep(a)).closed, []);
      const ann = joiner();
      assert.equal((await enterPlace(a, { meetingId: meeting.id }, ann)).ok, true);
      await leavePlace(a, ann.id);
      assert.equal((await meetingOf(meeting.id)).closesAt, null);
      clock += IDLE_S * 1000 * 10;
      assert.deepEqual((await sweep(a)).closed, []);
      assert.equal(meetingState(await meetingOf(meeting.id), new Date(clock)), 'open');
    });

    it('refuses to join unknown, malformed and deleted meetings', async () => {
      assert.deepEqual(await enterPlace(a, { meetingId: randomUUID() }, joiner()), { ok: false, reason: 'not_found' });
      assert.deepEqual(await enterPlace(a, { meetingId: 'not-a-uuid' }, joiner()), { ok: false, reason: 'not_found' });
      const meeting = await createMeeting(a, operatorActor(org), {});
      await deleteMeeting(a, operatorActor(org), meeting.id);
      assert.deepEqual(await enterPlace(a, { meetingId: meeting.id }, joiner()), { ok: false, reason: 'deleted' });
    });

    it('notices a crashed instance and starts the idle time from its last heartbeat', async () => {
      const meeting = await createMeeting(a, operatorActor(org), {});
      const ann = joiner();
      await enterPlace(b, { meetingId: meeting.id }, ann);
      const lastBeat = clock;
      // b stops heartbeating; a keeps sweeping.
      clock += TTL_MS - 1;
      assert.deepEqual((await sweep(a)).changed, []);
      assert.equal((await participantsOf(a, { kind: 'meeting', id: meeting.id })).length, 1);
      clock += 2;
      assert.deepEqual((await sweep(a)).changed, [{ kind: 'meeting', id: meeting.id }]);
      assert.equal((await participantsOf(a, { kind: 'meeting', id: meeting.id })).length, 0);
      assert.equal((await meetingOf(meeting.id)).closesAt?.getTime(), lastBeat + IDLE_S * 1000);
      // When b comes back it learns it was reaped.
      assert.equal((await sweep(b)).instanceKnown, false);
    });

    it('closes meetings left behind by an instance that never came back, on restart', async () => {
      const meeting = await createMeeting(a, operatorActor(org), {});
      await enterPlace(a, { meetingId: meeting.id }, joiner());
      // Everything stops; a new process starts long after.
      clock += IDLE_S * 1000 * 3;
      const restarted = await instance('instance-c');
      const first = await sweep(restarted);
      assert.deepEqual(first.closed, [{ kind: 'meeting', id: meeting.id }]);
      assert.equal(meetingState(await meetingOf(meeting.id), new Date(clock)), 'closed');
    });

    it('releases every participant of an instance that shuts down cleanly', async () => {
      const meeting = await createMeeting(a, operatorActor(org), {});
      await enterPlace(a, { meetingId: meeting.id }, joiner());
      await enterPlace(a, { meetingId: meeting.id }, joiner());
      assert.deepEqual(await retireInstance(a), [{ kind: 'meeting', id: meeting.id }]);
      assert.equal((await meetingOf(meeting.id)).closesAt?.getTime(), clock + IDLE_S * 1000);
    });

    it('never leaves a deadline on a meeting someone is joining while the last one leaves', async () => {
      const meeting = await createMeeting(a, operatorActor(org), {});
      let present = joiner();
      await enterPlace(a, { meetingId: meeting.id }, present);
      for (let i = 0; i < 15; i++) {
        const next = joiner();
        const [, joined] = await Promise.all([leavePlace(a, present.id), enterPlace(b, { meetingId: meeting.id }, next)]);
        assert.equal(joined.ok, true);
        assert.equal((await meetingOf(meeting.id)).closesAt, null, `round ${i}`);
        present = next;
      }
    });

    it('gives a room a session per period of use: the next visitor after the idle time starts a fresh one', async () => {
      const room = await createRoom(a, operatorActor(org), { slug: `room-${randomUUID().slice(0, 8)}`, title: 'Front desk' });
      const ann = joiner();
      const first = await enterPlace(a, { slug: room.slug }, ann);
      assert.ok(first.ok);
      assert.equal(first.title, 'Front desk');
      const bob = joiner();
      const second = await enterPlace(b, { slug: room.slug }, bob);
      assert.ok(second.ok);
      assert.deepEqual(second.place, first.place, 'one session while people are in');
      await leavePlace(a, ann.id);
      await leavePlace(b, bob.id);
      const session = await db.store.live.findSession(first.place.id);
      assert.equal(session?.closesAt?.getTime(), clock + IDLE_S * 1000);

      clock += IDLE_S * 1000 - 1;
      const back = joiner();
      const third = await enterPlace(a, { slug: room.slug }, back);
      assert.ok(third.ok);
      assert.deepEqual(third.place, first.place, 'within the idle time the session goes on');
      await leavePlace(a, back.id);

      clock += IDLE_S * 1000;
      assert.deepEqual((await sweep(a)).closed, [first.place]);
      const fresh = await enterPlace(b, { slug: room.slug }, joiner());
      assert.ok(fresh.ok);
      assert.notDeepEqual(fresh.place, first.place);
      assert.ok((await db.store.live.findSession(first.place.id))?.closedAt);
    });

    it('starts one session when two first visitors arrive at once', async () => {
      const room = await createRoom(a, operatorActor(org), { slug: `room-${randomUUID().slice(0, 8)}` });
      const results = await Promise.all([1, 2, 3, 4].map((i) => enterPlace(i % 2 ? a : b, { slug: room.slug }, joiner())));
      const places = new Set(results.map((r) => (r.ok ? r.place.id : 'refused')));
      assert.equal(places.size, 1);
      assert.ok(!places.has('refused'));
    });

    it('opens boards without a waiting list like rooms and refuses queues, waiting-list boards and inactive boards', async () => {
      const open = await createSpace(a, operatorActor(org), 'board', { name: 'Walk-in', slug: `walk-${randomUUID().slice(0, 8)}`, hasWaitingList: false });
      assert.equal((await enterPlace(a, { slug: open.slug }, joiner())).ok, true);
      await updateSpace(a, operatorActor(org), 'board', open.id, { isActive: false });
      assert.deepEqual(await enterPlace(a, { slug: open.slug }, joiner()), { ok: false, reason: 'inactive' });
      const waiting = await createSpace(a, operatorActor(org), 'board', { name: 'Clinic', slug: `wait-${randomUUID().slice(0, 8)}` });
      assert.deepEqual(await enterPlace(a, { slug: waiting.slug }, joiner()), { ok: false, reason: 'waiting_list' });
      const queue = await createSpace(a, operatorActor(org), 'queue', { name: 'Queue', slug: `queue-${randomUUID().slice(0, 8)}` });
      assert.deepEqual(await enterPlace(a, { slug: queue.slug }, joiner()), { ok: false, reason: 'waiting_list' });
      assert.deepEqual(await enterPlace(a, { slug: 'no-such-room' }, joiner()), { ok: false, reason: 'not_found' });
    });
  });
}

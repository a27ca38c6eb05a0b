/**
 * Live waiting lists in the domain, on SQLite and PostgreSQL, with an
 * injected clock: first in, first out; exactly one member gets a client
 * however many try at once; reservations are leases that hand the client
 * back to the front; the grace period keeps a place; auto-accept; calls
 * starting and ending; lines closing with their board; what one address
 * can do to a line (caps, grace only for a page that answered) and members
 * removing a place.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createContext } from '../../src/context.ts';
import { memberActor, operatorActor, type Actor } from '../../src/domain/actors.ts';
import { ConflictError, DomainError, NotFoundError } from '../../src/domain/errors.ts';
import { liveContext, sweep, type LiveContext } from '../../src/domain/lifecycle.ts';
import { addUser, createOrganization } from '../../src/domain/organizations.ts';
import { createSpace, getSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { Space } from '../../src/domain/types.ts';
import { arrive, clientAnswered, clientDisconnected, clientLeaves, UNANSWERED_SECONDS } from '../../src/domain/waiting/arrival.ts';
import { hangUp, memberJoinedCall } from '../../src/domain/waiting/calls.ts';
import { closeConsole, openConsole } from '../../src/domain/waiting/consoles.ts';
import { acceptClient, declineClient, dispatchAutoAccept, removeClient, setMemberStatus, takeNext } from '../../src/domain/waiting/serving.ts';
import { sweepWaiting } from '../../src/domain/waiting/sweep.ts';
import { clientSnapshot, waitingListSnapshot, waitingListOf } from '../../src/domain/waiting/views.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';

const T0 = Date.parse('2025-06-02T08:00:00.000Z');
const slugOf = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

for (const database of await testDatabases()) {
  describe(`waiting lists on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let clock: number;
    let ctx: LiveContext;
    let operator: Actor;
    let doctors: Actor[];
    let queue: Space;
    let board: Space;

    const connection = () => `c_${randomUUID()}`;
    /** A client whose page answers its first view, as the waiting page does. */
    const arriveAt = async (slug: string, name: string, token?: string, address?: string) => {
      const result = await arrive(ctx, { slug, displayName: name, connectionId: connection(), token, address });
      assert.ok(result.ok, JSON.stringify(result));
      await clientAnswered(ctx, result.entry.connectionId!);
      return result;
    };
    const lineNames = async (space: Space) => waitingListOf((await waitingListSnapshot(ctx, space.organizationId, space.id))!).map((e) => e.displayName);

    beforeEach(async () => {
      db = await database.open();
      clock = T0;
      const base = await createContext(
        {
          databaseUrl: db.url,
          publicUrl: 'http://localhost:3000',
          idleCloseSeconds: 900,
          secretPepper: 'test',
          waitingGraceSeconds: 60,
          waitingLeaseSeconds: 30,
          waitingPerAddress: 3,
          waitingPerList: 8,
        },
        { store: db.store, now: () => new Date(clock) },
      );
      ctx = liveContext(base, { instanceId: 'instance-a', instanceTtlMs: 15_000 });
      await sweep(ctx);
      const org = await createOrganization(ctx, { name: 'Clinic', type: 'medical', slug: slugOf('clinic') });
      operator = operatorActor(org);
      doctors = [];
      for (let i = 0; i < 10; i++) {
        const user = await addUser(ctx, operator, { email: `dr${i}@clinic.test`, fullName: `Dr ${i}` });
        doctors.push(memberActor(org, user));
      }
      const ids = doctors.map((d) => (d.kind === 'member' ? d.user.id : ''));
      queue = await createSpace(ctx, operator, 'queue', { name: 'Walk-in', slug: slugOf('walk-in') });
      queue = await updateSpace(ctx, operator, 'queue', queue.id, { memberIds: ids });
      board = await createSpace(ctx, operator, 'board', { name: 'Cardiology', slug: slugOf('cardio') });
      board = await updateSpace(ctx, operator, 'board', board.id, { memberIds: ids });
    });
    afterEach(() => db.dispose());

    it('takes clients first in, first out, each by one member', async () => {
      const ann = await arriveAt(queue.slug, 'Ann');
      clock += 1000;
      const bob = await arriveAt(queue.slug, 'Bob');
      clock += 1000;
      await arriveAt(queue.slug, 'Cid');
      assert.equal((await clientSnapshot(ctx, bob.entry.id))?.view.position, 2);
      const first = await takeNext(ctx, doctors[0]!, 'queue', queue.id);
      const second = await takeNext(ctx, doctors[1]!, 'queue', queue.id);
      assert.equal(first?.entry.id, ann.entry.id);
      assert.equal(second?.entry.id, bob.entry.id);
      assert.notEqual(first?.meetingId, second?.meetingId);
      assert.deepEqual(await lineNames(queue), ['Cid']);
      assert.equal((await clientSnapshot(ctx, ann.entry.id))?.view.meetingId, first?.meetingId);
    });

    it('gives a client to exactly one of ten members accepting at the same moment', async () => {
      const ann = await arriveAt(board.slug, 'Ann');
      const results = await Promise.allSettled(doctors.map((d) => acceptClient(ctx, d, board.id, ann.entry.id)));
      const won = results.filter((r) => r.status === 'fulfilled');
      assert.equal(won.length, 1);
      for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof DomainError, String(r.reason));
      const entry = await db.store.findWaitingEntry(ann.entry.id);
      assert.equal(entry?.state, 'reserved');
      const busy = (await getSpace(ctx, operator, 'board', board.id)).members;
      assert.equal((await Promise.all(busy.map((m) => db.store.memberCurrentEntry(board.id, m.userId)))).filter(Boolean).length, 1);
    });

    it('gives three waiting clients to three different members when ten take the next at once', async () => {
      for (const name of ['Ann', 'Bob', 'Cid']) {
        await arriveAt(queue.slug, name);
        clock += 10;
      }
      const results = await Promise.allSettled(doctors.map((d) => takeNext(ctx, d, 'queue', queue.id)));
      const taken = results.flatMap((r) => (r.status === 'fulfilled' && r.value ? [r.value] : []));
      assert.equal(taken.length, 3);
      assert.equal(new Set(taken.map((t) => t.entry.id)).size, 3);
      assert.equal(new Set(taken.map((t) => t.memberId)).size, 3);
      assert.deepEqual(await lineNames(queue), []);
    });

    it('refuses a second client to a member who already has one', async () => {
      await arriveAt(queue.slug, 'Ann');
      clock += 10;
      await arriveAt(queue.slug, 'Bob');
      await takeNext(ctx, doctors[0]!, 'queue', queue.id);
      await assert.rejects(takeNext(ctx, doctors[0]!, 'queue', queue.id), ConflictError);
      assert.deepEqual(await lineNames(queue), ['Bob']);
    });

    it('hands a client whose member never joined the call back to the front of the line', async () => {
      await arriveAt(queue.slug, 'Ann');
      clock += 1000;
      const taken = await takeNext(ctx, doctors[0]!, 'queue', queue.id);
      clock += 1000;
      await arriveAt(queue.slug, 'Bob');
      clock += 29_000;
      await sweepWaiting(ctx);
      assert.deepEqual(await lineNames(queue), ['Bob']);
      clock += 2000;
      await sweepWaiting(ctx);
      assert.deepEqual(await lineNames(queue), ['Ann', 'Bob']);
      assert.equal(await db.store.memberCurrentEntry(queue.id, taken!.memberId), null);
      assert.ok((await db.store.live.findMeetingRecord({ id: taken!.meetingId }))?.closedAt, 'the private meeting is closed');
    });

    it('keeps the place of a client who comes back within the grace period, and drops one who does not', async () => {
      const ann = await arriveAt(queue.slug, 'Ann');
      clock += 10;
      const bob = await arriveAt(queue.slug, 'Bob');
      await clientDisconnected(ctx, ann.entry.connectionId!);
      await clientDisconnected(ctx, bob.entry.connectionId!);
      clock += 59_000;
      await sweepWaiting(ctx);
      const back = await arrive(ctx, { slug: queue.slug, displayName: 'Ann', connectionId: connection(), token: ann.token });
      assert.ok(back.ok && back.returned && back.entry.id === ann.entry.id);
      clock += 2000;
      await sweepWaiting(ctx);
      assert.deepEqual(await lineNames(queue), ['Ann']);
      assert.equal((await db.store.findWaitingEntry(bob.entry.id))?.outcome, 'grace_expired');
      // A late token starts a new place at the end.
      const late = await arrive(ctx, { slug: queue.slug, displayName: 'Bob', connectionId: connection(), token: bob.token });
      assert.ok(late.ok && !late.returned);
    });

    it('gives the next client to an active, auto-accepting member with the console open, and only one at a time', async () => {
      const dr = doctors[0]!;
      await openConsole(ctx, dr, 'queue', queue.id, connection());
      await setMemberStatus(ctx, dr, 'queue', queue.id, { isAutoAccepting: true });
      await arriveAt(queue.slug, 'Ann');
      clock += 10;
      await arriveAt(queue.slug, 'Bob');
      const given = await dispatchAutoAccept(ctx, queue.organizationId, queue.id);
      assert.deepEqual(given.map((g) => g.memberId), [dr.kind === 'member' ? dr.user.id : '']);
      assert.deepEqual(await dispatchAutoAccept(ctx, queue.organizationId, queue.id), []);
      assert.deepEqual(await lineNames(queue), ['Bob']);
      // Without the console open, nobody is given anyone.
      const other = doctors[1]!;
      await setMemberStatus(ctx, other, 'queue', queue.id, { isAutoAccepting: true });
      assert.deepEqual(await dispatchAutoAccept(ctx, queue.organizationId, queue.id), []);
    });

    it('starts the call when the member joins it and ends it when someone hangs up, freeing the member', async () => {
      const ann = await arriveAt(queue.slug, 'Ann');
      const taken = (await takeNext(ctx, doctors[0]!, 'queue', queue.id))!;
      assert.equal(await memberJoinedCall(ctx, doctors[1]!, taken.meetingId), undefined, 'another member joining does not start it');
      clock += 5000;
      const started = await memberJoinedCall(ctx, doctors[0]!, taken.meetingId);
      assert.equal(started?.state, 'in_call');
      const during = (await getSpace(ctx, operator, 'queue', queue.id)).members.find((m) => m.userId === taken.memberId);
      assert.equal(during?.joinedCallAt?.getTime(), clock);
      clock += 60_000;
      await hangUp(ctx, taken.meetingId);
      const entry = await db.store.findWaitingEntry(ann.entry.id);
      assert.equal(entry?.state, 'served');
      const after = (await getSpace(ctx, operator, 'queue', queue.id)).members.find((m) => m.userId === taken.memberId);
      assert.equal(after?.joinedCallAt, null);
      assert.equal(await db.store.memberCurrentEntry(queue.id, taken.memberId), null);
    });

    it('sends the client back to the front when the member in the call stays away past the grace period', async () => {
      const consoleId = connection();
      await openConsole(ctx, doctors[0]!, 'queue', queue.id, consoleId);
      const ann = await arriveAt(queue.slug, 'Ann');
      const taken = (await takeNext(ctx, doctors[0]!, 'queue', queue.id))!;
      await memberJoinedCall(ctx, doctors[0]!, taken.meetingId);
      clock += 10;
      await arriveAt(queue.slug, 'Bob');
      await closeConsole(ctx, consoleId);
      clock += 61_000;
      await sweep(ctx);
      await sweepWaiting(ctx);
      assert.deepEqual(await lineNames(queue), ['Ann', 'Bob']);
      assert.equal((await db.store.findWaitingEntry(ann.entry.id))?.state, 'waiting');
    });

    it('lets a board member decline a client with a message, and refuses members of other organizations', async () => {
      const ann = await arriveAt(board.slug, 'Ann');
      await declineClient(ctx, doctors[0]!, board.id, ann.entry.id, 'Please book an appointment.');
      const entry = await db.store.findWaitingEntry(ann.entry.id);
      assert.equal(entry?.state, 'declined');
      assert.equal(entry?.message, 'Please book an appointment.');
      assert.equal(entry?.servedBy, doctors[0]!.kind === 'member' ? doctors[0]!.user.id : undefined, 'who declined is kept for the audit');

      const bob = await arriveAt(board.slug, 'Bob');
      const stranger = await createOrganization(ctx, { name: 'Other', type: 'basic', slug: slugOf('other') });
      const zed = memberActor(stranger, await addUser(ctx, operatorActor(stranger), { email: 'zed@other.test', fullName: 'Zed' }));
      await assert.rejects(acceptClient(ctx, zed, board.id, bob.entry.id), NotFoundError);
      const outsider = memberActor(operator.organization, await addUser(ctx, operator, { email: 'nurse@clinic.test', fullName: 'Nurse' }));
      await assert.rejects(acceptClient(ctx, outsider, board.id, bob.entry.id), NotFoundError, 'not on the board');
      await assert.rejects(acceptClient(ctx, doctors[0]!, queue.id, bob.entry.id), NotFoundError, 'a queue is not accepted from');
      assert.equal((await db.store.findWaitingEntry(bob.entry.id))?.state, 'waiting');
    });

    it('ends the wait of waiting clients when the board is deactivated, and lets nobody new in', async () => {
      const ann = await arriveAt(board.slug, 'Ann');
      await updateSpace(ctx, operator, 'board', board.id, { isActive: false });
      assert.equal((await db.store.findWaitingEntry(ann.entry.id))?.state, 'closed');
      const refused = await arrive(ctx, { slug: board.slug, displayName: 'Bob', connectionId: connection() });
      assert.deepEqual(refused.ok ? 'entered' : refused.reason, 'inactive');
    });

    it('lets a client leave the line', async () => {
      const ann = await arriveAt(queue.slug, 'Ann');
      await clientLeaves(ctx, ann.entry.connectionId!);
      assert.equal((await db.store.findWaitingEntry(ann.entry.id))?.state, 'left');
      assert.deepEqual(await lineNames(queue), []);
    });

    it('ends at once the place of a client whose page never answered, and keeps one that did for the grace period', async () => {
      const silent = await arrive(ctx, { slug: queue.slug, displayName: 'Script', connectionId: connection() });
      assert.ok(silent.ok);
      const ann = await arriveAt(queue.slug, 'Ann');
      await clientDisconnected(ctx, silent.entry.connectionId!);
      await clientDisconnected(ctx, ann.entry.connectionId!);
      const ended = await db.store.findWaitingEntry(silent.entry.id);
      assert.equal(ended?.state, 'left');
      assert.equal(ended?.outcome, 'unanswered');
      assert.deepEqual(await lineNames(queue), ['Ann'], 'the page that answered keeps its place while away');
      const back = await arrive(ctx, { slug: queue.slug, displayName: 'Script', connectionId: connection(), token: silent.token });
      assert.ok(back.ok && !back.returned, 'an unanswered place cannot be taken back');
    });

    it('ends a place whose connection stays open but never answers', async () => {
      const silent = await arrive(ctx, { slug: queue.slug, displayName: 'Script', connectionId: connection() });
      assert.ok(silent.ok);
      clock += 10;
      await arriveAt(queue.slug, 'Ann');
      clock += (UNANSWERED_SECONDS - 1) * 1000;
      await sweepWaiting(ctx);
      assert.deepEqual(await lineNames(queue), ['Script', 'Ann']);
      clock += 2000;
      await sweepWaiting(ctx);
      assert.deepEqual(await lineNames(queue), ['Ann']);
      assert.equal((await db.store.findWaitingEntry(silent.entry.id))?.outcome, 'unanswered');
    });

    it('holds at most WAITING_PER_ADDRESS places of a line from one address, and refuses nobody from another', async () => {
      for (let i = 0; i < 3; i++) {
        await arriveAt(queue.slug, `Flood ${i}`, undefined, '203.0.113.5');
        clock += 10;
      }
      const fourth = await arrive(ctx, { slug: queue.slug, displayName: 'Flood 3', connectionId: connection(), address: '203.0.113.5' });
      assert.deepEqual(fourth.ok ? 'in line' : fourth.reason, 'too_many_waiting');
      const other = await arrive(ctx, { slug: board.slug, displayName: 'Flood on the board', connectionId: connection(), address: '203.0.113.5' });
      assert.ok(other.ok, 'the cap is per line');
      const patient = await arriveAt(queue.slug, 'Patient', undefined, '198.51.100.7');
      assert.equal((await clientSnapshot(ctx, patient.entry.id))?.view.position, 4);
      // A place ended frees one for the address again.
      await clientLeaves(ctx, (await db.store.listWaitingEntries(queue.id, ['waiting']))[0]!.connectionId!);
      assert.ok((await arrive(ctx, { slug: queue.slug, displayName: 'Flood 4', connectionId: connection(), address: '203.0.113.5' })).ok);
    });

    it('holds at most WAITING_PER_LIST places in one line, whoever arrives', async () => {
      for (let i = 0; i < 8; i++) await arriveAt(queue.slug, `Client ${i}`, undefined, `198.51.100.${i + 10}`);
      const ninth = await arrive(ctx, { slug: queue.slug, displayName: 'Client 8', connectionId: connection(), address: '198.51.100.99' });
      assert.deepEqual(ninth.ok ? 'in line' : ninth.reason, 'line_full');
      const back = await arrive(ctx, { slug: queue.slug, displayName: 'Client 0', connectionId: connection(), token: (await arriveAt(board.slug, 'x')).token });
      assert.deepEqual(back.ok ? 'in line' : back.reason, 'line_full', 'a token of another line is no place here');
    });

    it('lets a member remove a place from a queue or a board, and nobody outside them', async () => {
      const script = await arriveAt(queue.slug, 'Script');
      const ann = await arriveAt(queue.slug, 'Ann');
      await removeClient(ctx, doctors[0]!, 'queue', queue.id, script.entry.id);
      const removed = await db.store.findWaitingEntry(script.entry.id);
      assert.equal(removed?.state, 'declined');
      assert.equal(removed?.outcome, 'removed');
      assert.deepEqual(await lineNames(queue), ['Ann']);
      await assert.rejects(removeClient(ctx, doctors[0]!, 'queue', queue.id, script.entry.id), NotFoundError, 'once');

      const bob = await arriveAt(board.slug, 'Bob');
      const stranger = await createOrganization(ctx, { name: 'Other', type: 'basic', slug: slugOf('other') });
      const zed = memberActor(stranger, await addUser(ctx, operatorActor(stranger), { email: 'zed@other.test', fullName: 'Zed' }));
      await assert.rejects(removeClient(ctx, zed, 'board', board.id, bob.entry.id), NotFoundError);
      await assert.rejects(removeClient(ctx, doctors[0]!, 'queue', queue.id, bob.entry.id), NotFoundError, 'not in this line');
      await removeClient(ctx, doctors[1]!, 'board', board.id, bob.entry.id);
      assert.equal((await db.store.findWaitingEntry(bob.entry.id))?.outcome, 'removed');
      assert.equal((await db.store.findWaitingEntry(ann.entry.id))?.state, 'waiting');
    });
  });
}

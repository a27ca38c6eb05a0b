/**
 * @module store/contract/hosting
 * The storage contract: a meeting's lock, knocks and removals.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { Knock } from '../../domain/hosting-ports.ts';
import type { StoreConnection } from '../../domain/ports/store.ts';
import { later, meeting, seed, T0, type ContractEnv } from './fixtures.ts';

export function hostingContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  const knockOf = (meetingId: string, id: string, overrides: Partial<Knock> = {}): Knock => ({
    id,
    meetingId,
    instanceId: 'i1',
    displayName: id.toUpperCase(),
    guestKey: `browser:${id}`,
    wasRemoved: false,
    state: 'knocking',
    arrivedAt: T0,
    ...overrides,
  });

  describe('host', () => {
    it('round-trips the lock and changes it only from the states given', async () => {
      const { o } = await seed(store);
      const m = meeting(o.id, { type: 'CONSULTATION', lock: 'until_owner' });
      await store.insertMeeting(m);
      assert.equal((await store.live.findMeetingRecord({ id: m.id }))?.lock, 'until_owner');
      assert.equal(await store.setMeetingLock(m.id, 'open', ['locked']), false);
      assert.equal(await store.setMeetingLock(m.id, 'open', ['until_owner']), true);
      assert.equal(await store.setMeetingLock(m.id, 'open'), false, 'no change, nothing reported');
      assert.equal(await store.setMeetingLock(m.id, 'locked'), true);
      assert.equal((await store.live.findMeetingRecord({ id: m.id }))?.lock, 'locked');
    });

    it('lists knocks of live instances oldest first, and decides each exactly once', async () => {
      const { o } = await seed(store);
      const m = meeting(o.id);
      await store.insertMeeting(m);
      await store.live.heartbeat('i1', T0);
      await store.live.heartbeat('dead', new Date(T0.getTime() - 60_000));
      await store.insertKnock(knockOf(m.id, 'b', { arrivedAt: later(20) }));
      await store.insertKnock(knockOf(m.id, 'a', { arrivedAt: later(10), wasRemoved: true }));
      await store.insertKnock(knockOf(m.id, 'z', { instanceId: 'dead' }));
      const listed = await store.listKnocks(m.id, new Date(T0.getTime() - 15_000));
      assert.deepEqual(listed.map((k) => [k.id, k.wasRemoved]), [['a', true], ['b', false]]);
      assert.equal((await store.decideKnock(m.id, 'a', 'admitted', later(30)))?.state, 'admitted');
      assert.equal(await store.decideKnock(m.id, 'a', 'turned_away', later(31)), undefined, 'decided once');
      assert.equal(await store.decideKnock('other', 'b', 'admitted', later(31)), undefined, 'only within its meeting');
      assert.deepEqual((await store.listKnocks(m.id, new Date(T0.getTime() - 15_000))).map((k) => k.id), ['b']);
      assert.equal((await store.deleteKnock('b'))?.id, 'b');
      assert.equal(await store.deleteKnock('b'), undefined);
    });

    it('records a removal per meeting and browser until it is lifted', async () => {
      const { o } = await seed(store);
      const m = meeting(o.id);
      await store.insertMeeting(m);
      await store.insertRemoval(m.id, 'browser:x', T0);
      await store.insertRemoval(m.id, 'browser:x', later(5));
      assert.equal(await store.isRemoved(m.id, 'browser:x'), true);
      assert.equal(await store.isRemoved(m.id, 'browser:y'), false);
      await store.deleteRemoval(m.id, 'browser:x');
      assert.equal(await store.isRemoved(m.id, 'browser:x'), false);
    });
  });
}

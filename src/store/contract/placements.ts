/**
 * @module store/contract/placements
 * The storage contract: which Janus server and SFU room each place
 * uses, decided once even when instances race, and the load per server.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import type { PlaceRef } from '../../domain/presence.ts';
import type { Placement } from '../../domain/sfu/placement-store.ts';
import { later, meeting, room, seed, T0, type ContractEnv } from './fixtures.ts';

export function placementsContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  const meetingPlace = (): PlaceRef => ({ kind: 'meeting', id: randomUUID() });
  const placed = (place: PlaceRef, server: string, roomId: number, at = T0): Placement => ({ place, server, room: roomId, placedAt: at });
  // Room ids reach 2^53 - 1: they must survive both databases exactly.
  const BIG_ROOM = Number.MAX_SAFE_INTEGER;

  describe('SFU placements', () => {
    it('records a place once: a second placement of it returns the first', async () => {
      const place = meetingPlace();
      assert.equal(await store.findPlacement(place), undefined);
      const first = placed(place, '10.0.0.5:8188', BIG_ROOM);
      assert.deepEqual(await store.insertPlacement(first), first);
      assert.deepEqual(await store.findPlacement(place), first);
      assert.deepEqual(await store.insertPlacement(placed(place, '10.0.0.6:8188', 7, later(5))), first, 'the earlier placement stands');
      const session: PlaceRef = { kind: 'session', id: place.id };
      assert.equal(await store.findPlacement(session), undefined, 'a session with the same id is another place');
    });

    it('ends two simultaneous placements of one place with the same answer', async () => {
      const place = meetingPlace();
      const [a, b] = await Promise.all([store.insertPlacement(placed(place, 'a:1', 1)), store.insertPlacement(placed(place, 'b:1', 2))]);
      assert.deepEqual(a, b);
      assert.deepEqual(await store.findPlacement(place), a);
    });

    it('moves a place only from the server the mover saw', async () => {
      const place = meetingPlace();
      await store.insertPlacement(placed(place, 'dead:1', 1));
      const moved = await store.movePlacement(place, 'dead:1', { server: 'live:1', room: 2, placedAt: later(10) });
      assert.deepEqual(moved, placed(place, 'live:1', 2, later(10)));
      assert.deepEqual(await store.movePlacement(place, 'dead:1', { server: 'other:1', room: 3, placedAt: later(11) }), moved, 'already moved by someone else');
      assert.equal(await store.movePlacement(meetingPlace(), 'dead:1', { server: 'live:1', room: 4, placedAt: later(12) }), undefined, 'no placement, nothing to move');
    });

    it('ends two simultaneous moves of one place with the same answer', async () => {
      const place = meetingPlace();
      await store.insertPlacement(placed(place, 'dead:1', 1));
      const [a, b] = await Promise.all([
        store.movePlacement(place, 'dead:1', { server: 'x:1', room: 2, placedAt: later(1) }),
        store.movePlacement(place, 'dead:1', { server: 'y:1', room: 3, placedAt: later(1) }),
      ]);
      assert.deepEqual(a, b);
      assert.ok(a && ['x:1', 'y:1'].includes(a.server));
    });

    it("lists a server's places oldest first, and forgets a released one", async () => {
      const [p1, p2, p3] = [meetingPlace(), meetingPlace(), meetingPlace()];
      await store.insertPlacement(placed(p2, 's:1', 2, later(20)));
      await store.insertPlacement(placed(p1, 's:1', 1, later(10)));
      await store.insertPlacement(placed(p3, 't:1', 3, later(5)));
      assert.deepEqual((await store.listPlacements('s:1')).map((p) => p.room), [1, 2]);
      assert.deepEqual(await store.listPlacements('nobody:1'), []);
      assert.deepEqual(await store.deletePlacement(p1), placed(p1, 's:1', 1, later(10)));
      assert.equal(await store.deletePlacement(p1), undefined);
      assert.deepEqual((await store.listPlacements('s:1')).map((p) => p.room), [2]);
    });

    it('counts rooms and the participants present in them per server, on live instances only', async () => {
      const { o } = await seed(store);
      const [m1, m2, m3] = [meeting(o.id), meeting(o.id), meeting(o.id)];
      for (const m of [m1, m2, m3]) await store.insertMeeting(m);
      const r = room(o.id);
      await store.insertRoom(r);
      await store.live.heartbeat('live', later(0));
      await store.live.heartbeat('gone', new Date(T0.getTime() - 60_000));
      const person = (id: string, instanceId = 'live') => ({ id, instanceId, displayName: id, audio: true, video: true, screen: false, joinedAt: T0, host: false, guestKey: null });
      for (const id of ['a', 'b', 'c']) assert.ok(await store.live.enterMeeting(m1.id, person(`${id}-${m1.id}`), T0));
      assert.ok(await store.live.enterMeeting(m1.id, person(`stale-${m1.id}`, 'gone'), T0));
      assert.ok(await store.live.enterMeeting(m2.id, person(`d-${m2.id}`), T0));
      const session = await store.live.enterSession('room', r.id, person(`e-${r.id}`), T0);
      // m3 has people but no placement: it is still peer-to-peer and loads no server.
      assert.ok(await store.live.enterMeeting(m3.id, person(`f-${m3.id}`), T0));

      await store.insertPlacement(placed({ kind: 'meeting', id: m1.id }, 'a:1', 1));
      await store.insertPlacement(placed({ kind: 'meeting', id: m2.id }, 'b:1', 2));
      await store.insertPlacement(placed({ kind: 'session', id: session.id }, 'b:1', 3));
      await store.insertPlacement(placed(meetingPlace(), 'c:1', 4));

      const loads = await store.placementLoads(new Date(T0.getTime() - 15_000));
      assert.deepEqual(loads, [
        { server: 'a:1', rooms: 1, participants: 3 },
        { server: 'b:1', rooms: 2, participants: 2 },
        { server: 'c:1', rooms: 1, participants: 0 },
      ]);
    });
  });
}

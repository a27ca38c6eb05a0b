/**
 * SFU placement in the domain (src/domain/sfu/placement.ts), on both
 * databases: a place goes to the least loaded live Janus and stays there
 * while it is up; a dead server's places are placed again, spread over the
 * live ones; a server this pool does not know is not judged; instances
 * deciding at once agree.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { PlaceRef } from '../../src/domain/presence.ts';
import { leastLoaded, placeOf, replaceFrom, type PlacementOptions, type PoolServer } from '../../src/domain/sfu/placement.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';

const T0 = new Date('2024-05-06T07:08:09.000Z');

describe('choosing a server', () => {
  it('takes the live server with the fewest participants, then the fewest rooms, then by name', () => {
    const servers: PoolServer[] = [
      { label: 'c:1', up: true },
      { label: 'a:1', up: true },
      { label: 'b:1', up: true },
      { label: 'idle-but-down:1', up: false },
    ];
    assert.equal(leastLoaded(servers, []), 'a:1', 'no load anywhere: by name');
    assert.equal(leastLoaded(servers, [{ server: 'a:1', rooms: 1, participants: 5 }, { server: 'b:1', rooms: 3, participants: 4 }, { server: 'c:1', rooms: 1, participants: 4 }]), 'c:1');
    assert.equal(leastLoaded(servers, [{ server: 'a:1', rooms: 1, participants: 1 }, { server: 'b:1', rooms: 1, participants: 1 }]), 'c:1', 'a server with no placement has no load');
    assert.equal(leastLoaded([{ label: 'x:1', up: false }], []), undefined);
    assert.equal(leastLoaded([], []), undefined);
  });
});

for (const database of await testDatabases()) {
  describe(`placing places on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let rooms: number;
    const options = (servers: PoolServer[], at = T0): PlacementOptions => ({
      store: db.store,
      servers,
      staleBefore: new Date(at.getTime() - 15_000),
      newRoom: () => ++rooms,
      at,
    });
    const place = (): PlaceRef => ({ kind: 'meeting', id: randomUUID() });
    const up = (...labels: string[]): PoolServer[] => labels.map((label) => ({ label, up: true }));

    beforeEach(async () => {
      db = await database.open();
      rooms = 1000;
    });
    afterEach(async () => {
      await db.dispose();
    });

    it('has no placement while no server is up', async () => {
      const p = place();
      assert.deepEqual(await placeOf(p, options([{ label: 'a:1', up: false }])), { placement: undefined, fresh: false });
      assert.equal(await db.store.findPlacement(p), undefined);
    });

    it('spreads new places over the servers by load, and keeps each where it is while its server is up', async () => {
      const servers = up('a:1', 'b:1');
      const first = await placeOf(place(), options(servers));
      assert.equal(first.fresh, true);
      assert.equal(first.placement?.server, 'a:1');
      assert.equal(first.placement?.room, 1001);
      const second = await placeOf(place(), options(servers));
      assert.equal(second.placement?.server, 'b:1', 'a:1 has a room now, b:1 none');
      const again = await placeOf(first.placement!.place, options(servers, new Date(T0.getTime() + 60_000)));
      assert.deepEqual(again, { placement: first.placement, fresh: false });
    });

    it('places a dead server’s places again on the live ones, in new rooms, and leaves unknown servers alone', async () => {
      const places = [place(), place(), place(), place()];
      for (const p of places) await placeOf(p, options(up('dead:1')));
      const foreign = place();
      await placeOf(foreign, options(up('elsewhere:1')));

      const servers: PoolServer[] = [{ label: 'dead:1', up: false }, ...up('x:1', 'y:1')];
      const moved = await replaceFrom('dead:1', options(servers));
      assert.equal(moved.length, 4);
      assert.deepEqual(moved.map((m) => m.server).sort(), ['x:1', 'x:1', 'y:1', 'y:1'], 'spread by rooms when nobody is present');
      assert.ok(moved.every((m) => m.room > 1004), 'new rooms');
      assert.deepEqual(await db.store.listPlacements('dead:1'), []);
      assert.equal((await placeOf(foreign, options(servers))).placement?.server, 'elsewhere:1', 'not a server of this pool: not ours to judge');
      assert.deepEqual(await replaceFrom('dead:1', options(servers)), [], 'nothing left to move');
    });

    it('keeps a place on its dead server while no other server is up', async () => {
      const p = place();
      const placed = await placeOf(p, options(up('only:1')));
      const outcome = await placeOf(p, options([{ label: 'only:1', up: false }]));
      assert.deepEqual(outcome, { placement: placed.placement, fresh: false });
    });

    it('gives two instances placing, or moving, one place at once the same answer', async () => {
      const p = place();
      const [a, b] = await Promise.all([placeOf(p, options(up('a:1'))), placeOf(p, options(up('b:1')))]);
      assert.deepEqual(a.placement, b.placement);
      assert.equal([a.fresh, b.fresh].filter(Boolean).length, 1, 'exactly one of them placed it');

      const dead: PoolServer = { label: a.placement!.server, up: false };
      const [c, d] = await Promise.all([replaceFrom(dead.label, options([dead, ...up('c:1')])), replaceFrom(dead.label, options([dead, ...up('d:1')]))]);
      assert.equal(c.length + d.length, 1, 'moved by exactly one of them');
      assert.deepEqual(await db.store.findPlacement(p), [...c, ...d][0]);
    });
  });
}

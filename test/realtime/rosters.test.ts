/**
 * The participant lists an instance holds, kept by deltas: applied in
 * arrival order and deduplicated; a list read from the database while
 * deltas were arriving is replayed with them, so a participant who left
 * during the read does not come back and one who joined is not missed;
 * a refresh (catching up) replaces what is held and tells the listener.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Participant, PlaceRef } from '../../src/domain/presence.ts';
import { Rosters } from '../../src/realtime/rosters.ts';
import type { RosterEntry } from '../../src/realtime/bus.ts';

const place: PlaceRef = { kind: 'meeting', id: 'm1' };
const other: PlaceRef = { kind: 'meeting', id: 'm2' };

function participant(id: string, joinedAt: number, media = { audio: true, video: true, screen: false }): Participant {
  return { id, displayName: id.toUpperCase(), ...media, host: false, guestKey: null, instanceId: 'i', place, joinedAt: new Date(joinedAt) };
}
function entry(id: string, joinedAt: number): RosterEntry {
  return { id, displayName: id.toUpperCase(), audio: true, video: true, screen: false, host: false, joinedAt };
}

function rostersWith(database: () => Participant[]) {
  const pushed: Array<{ place: PlaceRef; ids: string[] }> = [];
  const rosters = new Rosters(
    async () => database(),
    (p, entries) => pushed.push({ place: p, ids: entries.map((e) => e.id) }),
  );
  return { rosters, pushed };
}

describe('participant lists held by deltas', () => {
  it('ignores deltas of places it does not hold, then applies them in order, oldest arrival first', () => {
    const { rosters, pushed } = rostersWith(() => []);
    rosters.apply(place, { kind: 'joined', participant: entry('b', 20) });
    assert.equal(rosters.entries(place), undefined);
    rosters.hold(place, [participant('b', 20)], rosters.mark());
    rosters.apply(place, { kind: 'joined', participant: entry('a', 10) });
    rosters.apply(place, { kind: 'joined', participant: entry('c', 30) });
    rosters.apply(place, { kind: 'joined', participant: entry('c', 30) });
    rosters.apply(place, { kind: 'media', participantId: 'a', media: { audio: false, video: true, screen: true } });
    rosters.apply(other, { kind: 'left', participantId: 'a' });
    assert.deepEqual(rosters.entries(place)!.map((e) => e.id), ['a', 'b', 'c']);
    assert.equal(rosters.entries(place)![0]!.audio, false);
    assert.equal(pushed.length, 3, 'a repeated delta and another place change nothing here');
    rosters.apply(place, { kind: 'left', participantId: 'b' });
    assert.deepEqual(pushed.at(-1)!.ids, ['a', 'c']);
  });

  it('replays the deltas that arrived while a list was read, so none is lost or undone', () => {
    const { rosters, pushed } = rostersWith(() => []);
    const since = rosters.mark();
    // During the join's read: Bob (in the read) leaves, Cat (not in it) joins.
    rosters.apply(place, { kind: 'left', participantId: 'bob' });
    rosters.apply(place, { kind: 'joined', participant: entry('cat', 30) });
    rosters.hold(place, [participant('ann', 10), participant('bob', 20)], since);
    assert.deepEqual(rosters.entries(place)!.map((e) => e.id), ['ann', 'cat']);
    assert.deepEqual(pushed.at(-1)!.ids, ['ann', 'cat'], 'the replay is sent');
    // Deltas from before the mark are already in the read: not replayed.
    const { rosters: later } = rostersWith(() => []);
    later.apply(place, { kind: 'left', participantId: 'ann' });
    later.hold(place, [participant('ann', 10)], later.mark());
    assert.deepEqual(later.entries(place)!.map((e) => e.id), ['ann']);
  });

  it('catches up from the database, replacing what it held, and forgets a released place', async () => {
    let database = [participant('ann', 10)];
    const { rosters, pushed } = rostersWith(() => database);
    rosters.hold(place, database, rosters.mark());
    database = [participant('ann', 10), participant('dan', 40)];
    await rosters.refreshAll((error) => assert.fail(String(error)));
    assert.deepEqual(rosters.entries(place)!.map((e) => e.id), ['ann', 'dan']);
    assert.deepEqual(pushed.at(-1), { place, ids: ['ann', 'dan'] });
    rosters.release(place);
    rosters.apply(place, { kind: 'left', participantId: 'ann' });
    assert.equal(rosters.entries(place), undefined);
  });
});

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
import { ParticipantLists } from '../../src/realtime/participant-lists.ts';
import type { ListedParticipant } from '../../src/realtime/bus.ts';

const place: PlaceRef = { kind: 'meeting', id: 'm1' };
const other: PlaceRef = { kind: 'meeting', id: 'm2' };

function participant(id: string, joinedAt: number, media = { audio: true, video: true, screen: false }): Participant {
  return { id, displayName: id.toUpperCase(), ...media, host: false, guestKey: null, instanceId: 'i', place, joinedAt: new Date(joinedAt), reconnecting: false };
}
function entry(id: string, joinedAt: number): ListedParticipant {
  return { id, displayName: id.toUpperCase(), audio: true, video: true, screen: false, host: false, joinedAt };
}

function listsWith(database: () => Participant[]) {
  const pushed: Array<{ place: PlaceRef; ids: string[] }> = [];
  const participantLists = new ParticipantLists(
    async () => database(),
    (p, entries) => pushed.push({ place: p, ids: entries.map((e) => e.id) }),
  );
  return { participantLists, pushed };
}

describe('participant lists held by deltas', () => {
  it('ignores deltas of places it does not hold, then applies them in order, oldest arrival first', () => {
    const { participantLists, pushed } = listsWith(() => []);
    participantLists.apply(place, { kind: 'joined', participant: entry('b', 20) });
    assert.equal(participantLists.entries(place), undefined);
    participantLists.hold(place, [participant('b', 20)], participantLists.mark());
    participantLists.apply(place, { kind: 'joined', participant: entry('a', 10) });
    participantLists.apply(place, { kind: 'joined', participant: entry('c', 30) });
    participantLists.apply(place, { kind: 'joined', participant: entry('c', 30) });
    participantLists.apply(place, { kind: 'media', participantId: 'a', media: { audio: false, video: true, screen: true } });
    participantLists.apply(other, { kind: 'left', participantId: 'a' });
    assert.deepEqual(participantLists.entries(place)!.map((e) => e.id), ['a', 'b', 'c']);
    assert.equal(participantLists.entries(place)![0]!.audio, false);
    assert.equal(pushed.length, 3, 'a repeated delta and another place change nothing here');
    participantLists.apply(place, { kind: 'left', participantId: 'b' });
    assert.deepEqual(pushed.at(-1)!.ids, ['a', 'c']);
  });

  it('brings a newcomer’s read up to date for its welcome, with the hands known here, whether or not its place is held', () => {
    const { participantLists, pushed } = listsWith(() => []);
    participantLists.hold(place, [participant('ann', 10)], participantLists.mark());
    participantLists.apply(place, { kind: 'hand', participantId: 'ann', raised: true });
    const since = participantLists.mark();
    // While Bob's join reads: Cat joins. The held list hears of her before Bob is there to.
    participantLists.apply(place, { kind: 'joined', participant: entry('cat', 30) });
    const welcome = participantLists.caughtUp(place, [participant('ann', 10), participant('bob', 20)], since);
    assert.deepEqual(welcome.map((e) => [e.id, e.hand === true]), [['ann', true], ['bob', false], ['cat', false]]);
    assert.deepEqual(participantLists.entries(place)!.map((e) => e.id), ['ann', 'cat'], 'the held list is left as it was');
    const pushes = pushed.length;
    assert.deepEqual(participantLists.caughtUp(other, [participant('dan', 40)], since).map((e) => e.id), ['dan']);
    assert.equal(pushed.length, pushes, 'nothing is pushed');
  });

  it('replays the deltas that arrived while a list was read, so none is lost or undone', () => {
    const { participantLists, pushed } = listsWith(() => []);
    const since = participantLists.mark();
    // During the join's read: Bob (in the read) leaves, Cat (not in it) joins.
    participantLists.apply(place, { kind: 'left', participantId: 'bob' });
    participantLists.apply(place, { kind: 'joined', participant: entry('cat', 30) });
    participantLists.hold(place, [participant('ann', 10), participant('bob', 20)], since);
    assert.deepEqual(participantLists.entries(place)!.map((e) => e.id), ['ann', 'cat']);
    assert.deepEqual(pushed.at(-1)!.ids, ['ann', 'cat'], 'the replay is sent');
    // Deltas from before the mark are already in the read: not replayed.
    const { participantLists: later } = listsWith(() => []);
    later.apply(place, { kind: 'left', participantId: 'ann' });
    later.hold(place, [participant('ann', 10)], later.mark());
    assert.deepEqual(later.entries(place)!.map((e) => e.id), ['ann']);
  });

  it('catches up from the database, replacing what it held, and forgets a released place', async () => {
    let database = [participant('ann', 10)];
    const { participantLists, pushed } = listsWith(() => database);
    participantLists.hold(place, database, participantLists.mark());
    database = [participant('ann', 10), participant('dan', 40)];
    await participantLists.refreshAll((error) => assert.fail(String(error)));
    assert.deepEqual(participantLists.entries(place)!.map((e) => e.id), ['ann', 'dan']);
    assert.deepEqual(pushed.at(-1), { place, ids: ['ann', 'dan'] });
    participantLists.release(place);
    participantLists.apply(place, { kind: 'left', participantId: 'ann' });
    assert.equal(participantLists.entries(place), undefined);
  });

  it('keeps hands from their deltas: a repeated join does not lower one, a read from the database (which has none) keeps those known', async () => {
    let database = [participant('a', 10), participant('b', 20)];
    const { participantLists, pushed } = listsWith(() => database);
    participantLists.hold(place, database, participantLists.mark());
    participantLists.apply(place, { kind: 'hand', participantId: 'b', raised: true });
    participantLists.apply(place, { kind: 'hand', participantId: 'b', raised: true });
    participantLists.apply(place, { kind: 'hand', participantId: 'nobody', raised: true });
    assert.equal(pushed.length, 1, 'a repeated hand and an unknown participant change nothing');
    participantLists.apply(place, { kind: 'joined', participant: entry('b', 20) });
    assert.equal(participantLists.entries(place)!.find((e) => e.id === 'b')!.hand, true);
    database = [participant('b', 20), participant('c', 30)];
    await participantLists.refreshAll(() => {});
    assert.deepEqual(participantLists.entries(place)!.map((e) => [e.id, Boolean(e.hand)]), [['b', true], ['c', false]]);
    participantLists.apply(place, { kind: 'hand', participantId: 'b', raised: false });
    assert.equal(participantLists.entries(place)![0]!.hand, false);
  });
});

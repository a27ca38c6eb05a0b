/**
 * Which places use the SFU (src/realtime/sfu-places.ts): a place moves when
 * its list reaches SFU_FROM_PARTICIPANTS, a place placed earlier uses it
 * whatever its size, each participant is told once, and without an SFU
 * nobody is told anything.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlaceRef } from '../../src/domain/presence.ts';
import { Registry, type Participating } from '../../src/realtime/registry.ts';
import { SfuPlaces, type SfuRouting } from '../../src/realtime/sfu-places.ts';

const place: PlaceRef = { kind: 'meeting', id: 'm1' };
const log = { warn: () => {} };

function participant(id: string, told: string[]): Participating {
  let once = false;
  return {
    id,
    role: 'participant',
    place,
    host: false,
    member: null,
    hand: false,
    reannounceHand: () => {},
    connection: { id },
    takenOver: () => {},
    handOverLink: () => undefined,
    lowerHand: () => {},
    chatOff: false,
    chatTurned: () => {},
    send: () => {},
    refuse: () => {},
    end: () => {},
    useSfu: () => {
      if (once) return;
      once = true;
      told.push(id);
    },
  };
}

function routing(placed: boolean): SfuRouting {
  return { fromParticipants: 3, videoSlots: 9, roomFor: async () => undefined, isPlaced: async () => placed };
}

describe('places on the SFU', () => {
  it('moves a place when its list reaches SFU_FROM_PARTICIPANTS, and tells each participant here once', async () => {
    const registry = new Registry();
    const told: string[] = [];
    const places = new SfuPlaces(registry, () => routing(false), log);
    registry.enter(participant('a', told));
    registry.enter(participant('b', told));
    places.counted(place, 2);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(told, [], 'two stay peer-to-peer');
    assert.equal(places.uses(place), false);
    registry.enter(participant('c', told));
    places.counted(place, 3);
    assert.deepEqual(told.sort(), ['a', 'b', 'c']);
    // Back to two: it stays on the SFU, and a newcomer is told too.
    places.counted(place, 2);
    registry.enter(participant('d', told));
    places.counted(place, 3);
    assert.deepEqual(told.sort(), ['a', 'b', 'c', 'd']);
    assert.equal(places.uses(place), true);
  });

  it('keeps a place that was placed earlier on the SFU, however few are present', async () => {
    const registry = new Registry();
    const told: string[] = [];
    const places = new SfuPlaces(registry, () => routing(true), log);
    registry.enter(participant('a', told));
    places.counted(place, 1);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(told, ['a']);
  });

  it('forgets a place when nobody of it is left here', async () => {
    const registry = new Registry();
    const told: string[] = [];
    const places = new SfuPlaces(registry, () => routing(false), log);
    places.counted(place, 3);
    places.released(place);
    assert.equal(places.uses(place), false);
  });

  it('tells nobody without an SFU', async () => {
    const registry = new Registry();
    const told: string[] = [];
    const places = new SfuPlaces(registry, () => undefined, log);
    registry.enter(participant('a', told));
    places.counted(place, 10);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(told, []);
  });
});

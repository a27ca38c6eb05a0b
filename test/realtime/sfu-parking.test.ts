/**
 * SFU links kept through the resume grace (src/realtime/sfu-parking.ts): a
 * parked link is closed when its grace runs out, when it is discarded (a
 * resume elsewhere) or when the instance stops, and not when it is taken
 * back; its relay drops what the link says meanwhile, noting whether the
 * page missed something it needed (anything but a talking event).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerMessage } from '../../src/realtime/protocol.ts';
import { LinkRelay, type HeldLink, type SfuLinkRole } from '../../src/realtime/sfu-link-role.ts';
import { SfuParking } from '../../src/realtime/sfu-parking.ts';

const place = { kind: 'meeting' as const, id: 'm1' };
const track = <T>(p: Promise<T>) => p;

function held(closed: string[], id = 'p1', said: ServerMessage[] = []): HeldLink {
  const link = { close: async () => void closed.push(id) } as unknown as SfuLinkRole;
  return { link, relay: new LinkRelay(id, place, (m) => said.push(m), track) };
}

const talking: ServerMessage = { type: 'sfu', event: 'talking', from: 'p2', talking: true };
const offer: ServerMessage = { type: 'offer', from: 'sfu', sdp: 'v=0' };

describe('SFU links parked through the resume grace', () => {
  it('hands a parked link back on resume, and it is not closed', async () => {
    const closed: string[] = [];
    const parking = new SfuParking(track);
    const link = held(closed);
    parking.park('p1', link, 30);
    assert.ok(parking.take('p1'));
    parking.stop();
    await new Promise((r) => setTimeout(r, 80));
    assert.deepEqual(closed, []);
  });

  it('gives back the very link parked, once', () => {
    const parking = new SfuParking(track);
    const link = held([]);
    parking.park('p1', link, 60_000);
    assert.equal(parking.take('p1')?.link, link.link);
    assert.equal(parking.take('p1'), undefined);
  });

  it('closes a link whose grace runs out', async () => {
    const closed: string[] = [];
    const parking = new SfuParking(track);
    parking.park('p1', held(closed), 20);
    await new Promise((r) => setTimeout(r, 80));
    assert.deepEqual(closed, ['p1']);
    assert.equal(parking.take('p1'), undefined);
  });

  it('closes a discarded link (resumed elsewhere) and every link when the instance stops', async () => {
    const closed: string[] = [];
    const parking = new SfuParking(track);
    parking.park('p1', held(closed, 'p1'), 60_000);
    parking.park('p2', held(closed, 'p2'), 60_000);
    parking.park('p3', held(closed, 'p3'), 60_000);
    parking.discard('p1');
    parking.discard('nobody');
    parking.stop();
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(closed.sort(), ['p1', 'p2', 'p3']);
  });

  it('drops what a parked link says, noting a missed offer but not a talking event, and passes it on once attached', () => {
    const said: ServerMessage[] = [];
    const link = held([], 'p1', said);
    link.relay.send(talking);
    assert.equal(said.length, 1);
    new SfuParking(track).park('p1', link, 60_000);
    link.relay.send(talking);
    assert.equal(link.relay.missed, false);
    link.relay.send(offer);
    assert.equal(link.relay.missed, true);
    const later: ServerMessage[] = [];
    link.relay.attach((m) => later.push(m));
    link.relay.send(offer);
    assert.deepEqual(said, [talking]);
    assert.deepEqual(later, [offer]);
  });
});

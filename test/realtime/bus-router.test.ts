/**
 * The bus router hands a changed waiting list to the lists followed on
 * this instance, under today's name and under the previous release's,
 * which instances not yet upgraded still send during a rolling restart.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BusMessage } from '../../src/realtime/bus.ts';
import { routeBusMessage } from '../../src/realtime/bus-router.ts';
import type { RealtimeServices } from '../../src/realtime/session.ts';

function servicesHearing(changed: Array<[string, string]>): RealtimeServices {
  return { waitingLists: { changed: (organizationId: string, spaceId: string) => changed.push([organizationId, spaceId]) } } as unknown as RealtimeServices;
}

describe('the bus router', () => {
  it('tells the waiting lists followed here that a list changed, under its name and the previous release\'s', () => {
    const changed: Array<[string, string]> = [];
    const services = servicesHearing(changed);
    routeBusMessage(services, { t: 'waiting_list', organizationId: 'org', spaceId: 'today' });
    routeBusMessage(services, { t: 'line', organizationId: 'org', spaceId: 'previous' } as BusMessage);
    assert.deepEqual(changed, [['org', 'today'], ['org', 'previous']]);
  });
});

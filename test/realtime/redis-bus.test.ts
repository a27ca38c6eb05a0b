/**
 * The Redis bus between instances: what one publishes reaches the other
 * once, and a receiver that sees an instance's sequence skip a number (a
 * message lost while Redis was away from the publisher) tells its
 * listeners to catch up.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BusMessage } from '../../src/realtime/bus.ts';
import { RedisBus } from '../../src/realtime/redis-bus.ts';
import { deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { waitFor } from './harness.ts';

const skip = await redisSkipReason();

describe('the Redis bus', { skip }, () => {
  const prefix = uniquePrefix();
  let one: RedisBus;
  let two: RedisBus;
  const got: BusMessage[] = [];
  const lost: string[] = [];
  const line = (spaceId: string): BusMessage => ({ t: 'waiting_list', organizationId: 'o', spaceId });

  before(async () => {
    one = new RedisBus(TEST_REDIS_URL, prefix);
    two = new RedisBus(TEST_REDIS_URL, prefix);
    two.subscribe((m) => got.push(m));
    two.onLost((why) => lost.push(why));
    // start() gives up waiting after 2 s so that Foyer serves without Redis; a loaded machine may need longer to connect.
    await Promise.all([one.start(30_000), two.start(30_000)]);
    await waitFor(() => one.isUp() && two.isUp(), 30_000, 'both connected');
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await deletePrefix(prefix);
  });

  it('delivers in order and asks for a catch-up when a message of an instance went missing', async () => {
    one.publish(line('a'));
    one.publish(line('b'));
    await waitFor(() => got.length === 2, 5000, 'two messages');
    assert.deepEqual(lost, []);
    // A publish that never reached Redis: the next one arrives with a number skipped.
    (one as unknown as { seq: number }).seq += 1;
    one.publish(line('c'));
    await waitFor(() => got.length === 3, 5000, 'the third message');
    assert.deepEqual(got.map((m) => (m.t === 'waiting_list' ? m.spaceId : '')), ['a', 'b', 'c']);
    assert.deepEqual(lost, ['missed']);
  });
});

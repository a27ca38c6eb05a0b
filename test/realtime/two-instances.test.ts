/**
 * Two Foyer front ends (two app instances in this process, each with its
 * own connection pool) on one PostgreSQL database and one Redis:
 * participants connected to different instances see each other, their
 * signalling crosses instances through Redis pub/sub, a delete on one
 * instance ends the meeting on the other at once, and an instance that
 * stops takes its participants out of everyone's list.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMeeting, deleteMeeting } from '../../src/domain/meetings.ts';
import { openStore } from '../../src/store/open.ts';
import type { StoreConnection as Store } from '../../src/domain/ports/store.ts';
import { openTestDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { startFrontEnd, type FrontEnd } from './harness.ts';
import { TestClient } from './ws-client.ts';
import { operatorActor } from '../../src/domain/actors.ts';

const skip = (await postgresSkipReason()) ?? (await redisSkipReason());

describe('two instances on one PostgreSQL and one Redis', { skip }, () => {
  let db: TestDatabase;
  let secondStore: Store;
  let one: FrontEnd;
  let two: FrontEnd;
  let prefix: string;
  const clients: TestClient[] = [];
  const connect = async (fe: FrontEnd) => {
    const c = await TestClient.connect(fe.origin);
    clients.push(c);
    return c;
  };

  before(async () => {
    db = await openTestDatabase('postgres');
    secondStore = await openStore(db.url);
    prefix = uniquePrefix();
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
    one = await startFrontEnd(db.store, { env, realtime: { instanceId: 'one' } });
    two = await startFrontEnd(secondStore, { env, org: one.org, realtime: { instanceId: 'two' } });
  });
  after(async () => {
    for (const c of clients) c.terminate();
    await one?.close();
    await two?.close();
    await secondStore?.close();
    await db?.dispose();
    await deletePrefix(prefix);
  });

  it('shows participants on different instances to each other and relays their signalling', async () => {
    const meeting = await createMeeting(one.ctx, operatorActor(one.org), {});
    const ann = await connect(one);
    const annWelcome = await ann.join({ meetingId: meeting.id }, 'Ann');
    const bob = await connect(two);
    const bobWelcome = await bob.join({ meetingId: meeting.id }, 'Bob');
    assert.deepEqual(bobWelcome.participants.map((p: any) => p.name), ['Ann', 'Bob']);
    await ann.participantsBecome(['Ann', 'Bob']);

    bob.send({ type: 'offer', to: annWelcome.you.id, sdp: 'v=0 from two' });
    assert.deepEqual(await ann.next((m) => m.type === 'offer'), { type: 'offer', from: bobWelcome.you.id, sdp: 'v=0 from two' });
    ann.send({ type: 'answer', to: bobWelcome.you.id, sdp: 'v=0 from one' });
    assert.equal((await bob.next((m) => m.type === 'answer')).sdp, 'v=0 from one');
    ann.send({ type: 'ice', to: bobWelcome.you.id, candidate: null });
    assert.deepEqual(await bob.next((m) => m.type === 'ice'), { type: 'ice', from: annWelcome.you.id, candidate: null });

    // Ann leaves on one; Bob (on two) is still present, so no deadline.
    ann.close();
    await bob.participantsBecome(['Bob']);
    assert.equal((await db.store.live.findMeetingRecord({ id: meeting.id }))?.closesAt, null);
    bob.close();
    await bob.closed;
    const deadline = Date.now() + 3000;
    while ((await db.store.live.findMeetingRecord({ id: meeting.id }))?.closesAt === null) {
      assert.ok(Date.now() < deadline, 'the last departure sets the deadline');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  it('ends a meeting deleted through one instance for participants on the other at once', async () => {
    const meeting = await createMeeting(one.ctx, operatorActor(one.org), {});
    const ann = await connect(one);
    await ann.join({ meetingId: meeting.id }, 'Ann');
    const started = Date.now();
    // Deleted through instance two's domain context (what its v3 DELETE does).
    await deleteMeeting(two.ctx, operatorActor(two.org), meeting.id);
    assert.deepEqual(await ann.next((m) => m.type === 'ended', 1500), { type: 'ended', reason: 'deleted' });
    assert.equal(await ann.closed, 4410);
    assert.ok(Date.now() - started < 1500);
  });

  it('takes the participants of an instance that goes away out of everyone\'s list', async () => {
    const meeting = await createMeeting(one.ctx, operatorActor(one.org), {});
    const ann = await connect(one);
    await ann.join({ meetingId: meeting.id }, 'Ann');
    const extra = await startFrontEnd(secondStore, {
      env: { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix },
      org: one.org,
      realtime: { instanceId: 'three' },
    });
    const cat = await connect(extra);
    await cat.join({ meetingId: meeting.id }, 'Cat');
    await ann.participantsBecome(['Ann', 'Cat']);
    await extra.close();
    assert.equal(await cat.closed, 1001);
    await ann.participantsBecome(['Ann']);
  });
});

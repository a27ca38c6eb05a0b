/**
 * Two Foyer front ends (two app instances in this process, each with its
 * own connection pool) on one PostgreSQL database and one Redis:
 * participants connected to different instances see each other, their
 * signalling crosses instances through Redis pub/sub, a delete on one
 * instance ends the meeting on the other at once, and an instance that
 * stops takes its participants out of everyone's list.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createMeeting, deleteMeeting } from '../../src/domain/meetings.ts';
import { postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { redisSkipReason } from '../support/redis.ts';
import { startFrontEnd, useTwoInstances, type FrontEnd } from './harness.ts';
import { TestClient } from './ws-client.ts';
import { operatorActor } from '../../src/domain/actors.ts';

const skip = (await postgresSkipReason()) ?? (await redisSkipReason());

describe('two instances on one PostgreSQL and one Redis', { skip }, () => {
  const pair = useTwoInstances();
  let db: TestDatabase;
  let one: FrontEnd;
  let two: FrontEnd;
  before(() => ({ db, one, two } = pair));
  const connect = async (fe: FrontEnd) => {
    const c = await TestClient.connect(fe.origin);
    pair.clients.push(c);
    return c;
  };

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
    // Deleted through instance two's domain context (what its v3 DELETE does).
    await deleteMeeting(two.ctx, operatorActor(two.org), meeting.id);
    assert.deepEqual(await ann.next((m) => m.type === 'ended', 15_000), { type: 'ended', reason: 'deleted' });
    assert.equal(await ann.closed, 4410);
  });

  it('takes the participants of an instance that goes away out of everyone\'s list', async () => {
    const meeting = await createMeeting(one.ctx, operatorActor(one.org), {});
    const ann = await connect(one);
    await ann.join({ meetingId: meeting.id }, 'Ann');
    const extra = await startFrontEnd(db.store, {
      env: pair.env,
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

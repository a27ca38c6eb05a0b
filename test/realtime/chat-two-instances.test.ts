/**
 * Chat, hands and reactions across two instances on one PostgreSQL and one
 * Redis: a message sent on one reaches the participants on both, and is
 * in no table; a hand raised while alone on one instance is seen by an
 * arrival on the other, whose list was read from the database (which
 * knows no hands).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { postgresSkipReason } from '../support/databases.ts';
import { redisSkipReason } from '../support/redis.ts';
import { useTwoInstances, type FrontEnd } from './harness.ts';
import { tablesContaining } from './stored-text.ts';
import { TestClient, type Message } from './ws-client.ts';

const skip = (await postgresSkipReason()) ?? (await redisSkipReason());

describe('chat, hands and reactions across two instances', { skip }, () => {
  const pair = useTwoInstances();
  let one: FrontEnd;
  let two: FrontEnd;
  before(() => ({ one, two } = pair));
  const connect = async (fe: FrontEnd) => {
    const c = await TestClient.connect(fe.origin);
    pair.clients.push(c);
    return c;
  };
  const handOf = (m: Message, id: string) => (m.participants as Array<{ id: string; hand: boolean }>).find((p) => p.id === id)?.hand;

  it('relays chat and reactions to the participants of both instances and stores no message', async () => {
    const meeting = await createMeeting(one.ctx, operatorActor(one.org), {});
    const ann = await connect(one);
    const annId = (await ann.join({ meetingId: meeting.id }, 'Ann')).you.id;
    const bob = await connect(two);
    const bobId = (await bob.join({ meetingId: meeting.id }, 'Bob')).you.id;
    const cat = await connect(two);
    await cat.join({ meetingId: meeting.id }, 'Cat');
    for (const c of [ann, bob, cat]) await c.participantsBecome(['Ann', 'Bob', 'Cat']);

    const marker = `across-${Date.now()}`;
    bob.send({ type: 'chat', text: marker });
    for (const c of [ann, bob, cat]) {
      const m = await c.next((x) => x.type === 'chat');
      assert.deepEqual([m.from, m.name, m.text], [bobId, 'Bob', marker]);
    }
    ann.send({ type: 'chat', text: 'from one' });
    assert.equal((await cat.next((x) => x.type === 'chat' && x.from === annId)).text, 'from one');
    ann.send({ type: 'reaction', emoji: '👏' });
    for (const c of [bob, cat]) assert.equal((await c.next((x) => x.type === 'reaction')).from, annId);
    assert.deepEqual(await tablesContaining(pair.db.url, marker), []);
    assert.ok((await tablesContaining(pair.db.url, 'Cat')).length > 0, 'the search finds what is stored');
  });

  it('shows a hand raised on one instance to an arrival on the other, whose list was read from the database', async () => {
    const meeting = await createMeeting(one.ctx, operatorActor(one.org), {});
    const ann = await connect(one);
    const annId = (await ann.join({ meetingId: meeting.id }, 'Ann')).you.id;
    ann.send({ type: 'hand', raised: true });
    await ann.latest('participants', (m) => handOf(m, annId) === true);
    // Nobody of this meeting is on two yet: Bob's list there is read from the database.
    const bob = await connect(two);
    await bob.join({ meetingId: meeting.id }, 'Bob');
    await bob.latest('participants', (m) => handOf(m, annId) === true);
    ann.send({ type: 'hand', raised: false });
    await bob.latest('participants', (m) => handOf(m, annId) === false);
    ann.send({ type: 'hand', raised: true });
    await bob.latest('participants', (m) => handOf(m, annId) === true);
  });
});


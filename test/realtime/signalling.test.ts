/**
 * Signalling and presence over the WebSocket, on SQLite: joining, the
 * server-authoritative participant list, relaying between named peers
 * (never across meetings), dropped connections, refusing bad input
 * without harming others, and refusing ended or unknown meetings.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createMeeting, deleteMeeting } from '../../src/domain/meetings.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startFrontEnd, waitFor, type FrontEnd } from './harness.ts';
import { TestClient } from './ws-client.ts';
import { operatorActor } from '../../src/domain/actors.ts';

describe('signalling over /ws', () => {
  let db: TestDatabase;
  let fe: FrontEnd;
  const clients: TestClient[] = [];
  const connect = async (options?: { autoPong?: boolean }) => {
    const c = await TestClient.connect(fe.origin, options);
    clients.push(c);
    return c;
  };
  /** A new meeting with one joined client per name, returned once the first one sees them all. */
  const meetingWith = async (...names: string[]) => {
    const meeting = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    const people: TestClient[] = [];
    for (const name of names) {
      const c = await connect();
      await c.join({ meetingId: meeting.id }, name);
      people.push(c);
    }
    await people[0]!.participantsBecome(names);
    return { meeting, people };
  };

  before(async () => {
    db = await openTestDatabase('sqlite');
    fe = await startFrontEnd(db.store, { realtime: { pingIntervalMs: 200 } });
  });
  after(async () => {
    for (const c of clients) c.terminate();
    await fe.close();
    await db.dispose();
  });

  it('tells each participant who is present and relays offers, answers and ICE candidates between them', async () => {
    const meeting = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    const ann = await connect();
    const welcomeAnn = await ann.join({ meetingId: meeting.id }, 'Ann');
    assert.equal(welcomeAnn.type, 'welcome');
    assert.equal(welcomeAnn.you.name, 'Ann');
    assert.deepEqual(welcomeAnn.place, { kind: 'meeting', title: null });
    const bob = await connect();
    const welcomeBob = await bob.join({ meetingId: meeting.id }, '  Bob  ');
    assert.deepEqual(welcomeBob.participants.map((p: any) => p.name), ['Ann', 'Bob']);
    await ann.participantsBecome(['Ann', 'Bob']);

    bob.send({ type: 'offer', to: welcomeAnn.you.id, sdp: 'v=0 offer', extra: 'dropped' });
    const offer = await ann.next((m) => m.type === 'offer');
    assert.deepEqual(offer, { type: 'offer', from: welcomeBob.you.id, sdp: 'v=0 offer' });
    ann.send({ type: 'answer', to: welcomeBob.you.id, sdp: 'v=0 answer' });
    assert.equal((await bob.next((m) => m.type === 'answer')).sdp, 'v=0 answer');
    const candidate = { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    ann.send({ type: 'ice', to: welcomeBob.you.id, candidate });
    const ice = await bob.next((m) => m.type === 'ice');
    assert.deepEqual(ice, { type: 'ice', from: welcomeAnn.you.id, candidate: { ...candidate, usernameFragment: null } });

    ann.send({ type: 'media', audio: false, video: true, screen: true });
    await waitFor(() => bob.messages.some((m) => m.type === 'participants' && m.participants.some((p: any) => p.name === 'Ann' && !p.audio && p.screen)));

    ann.send({ type: 'leave' });
    assert.equal(await ann.closed, 1000);
    await bob.participantsBecome(['Bob']);
    const stored = await db.store.live.findMeetingRecord({ id: meeting.id });
    assert.equal(stored?.closesAt, null, 'Bob is still in');
  });

  it('never relays to a participant of another meeting', async () => {
    const one = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    const two = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    const ann = await connect();
    const annWelcome = await ann.join({ meetingId: one.id }, 'Ann');
    const eve = await connect();
    await eve.join({ meetingId: two.id }, 'Eve');
    eve.send({ type: 'offer', to: annWelcome.you.id, sdp: 'v=0 intrusion' });
    eve.send({ type: 'ping' });
    await eve.next((m) => m.type === 'pong');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(ann.messages.filter((m) => m.type === 'offer').length, 0);
  });

  it('closes only the socket that sends malformed or oversized messages', async () => {
    const { meeting, people } = await meetingWith('Ann', 'Mallory');
    const [ann, bad] = people as [TestClient, TestClient];
    bad.sendRaw('{not json');
    assert.equal(await bad.closed, 4400);
    assert.equal(bad.messages.at(-1)?.type, 'error');
    await ann.participantsBecome(['Ann']);

    const big = await connect();
    await big.join({ meetingId: meeting.id }, 'Big');
    big.send({ type: 'answer', to: 'sfu', sdp: 'a'.repeat(600 * 1024) });
    assert.equal(await big.closed, 1009);
    await ann.participantsBecome(['Ann']);

    // Before a join, nothing long.
    const unjoined = await connect();
    unjoined.send({ type: 'join', meetingId: meeting.id, name: 'a'.repeat(100 * 1024) });
    assert.equal(await unjoined.closed, 4400);
    assert.match(JSON.stringify(unjoined.messages.at(-1)), /too long/, 'refused for its length, before it is parsed');

    // Between two browsers an SDP stays small (it is relayed to another page); only the SFU's may grow with the meeting.
    const long = await connect();
    await long.join({ meetingId: meeting.id }, 'Long');
    long.send({ type: 'offer', to: 'x', sdp: 'a'.repeat(70 * 1024) });
    assert.equal(await long.closed, 4400);
    assert.match(JSON.stringify(long.messages.at(-1)), /sdp/);
    await ann.participantsBecome(['Ann']);

    for (const message of [{ type: 'nope' }, { type: 'offer', to: 'x' }, [1, 2], { type: 'ice', to: 'x', candidate: 'str' }]) {
      const c = await connect();
      await c.join({ meetingId: meeting.id }, 'Odd');
      c.send(message);
      assert.equal(await c.closed, 4400, JSON.stringify(message));
    }
    const early = await connect();
    early.send({ type: 'offer', to: 'x', sdp: 'v=0' });
    assert.equal(await early.closed, 4400, 'offer before join');

    ann.send({ type: 'ping' });
    await ann.next((m) => m.type === 'pong');
    await ann.participantsBecome(['Ann']);
  });

  it('refuses bad names and unknown, closed or deleted meetings', async () => {
    const c1 = await connect();
    assert.equal((await c1.join({ meetingId: randomUUID() }, 'Ann')).code, 'not_found');
    assert.equal(await c1.closed, 4404);

    const deleted = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    await deleteMeeting(fe.ctx, operatorActor(fe.org), deleted.id);
    const c2 = await connect();
    assert.equal((await c2.join({ meetingId: deleted.id }, 'Ann')).code, 'deleted');
    assert.equal(await c2.closed, 4410);

    const past = new Date(Date.now() - 61_000);
    const closed = await createMeeting({ ...fe.ctx, now: () => past }, operatorActor(fe.org), {});
    const c3 = await connect();
    assert.equal((await c3.join({ meetingId: closed.id }, 'Ann')).code, 'closed');
    assert.equal(await c3.closed, 4410);

    const open = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    const c4 = await connect();
    assert.equal((await c4.join({ meetingId: open.id }, '   ')).code, 'bad_name');
    const c5 = await connect();
    assert.equal((await c5.join({ slug: 'no-such-room' }, 'Ann')).code, 'not_found');
  });

  it('writes a burst of media changes at most every 250 ms, and always the latest', async () => {
    const [ann, bob] = (await meetingWith('Ann', 'Bob')).people as [TestClient, TestClient];
    const live = fe.ctx.store.live;
    const setMedia = live.setMedia;
    let writes = 0;
    live.setMedia = (...args: Parameters<typeof setMedia>) => {
      writes++;
      return setMedia.apply(live, args);
    };
    try {
      const started = Date.now();
      for (let i = 0; i < 40; i++) ann.send({ type: 'media', audio: i % 2 === 0, video: true, screen: false });
      // The last one sent: audio off (i = 39).
      await waitFor(() => bob.messages.some((m) => m.type === 'participants' && m.participants.some((p: any) => p.name === 'Ann' && p.audio === false)));
      await new Promise((r) => setTimeout(r, 600));
      const elapsed = Date.now() - started;
      assert.ok(writes >= 1 && writes <= Math.ceil(elapsed / 250) + 1, `${writes} writes in ${elapsed} ms for 40 changes`);
      const last = [...bob.messages].reverse().find((m) => m.type === 'participants');
      assert.ok(last);
      assert.equal(last.participants.find((p: any) => p.name === 'Ann').audio, false, 'the latest state won');
    } finally {
      live.setMedia = setMedia;
    }
  });

  it('tells joins, leaves and media changes as deltas: no participant list is read again from the database', async () => {
    const { meeting, people } = await meetingWith('Ann', 'Bob');
    const [ann, bob] = people as [TestClient, TestClient];
    const live = fe.ctx.store.live;
    const listPresent = live.listPresent;
    let reads = 0;
    live.listPresent = (...args: Parameters<typeof listPresent>) => {
      reads++;
      return listPresent.apply(live, args);
    };
    try {
      const cat = await connect();
      await cat.join({ meetingId: meeting.id }, 'Cat');
      await ann.participantsBecome(['Ann', 'Bob', 'Cat']);
      bob.send({ type: 'media', audio: false, video: false, screen: false });
      await waitFor(() => ann.messages.some((m) => m.type === 'participants' && m.participants.some((p: any) => p.name === 'Bob' && !p.audio && !p.video)));
      cat.send({ type: 'leave' });
      await ann.participantsBecome(['Ann', 'Bob']);
      await bob.participantsBecome(['Ann', 'Bob']);
      assert.equal(reads, 0, 'the lists held by the instance were kept by the deltas alone');
    } finally {
      live.listPresent = listPresent;
    }
  });

  it('welcomes an arrival with someone who joined between its read of the list and its welcome', async () => {
    const { meeting, people } = await meetingWith('Ann');
    const [ann] = people as [TestClient];
    // Right after Bob's join commits, before he is welcomed: Cat joins (on another instance, as far as this one knows).
    let injected = false;
    const stop = fe.ctx.events.subscribe((event) => {
      if (injected || event.type !== 'participant.joined' || event.displayName !== 'Bob') return;
      injected = true;
      fe.ctx.events.publish([{ ...event, participantId: randomUUID(), displayName: 'Cat', host: false, at: new Date(event.at.getTime() + 1) }]);
    });
    try {
      const bob = await connect();
      const welcome = await bob.join({ meetingId: meeting.id }, 'Bob');
      assert.ok(injected);
      await ann.participantsBecome(['Ann', 'Bob', 'Cat']);
      assert.deepEqual(welcome.participants.map((p: { name: string }) => p.name), ['Ann', 'Bob', 'Cat'], 'Cat in his welcome, though his join read the list before she came');
    } finally {
      stop();
    }
  });

  it('notices a connection that stops answering pings within seconds', async () => {
    const meeting = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    const ann = await connect();
    await ann.join({ meetingId: meeting.id }, 'Ann');
    const ghost = await connect({ autoPong: false });
    await ghost.join({ meetingId: meeting.id }, 'Ghost');
    await ann.participantsBecome(['Ann', 'Ghost']);
    // The ghost's socket stays open: only the unanswered pings can take it out (timing is left to load).
    // It dropped without leaving, so it is kept, reconnecting, for the resume grace (resume.test.ts follows it further).
    await ann.latest('participants', (m) => m.participants.some((p: { name: string; state: string }) => p.name === 'Ghost' && p.state === 'reconnecting'), 30_000);
    assert.equal(ghost.messages.some((m) => m.type === 'ended'), false);
  });

  it('ends the meeting for everyone in it when it is deleted', async () => {
    const meeting = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    const ann = await connect();
    await ann.join({ meetingId: meeting.id }, 'Ann');
    await deleteMeeting(fe.ctx, operatorActor(fe.org), meeting.id);
    // This harness's ctx has the hub as its events listener, as the app's has.
    assert.deepEqual(await ann.next((m) => m.type === 'ended', 1000), { type: 'ended', reason: 'deleted' });
    assert.equal(await ann.closed, 4410);
  });

  it('puts room visitors in the room session together', async () => {
    const room = await createRoom(fe.ctx, operatorActor(fe.org), { slug: `desk-${randomUUID().slice(0, 8)}`, title: 'Desk' });
    const ann = await connect();
    const welcome = await ann.join({ slug: room.slug }, 'Ann');
    assert.deepEqual(welcome.place, { kind: 'room', title: 'Desk' });
    const bob = await connect();
    await bob.join({ slug: room.slug }, 'Bob');
    await ann.participantsBecome(['Ann', 'Bob']);
  });
});

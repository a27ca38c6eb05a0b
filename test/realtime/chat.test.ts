/**
 * Chat, raised hands and reactions over the WebSocket, on SQLite: relayed
 * to everyone in the meeting (and nobody else) with the sender's name and
 * the time, rebuilt from known fields, refused when too long or too many
 * without closing the socket, never written to the database; a hand seen
 * by everyone, by a later arrival too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMeeting } from '../../src/domain/meetings.ts';
import { operatorActor } from '../../src/domain/actors.ts';
import { CALL_FEATURES, CHAT_RATE, MAX_CHAT_CHARS, REACTIONS } from '../../public/js/shared/call-extras.js';
import { openStore } from '../../src/store/open.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import { freshDatabaseUrl, type FreshDatabaseUrl } from '../support/databases.ts';
import { startFrontEnd, type FrontEnd } from './harness.ts';
import { TestClient, type Message } from './ws-client.ts';
import { tablesContaining } from './stored-text.ts';

describe('chat, hands and reactions over /ws', () => {
  // A file, not memory: the test reads it beside the app to show what was never written.
  let db: FreshDatabaseUrl;
  let store: StoreConnection;
  let fe: FrontEnd;
  const clients: TestClient[] = [];
  const connect = async () => {
    const c = await TestClient.connect(fe.origin);
    clients.push(c);
    return c;
  };
  const meetingWith = async (...names: string[]) => {
    const meeting = await createMeeting(fe.ctx, operatorActor(fe.org), {});
    const people: Array<{ c: TestClient; id: string }> = [];
    for (const name of names) {
      const c = await connect();
      const welcome = await c.join({ meetingId: meeting.id }, name);
      people.push({ c, id: welcome.you.id });
    }
    for (const p of people) await p.c.participantsBecome(names);
    return { meeting, people };
  };
  const chats = (c: TestClient) => c.messages.filter((m) => m.type === 'chat');
  const quiet = () => new Promise((r) => setTimeout(r, 300));

  before(async () => {
    db = await freshDatabaseUrl('sqlite');
    store = await openStore(db.url, { migrate: true });
    fe = await startFrontEnd(store);
  });
  after(async () => {
    for (const c of clients) c.terminate();
    await fe.close();
    await store.close();
    await db.dispose();
  });

  it('relays a chat message to everyone in the meeting, the sender too, with name and time, and to nobody elsewhere', async () => {
    const { people } = await meetingWith('Ann', 'Bob');
    const [ann, bob] = people as [{ c: TestClient; id: string }, { c: TestClient; id: string }];
    const { people: others } = await meetingWith('Eve');
    const welcome = ann.c.messages.find((m) => m.type === 'welcome')!;
    assert.deepEqual(welcome.features, CALL_FEATURES);
    const sentAt = Date.now();
    ann.c.send({ type: 'chat', text: '  Hello <b>Bob</b>, see https://example.org/x\r\n  ', html: '<script>', name: 'Mallory', from: 'x' });
    for (const p of [ann, bob]) {
      const m = await p.c.next((x) => x.type === 'chat');
      assert.deepEqual(Object.keys(m).sort(), ['at', 'from', 'name', 'text', 'type']);
      assert.equal(m.from, ann.id);
      assert.equal(m.name, 'Ann');
      assert.equal(m.text, 'Hello <b>Bob</b>, see https://example.org/x');
      assert.ok(Math.abs(Date.parse(m.at) - sentAt) < 5000, m.at);
    }
    await quiet();
    assert.equal(chats(others[0]!.c).length, 0, 'another meeting hears nothing');
  });

  it('refuses a message too long or empty with an error about the chat, keeps the socket, and relays nothing', async () => {
    const { people } = await meetingWith('Ann', 'Bob');
    const [ann, bob] = people as [{ c: TestClient; id: string }, { c: TestClient; id: string }];
    for (const text of ['x'.repeat(MAX_CHAT_CHARS + 1), '   \n ', '\u0007']) {
      const from = ann.c.messages.length;
      ann.c.send({ type: 'chat', text });
      const error = await ann.c.next((m) => m.type === 'error', 5000, from);
      assert.equal(error.code, 'validation_failed');
      assert.equal(error.about, 'chat');
    }
    ann.c.send({ type: 'chat', text: 'y'.repeat(MAX_CHAT_CHARS) });
    assert.equal((await bob.c.next((m) => m.type === 'chat')).text.length, MAX_CHAT_CHARS);
    assert.equal(chats(bob.c).length, 1);
    assert.equal(ann.c.closeCode, undefined);
    // Not a string at all is a malformed message, as for every type.
    ann.c.send({ type: 'chat', text: 42 });
    assert.equal(await ann.c.closed, 4400);
  });

  it(`takes ${CHAT_RATE.burst} messages at once, refuses more with slow_down, and takes one more a moment later`, async () => {
    const { people } = await meetingWith('Ann', 'Bob');
    const [ann, bob] = people as [{ c: TestClient; id: string }, { c: TestClient; id: string }];
    for (let i = 0; i <= CHAT_RATE.burst; i++) ann.c.send({ type: 'chat', text: `m${i}` });
    const refused = await ann.c.next((m) => m.type === 'error');
    assert.equal(refused.code, 'slow_down');
    assert.equal(refused.about, 'chat');
    await bob.c.next((m) => m.type === 'chat' && m.text === `m${CHAT_RATE.burst - 1}`);
    await quiet();
    assert.deepEqual(chats(bob.c).map((m) => m.text), Array.from({ length: CHAT_RATE.burst }, (_, i) => `m${i}`));
    await new Promise((r) => setTimeout(r, CHAT_RATE.everyMs + 100));
    ann.c.send({ type: 'chat', text: 'later' });
    await bob.c.next((m) => m.type === 'chat' && m.text === 'later');
  });

  it('relays the offered reactions to everyone and refuses any other', async () => {
    const { people } = await meetingWith('Ann', 'Bob');
    const [ann, bob] = people as [{ c: TestClient; id: string }, { c: TestClient; id: string }];
    bob.c.send({ type: 'reaction', emoji: '<img src=x>' });
    const error = await bob.c.next((m) => m.type === 'error');
    assert.deepEqual([error.code, error.about], ['validation_failed', 'reaction']);
    bob.c.send({ type: 'reaction', emoji: REACTIONS[1] });
    for (const p of [ann, bob]) assert.deepEqual(await p.c.next((m) => m.type === 'reaction'), { type: 'reaction', from: bob.id, emoji: REACTIONS[1] });
    assert.equal(ann.c.messages.filter((m) => m.type === 'reaction').length, 1);
  });

  it('shows a raised hand to everyone, to a later arrival in their welcome too, until it is lowered or its owner leaves', async () => {
    const { meeting, people } = await meetingWith('Ann', 'Bob');
    const [ann, bob] = people as [{ c: TestClient; id: string }, { c: TestClient; id: string }];
    const handOf = (m: Message, id: string) => (m.participants as Array<{ id: string; hand: boolean }>).find((p) => p.id === id)?.hand;
    assert.equal(handOf(ann.c.messages.find((m) => m.type === 'welcome')!, ann.id), false);
    bob.c.send({ type: 'hand', raised: true });
    for (const p of [ann, bob]) await p.c.latest('participants', (m) => handOf(m, bob.id) === true);
    const cat = await connect();
    const welcome = await cat.join({ meetingId: meeting.id }, 'Cat');
    assert.equal(handOf(welcome, bob.id), true);
    assert.equal(handOf(welcome, ann.id), false);
    bob.c.send({ type: 'hand', raised: false });
    await cat.latest('participants', (m) => handOf(m, bob.id) === false);
    // A burst of changes: the last one stands.
    for (let i = 0; i < 20; i++) ann.c.send({ type: 'hand', raised: i % 2 === 0 });
    ann.c.send({ type: 'hand', raised: true });
    await cat.latest('participants', (m) => handOf(m, ann.id) === true);
    await quiet();
    assert.equal(handOf(cat.messages.filter((m) => m.type === 'participants').at(-1)!, ann.id), true);
    ann.c.close();
    await cat.participantsBecome(['Bob', 'Cat']);
  });

  it('writes no chat message to the database', async () => {
    const { people } = await meetingWith('Ann', 'Bob');
    const marker = `never-stored-${Date.now()}`;
    people[0]!.c.send({ type: 'chat', text: marker });
    await people[1]!.c.next((m) => m.type === 'chat' && m.text === marker);
    assert.deepEqual(await tablesContaining(db.url, marker), []);
    // The search does find what is stored.
    assert.ok((await tablesContaining(db.url, 'Bob')).length > 0);
  });
});

/**
 * Waiting lists over the signalling protocol, with two Foyer instances on
 * one PostgreSQL database and one Redis: a client waiting on one instance
 * is seen by a member's console on the other, taken, moved into a private
 * call that starts when the member joins it and ends when someone hangs
 * up; two members racing for one client; a reload within the grace period;
 * and hostile messages refused without changing anything.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { addUser, createOrganization } from '../../src/domain/organizations.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import { createSpace, getSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { Space, User } from '../../src/domain/types.ts';
import { postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { redisSkipReason } from '../support/redis.ts';
import { useTwoInstances, type FrontEnd } from './harness.ts';
import { TestClient, type Message } from './ws-client.ts';

const skip = (await postgresSkipReason()) ?? (await redisSkipReason());
let sequence = 0;

describe('waiting lists across two instances on one PostgreSQL and one Redis', { skip }, () => {
  const pair = useTwoInstances({ env: { PASSWORD_HASH_COST: '14' }, orgType: 'medical' });
  let db: TestDatabase;
  let one: FrontEnd;
  let two: FrontEnd;
  let drA: User;
  let drB: User;

  const connect = async (fe: FrontEnd, member?: User) => {
    const headers: Record<string, string> = { origin: fe.origin };
    if (member) headers.cookie = `foyer_session=${(await startSession(fe.ctx, member, 'password')).token}`;
    const c = await TestClient.connect(fe.origin, { headers });
    pair.clients.push(c);
    return c;
  };
  const newSpace = async (kind: 'board' | 'queue', members: User[]): Promise<Space> => {
    const operator = operatorActor(one.org);
    const space = await createSpace(one.ctx, operator, kind, { name: `${kind} ${++sequence}`, slug: `${kind}-${sequence}-${Date.now().toString(36)}` });
    return updateSpace(one.ctx, operator, kind, space.id, { memberIds: members.map((m) => m.id) });
  };
  const wait = async (fe: FrontEnd, space: Space, name: string, token?: string) => {
    const c = await connect(fe);
    c.send({ type: 'wait', slug: space.slug, name, token: token ?? null });
    // The answer to `wait` carries the token; a view of the line pushed by another instance's change may come just before it.
    const first = await c.next((m) => (m.type === 'waiting' && m.token !== undefined) || m.type === 'error');
    assert.equal(first.type, 'waiting', JSON.stringify(first));
    // As the waiting page does: only a page that answered keeps its place through a lost connection.
    c.send({ type: 'here' });
    await c.roundTrip();
    return { client: c, token: first.token as string };
  };
  const openConsole = async (fe: FrontEnd, member: User, space: Space) => {
    const c = await connect(fe, member);
    c.send({ type: 'console', kind: space.kind, spaceId: space.id });
    const first = await c.next((m) => m.type === 'console' || m.type === 'error');
    assert.equal(first.type, 'console', JSON.stringify(first));
    return c;
  };
  const waitingNames = (m: Message) => (m.view.waiting as Array<{ name: string }>).map((w) => w.name);

  before(async () => {
    ({ db, one, two } = pair);
    drA = await addUser(one.ctx, one.operator, { email: 'a@clinic.test', fullName: 'Dr A' });
    drB = await addUser(one.ctx, one.operator, { email: 'b@clinic.test', fullName: 'Dr B' });
  });

  it('shows a client waiting on one instance in a console on the other, and moves both into a call that starts and ends', async () => {
    const queue = await newSpace('queue', [drA]);
    const console = await openConsole(two, drA, queue);
    const { client } = await wait(one, queue, 'Ann');
    await console.latest('console', (m) => waitingNames(m).includes('Ann'));
    const view = (await client.latest('waiting', (m) => m.view.state === 'waiting')).view;
    assert.equal(view.position, 1);
    assert.equal(view.available, true);

    console.send({ type: 'take_next' });
    const mine = await console.latest('console', (m) => m.view.me.current !== null);
    const meetingId = mine.view.me.current.meetingId as string;
    const admitted = await client.latest('waiting', (m) => m.view.state === 'reserved');
    assert.equal(admitted.view.meetingId, meetingId);
    assert.equal(admitted.view.servedByName, 'Dr A');

    const drCall = await connect(two, drA);
    await drCall.join({ meetingId }, 'Dr A');
    const annCall = await connect(one);
    await annCall.join({ meetingId }, 'Ann');
    await client.latest('waiting', (m) => m.view.state === 'in_call');
    const during = (await getSpace(one.ctx, operatorActor(one.org), 'queue', queue.id)).members[0];
    assert.ok(during?.joinedCallAt instanceof Date, 'joinedCallAt set while in the call');

    drCall.send({ type: 'leave' });
    assert.equal((await annCall.next((m) => m.type === 'ended')).type, 'ended');
    await client.latest('waiting', (m) => m.view.state === 'served');
    const after = (await getSpace(one.ctx, operatorActor(one.org), 'queue', queue.id)).members[0];
    assert.equal(after?.joinedCallAt, null);
    await console.latest('console', (m) => m.view.me.current === null);
  });

  it('gives a client to one of two members accepting at once on different instances, and shows the others who took them', async () => {
    const board = await newSpace('board', [drA, drB]);
    const consoleA = await openConsole(one, drA, board);
    const consoleB = await openConsole(two, drB, board);
    await wait(one, board, 'Bob');
    const seen = await consoleB.latest('console', (m) => waitingNames(m).includes('Bob'));
    const entryId = seen.view.waiting[0].id as string;
    await consoleA.latest('console', (m) => waitingNames(m).includes('Bob'));
    consoleA.send({ type: 'accept', entryId });
    consoleB.send({ type: 'accept', entryId });
    const a = await consoleA.latest('console', (m) => m.view.serving.length === 1);
    const b = await consoleB.latest('console', (m) => m.view.serving.length === 1);
    const winner = a.view.serving[0].servedByName as string;
    assert.ok(['Dr A', 'Dr B'].includes(winner));
    assert.equal(b.view.serving[0].servedByName, winner, 'both consoles show who took the client');
    const loser = winner === 'Dr A' ? consoleB : consoleA;
    const refusal = await loser.next((m) => m.type === 'error');
    assert.match(refusal.message, /no longer waiting|taken/);
    const holders = (await getSpace(one.ctx, operatorActor(one.org), 'board', board.id)).members;
    assert.equal((await Promise.all(holders.map((m) => db.store.memberCurrentEntry(board.id, m.userId)))).filter(Boolean).length, 1);
  });

  it("shows a client's device and network check on a console of the other instance, and its change while they wait", async () => {
    const board = await newSpace('board', [drA]);
    const console = await openConsole(two, drA, board);
    const c = await connect(one);
    c.send({ type: 'wait', slug: board.slug, name: 'Gia', token: null, readiness: { camera: 'blocked', microphone: 'ok', network: 'poor' } });
    await c.next((m) => m.type === 'waiting');
    const readinessOf = (m: Message) => (m.view.waiting as Array<{ name: string; readiness: unknown }>).find((w) => w.name === 'Gia')?.readiness;
    await console.latest('console', (m) => JSON.stringify(readinessOf(m)) === JSON.stringify({ camera: 'blocked', microphone: 'ok', network: 'poor' }));
    c.send({ type: 'readiness', readiness: { camera: 'ok', microphone: 'ok', network: 'good' } });
    await console.latest('console', (m) => JSON.stringify(readinessOf(m)) === JSON.stringify({ camera: 'ok', microphone: 'ok', network: 'good' }));
  });

  it('keeps the place of a client who reloads, on whichever instance they come back to', async () => {
    const queue = await newSpace('queue', [drB]);
    const first = await wait(one, queue, 'Cid');
    await wait(two, queue, 'Dan');
    first.client.terminate();
    const back = await wait(two, queue, 'Cid', first.token);
    assert.equal(back.token, first.token);
    const view = await back.client.latest('waiting', (m) => m.view.state === 'waiting');
    assert.equal(view.view.position, 1);
  });

  it('refuses hostile messages with a clear close code and changes nothing', async () => {
    const board = await newSpace('board', [drA]);
    const { client } = await wait(one, board, 'Eve');
    client.send({ type: 'accept', entryId: 'anything' });
    assert.equal(await client.closed, 4400, 'a waiting client cannot accept');

    const anonymous = await connect(two);
    anonymous.send({ type: 'console', kind: 'board', spaceId: board.id });
    assert.equal((await anonymous.next((m) => m.type === 'error')).code, 'not_signed_in');

    const stranger = await createOrganization(one.ctx, { name: 'Other', type: 'basic', slug: `other-${Date.now().toString(36)}` });
    const zed = await addUser(one.ctx, operatorActor(stranger), { email: 'zed@other.test', fullName: 'Zed' });
    const foreign = await connect(one, zed);
    foreign.send({ type: 'console', kind: 'board', spaceId: board.id });
    assert.equal(await foreign.closed, 4404, 'another organization’s board does not exist');

    const crossSite = await TestClient.connect(one.origin, {
      headers: { origin: 'https://evil.example', cookie: `foyer_session=${(await startSession(one.ctx, drA, 'password')).token}` },
    });
    pair.clients.push(crossSite);
    crossSite.send({ type: 'console', kind: 'board', spaceId: board.id });
    assert.equal((await crossSite.next((m) => m.type === 'error')).code, 'not_signed_in', 'a page of another site gets no member socket');

    const member = await openConsole(one, drA, board);
    member.send({ type: 'accept', entryId: '00000000-0000-4000-8000-000000000000' });
    assert.match((await member.next((m) => m.type === 'error')).message, /no longer waiting/);
    // Eve is still in line (her socket closed, she has the grace period), not taken by anyone.
    const view = await member.latest('console', () => true);
    assert.deepEqual(waitingNames(view), ['Eve']);
    assert.deepEqual(view.view.serving, []);
  });
});

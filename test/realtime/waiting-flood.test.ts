/**
 * A waiting list flooded from one address, over the signalling protocol,
 * with two Foyer instances on one PostgreSQL database and one Redis (the
 * caps are counted in the database, so they hold across instances): places
 * of sockets that wait and close vanish at once, one address holds at most
 * WAITING_PER_ADDRESS places, a real patient from another address stays
 * near the front and is never refused, and a member removes a place from
 * their console.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { addUser } from '../../src/domain/organizations.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { Space, User } from '../../src/domain/types.ts';
import { ACTIVE_STATES } from '../../src/domain/waiting/types.ts';
import { postgresSkipReason } from '../support/databases.ts';
import { redisSkipReason } from '../support/redis.ts';
import { useTwoInstances, waitFor, type FrontEnd } from './harness.ts';
import { TestClient, type Message } from './ws-client.ts';

const skip = (await postgresSkipReason()) ?? (await redisSkipReason());
const PER_ADDRESS = 20;
const FLOODER = '203.0.113.66';
let sequence = 0;

describe('a waiting list flooded from one address, across two instances on one PostgreSQL and one Redis', { skip }, () => {
  // TRUST_PROXY: the test's sockets all come from loopback, X-Forwarded-For gives each its address.
  const pair = useTwoInstances({ env: { PASSWORD_HASH_COST: '14', TRUST_PROXY: 'true', WAITING_PER_ADDRESS: String(PER_ADDRESS) }, orgType: 'medical' });
  let one: FrontEnd;
  let two: FrontEnd;
  let dr: User;

  const connect = async (fe: FrontEnd, address: string, member?: User) => {
    const headers: Record<string, string> = { origin: fe.origin, 'x-forwarded-for': address };
    if (member) headers.cookie = `foyer_session=${(await startSession(fe.ctx, member, 'password')).token}`;
    const c = await TestClient.connect(fe.origin, { headers });
    pair.clients.push(c);
    return c;
  };
  const newQueue = async (): Promise<Space> => {
    const operator = operatorActor(one.org);
    const queue = await createSpace(one.ctx, operator, 'queue', { name: `Walk-in ${++sequence}`, slug: `flood-${sequence}-${Date.now().toString(36)}` });
    return updateSpace(one.ctx, operator, 'queue', queue.id, { memberIds: [dr.id] });
  };
  /** A patient's waiting page: waits, and answers its first view. */
  const patient = async (fe: FrontEnd, queue: Space, address: string, name = 'Real Patient') => {
    const c = await connect(fe, address);
    c.send({ type: 'wait', slug: queue.slug, name, token: null });
    // Generous: the flood's own arrivals are served before it on a loaded machine.
    const first = await c.next((m) => m.type === 'waiting' || m.type === 'error', 30_000);
    assert.equal(first.type, 'waiting', JSON.stringify(first));
    c.send({ type: 'here' });
    await c.roundTrip();
    return c;
  };
  const openConsole = async (fe: FrontEnd, queue: Space) => {
    const c = await connect(fe, '198.51.100.200', dr);
    c.send({ type: 'console', kind: 'queue', spaceId: queue.id });
    assert.equal((await c.next((m) => m.type === 'console' || m.type === 'error')).type, 'console');
    return c;
  };
  const waitingNames = (m: Message) => (m.view.waiting as Array<{ name: string }>).map((w) => w.name);
  const activeCount = async (queue: Space) => (await pair.db.store.listWaitingEntries(queue.id, ACTIVE_STATES)).length;

  before(async () => {
    ({ one, two } = pair);
    dr = await addUser(one.ctx, one.operator, { email: 'dr@flood.test', fullName: 'Dr Flood' });
  });

  it('leaves a real patient first when 150 sockets from one address each wait and close', async () => {
    const queue = await newQueue();
    const console = await openConsole(two, queue);
    const flood = async (from: number, to: number) => {
      const batch: Array<Promise<void>> = [];
      for (let i = from; i < to; i++) {
        batch.push(
          (async () => {
            const c = await connect(i % 2 ? one : two, FLOODER);
            c.send({ type: 'wait', slug: queue.slug, name: `Flood ${i}`, token: null });
            c.close();
            await c.closed;
          })(),
        );
      }
      await Promise.all(batch);
    };
    await flood(0, 50);
    const real = await patient(one, queue, '198.51.100.7');
    await flood(50, 150);

    await waitFor(async () => (await activeCount(queue)) === 1, 30_000, 'the flood’s places to end');
    const view = await real.latest('waiting', (m) => m.view.state === 'waiting' && m.view.position === 1, 30_000);
    assert.ok(view.view.position <= 5);
    const seen = await console.latest('console', (m) => waitingNames(m).length === 1, 30_000);
    assert.deepEqual(waitingNames(seen), ['Real Patient']);
  });

  it('holds at most WAITING_PER_ADDRESS places from one address across both instances, refuses the rest clearly, and lets the patient in', async () => {
    const queue = await newQueue();
    const held: TestClient[] = [];
    const refusals: Message[] = [];
    await Promise.all(
      Array.from({ length: PER_ADDRESS + 10 }, async (_, i) => {
        const c = await connect(i % 2 ? one : two, FLOODER);
        c.send({ type: 'wait', slug: queue.slug, name: `Held ${i}`, token: null });
        const first = await c.next((m) => m.type === 'waiting' || m.type === 'error', 30_000);
        if (first.type === 'waiting') {
          c.send({ type: 'here' });
          held.push(c);
        } else {
          refusals.push(first);
          assert.equal(await c.closed, 4403);
        }
      }),
    );
    assert.equal(held.length, PER_ADDRESS);
    assert.equal(refusals.length, 10);
    assert.ok(refusals.every((r) => r.code === 'too_many_waiting'), JSON.stringify(refusals[0]));

    // Patients on a shared network (another address each, or a few on one) are not refused.
    const real = await patient(two, queue, '198.51.100.8');
    const neighbour = await patient(one, queue, '198.51.100.8', 'Neighbour');
    assert.equal((await real.latest('waiting', (m) => m.view.position !== null)).view.position, PER_ADDRESS + 1);

    // The member clears the flood from the console; the patients move to the front.
    const console = await openConsole(one, queue);
    const first = await console.latest('console', (m) => m.view.waiting.length === PER_ADDRESS + 2, 30_000);
    for (const entry of first.view.waiting as Array<{ id: string; name: string }>) {
      if (entry.name.startsWith('Held')) console.send({ type: 'remove_client', entryId: entry.id });
    }
    const cleared = await console.latest('console', (m) => m.view.waiting.length === 2, 30_000);
    assert.deepEqual(waitingNames(cleared), ['Real Patient', 'Neighbour']);
    assert.equal((await real.latest('waiting', (m) => m.view.position === 1)).view.position, 1);
    assert.equal((await neighbour.latest('waiting', (m) => m.view.position === 2)).view.position, 2);
    const removed = await held[0]!.latest('waiting', (m) => m.view.state === 'declined');
    assert.equal(removed.view.position, null);
    const entries = await pair.db.store.listEndedWaitingEntries(queue.id, new Date(0), 100);
    assert.equal(entries.filter((e) => e.outcome === 'removed').length, PER_ADDRESS);
  });
});

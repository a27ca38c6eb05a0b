/**
 * Redis going away while two instances on one PostgreSQL serve traffic:
 * a 12-second outage (every Redis connection cut and refused, through a
 * proxy, then back on the same address) under steady API load and with a
 * meeting in progress across both instances. No 5xx during it; a
 * participant who joined during it is seen, and signalled, by one on the
 * other instance once Redis is back, without anyone reconnecting; a chat
 * switch turned off meanwhile is enforced there too; the
 * per-key limit is shared again afterwards; and the logs stay short.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { apiKeyActor } from '../../src/domain/actors.ts';
import { setChatOff } from '../../src/domain/hosting.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import { openStore } from '../../src/store/open.ts';
import { openTestDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { deletePrefix, redisSkipReason, uniquePrefix } from '../support/redis.ts';
import { client, credentialHeaders, seedOrganization, startServer, type TestServer } from '../support/server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { TestClient } from '../realtime/ws-client.ts';

const OUTAGE_MS = 12_000;
const LIMIT = 40;
const skip = (await postgresSkipReason()) ?? (await redisSkipReason());

/** A log destination that keeps each line, with the time it was written. */
function logSink(lines: Array<{ at: number; text: string }>) {
  return new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push({ at: Date.now(), text });
      done();
    },
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Redis going away while two instances run', { skip }, () => {
  let proxy: TcpProxy;
  let db: TestDatabase;
  let secondStore: StoreConnection;
  let one: TestServer;
  let two: TestServer;
  const prefix = uniquePrefix();
  const logs: Array<{ at: number; text: string }> = [];
  const sockets: TestClient[] = [];

  before(async () => {
    proxy = await startTcpProxy(6379);
    db = await openTestDatabase('postgres');
    secondStore = await openStore(db.url);
    const overrides = { redisUrl: `redis://127.0.0.1:${proxy.port}`, redisKeyPrefix: prefix, rateLimitPerMinute: LIMIT, logLevel: 'info' as const };
    const options = (instanceId: string) => ({ limits: true, logger: { stream: logSink(logs) }, realtime: { instanceId, pingIntervalMs: 500 } });
    one = await startServer(db.store, overrides, options('one'));
    two = await startServer(secondStore, overrides, options('two'));
  });
  after(async () => {
    for (const s of sockets) s.terminate();
    await one?.close();
    await two?.close();
    await secondStore?.close();
    await db?.dispose();
    await proxy?.close();
    await deletePrefix(prefix);
  });

  const connect = async (server: TestServer, name: string, meetingId: string) => {
    const c = await TestClient.connect(server.origin, { headers: { origin: server.origin } });
    sockets.push(c);
    const welcome = await c.join({ meetingId }, name);
    assert.equal(welcome.type, 'welcome', JSON.stringify(welcome));
    return { c, id: welcome.you.id as string };
  };

  it('serves without 5xx through a 12 s outage, then shows and signals across instances and shares limits again', async () => {
    const seeded = await seedOrganization(one.ctx, 'basic');
    const created = await client(one.baseUrl, seeded).post('/v3/meeting', { json: { isInfinite: true } });
    assert.equal(created.status, 201, created.text);
    const meetingId = created.body.id as string;
    const ann = await connect(one, 'Ann', meetingId);
    const bob = await connect(two, 'Bob', meetingId);
    await ann.c.participantsBecome(['Ann', 'Bob']);

    // Steady load on both instances, each request with a key of its own organization (so the limit is not what refuses them).
    const statuses: number[] = [];
    let loading = true;
    const load = async (server: TestServer) => {
      while (loading) {
        const tenant = await seedOrganization(one.ctx, 'basic').catch(() => undefined);
        if (!tenant) continue;
        for (let i = 0; i < 5 && loading; i++) {
          const res = await fetch(`${server.baseUrl}/v3/organizations`, { headers: credentialHeaders(tenant.key.publicKey, tenant.secret) });
          statuses.push(res.status);
        }
        await sleep(20);
      }
    };
    const loaders = [load(one), load(two), load(one), load(two)];

    await sleep(500);
    const outageStart = Date.now();
    await proxy.down();
    await sleep(3000);
    // Redis is really away for both instances...
    for (const server of [one, two]) assert.equal((await (await fetch(`${server.origin}/ready`)).json()).redis, 'unavailable');
    // ...and a join now is recorded in the database, but Redis cannot tell the other instance.
    const cat = await connect(two, 'Cat', meetingId);
    await sleep(1000);
    const lists = ann.c.messages.filter((m) => m.type === 'participants' || m.type === 'welcome');
    const seen = (lists.at(-1)!.participants as Array<{ name: string }>).map((p) => p.name).sort();
    assert.deepEqual(seen, ['Ann', 'Bob'], 'Ann is not told of Cat while Redis is away');
    // The organization's server turns the chat off meanwhile: stored, but instance two is not told.
    assert.equal(await setChatOff(one.ctx, apiKeyActor(seeded.organization, seeded.key.id), meetingId, true), true);
    await sleep(OUTAGE_MS - 3000);
    const outageEnd = Date.now();
    await proxy.up();

    // Ann never reconnected, yet sees Cat once Redis is back (the instances catch up from the database)...
    await ann.c.participantsBecome(['Ann', 'Bob', 'Cat'], 20_000);
    // ...and signalling between instances flows again (an offer from Cat on two reaches Ann on one).
    const deadline = Date.now() + 15_000;
    let relayed = false;
    while (!relayed && Date.now() < deadline) {
      cat.c.send({ type: 'offer', to: ann.id, sdp: 'v=0 test' });
      relayed = await ann.c.next((m) => m.type === 'offer' && m.from === cat.id, 500).then(() => true, () => false);
    }
    assert.ok(relayed, 'an offer relayed from instance two to instance one after the outage');
    // ...and instance two, catching up, enforces the chat switch it missed: Bob is told, and his message is refused.
    await bob.c.next((m) => m.type === 'chat_state' && m.off === true, 15_000);
    const from = bob.c.messages.length;
    bob.c.send({ type: 'chat', text: 'still on?' });
    const refused = await bob.c.next((m) => m.type === 'error', 5000, from);
    assert.deepEqual([refused.code, refused.about], ['chat_off', 'chat']);
    assert.ok(!ann.c.messages.some((m) => m.type === 'chat'), 'no chat reached Ann');
    assert.equal(ann.c.closeCode, undefined, 'Ann stayed connected throughout');

    loading = false;
    await Promise.all(loaders);
    assert.ok(statuses.length > 50, `requests during the test: ${statuses.length}`);
    const failures = statuses.filter((s) => s >= 500);
    assert.deepEqual(failures, [], `no 5xx among ${statuses.length} requests`);
    assert.ok(statuses.every((s) => s === 200), `statuses: ${[...new Set(statuses)].join(', ')}`);

    // Both limiters back on Redis: one fresh key, requests in pairs across both instances, exactly LIMIT accepted in all.
    for (const server of [one, two]) {
      const until = Date.now() + 15_000;
      while ((await (await fetch(`${server.origin}/ready`)).json()).redis !== 'ok' && Date.now() < until) await sleep(200);
      assert.equal((await (await fetch(`${server.origin}/ready`)).json()).redis, 'ok', 'Redis back for the limiter');
    }
    const shared = await seedOrganization(one.ctx, 'basic');
    const headers = credentialHeaders(shared.key.publicKey, shared.secret);
    let accepted = 0;
    for (let round = 0; round < LIMIT / 2 + 10; round++) {
      const answers = await Promise.all([one, two].map((s) => fetch(`${s.baseUrl}/v3/organizations`, { headers })));
      accepted += answers.filter((r) => r.status === 200).length;
    }
    assert.equal(accepted, LIMIT, 'one limit shared by both instances again');

    // A short log: warnings about Redis are throttled, not one per reconnect attempt or request.
    const during = logs.filter((l) => l.at >= outageStart && l.at <= outageEnd && !l.text.includes('"request completed"') && !l.text.includes('"incoming request"'));
    assert.ok(during.length <= 12, `log lines during the outage besides requests: ${during.length}\n${during.map((l) => l.text.slice(0, 200)).join('\n')}`);
  });
});

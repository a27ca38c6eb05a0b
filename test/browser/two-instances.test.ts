/**
 * Two Foyer instances (two apps, each with its own pool) on one PostgreSQL
 * database and one Redis, and one participant's browser on each: they see
 * each other and receive each other's live video, the signalling having
 * crossed instances through Redis.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { openStore } from '../../src/store/open.ts';
import type { StoreConnection as Store } from '../../src/domain/ports/store.ts';
import { openTestDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { client, seedOrganization, startServer, type TestServer } from '../support/server.ts';
import { browserSkipReason, framesDecoded, joinAs, launch, openParticipant, waitForParticipants, type Participant } from './support.ts';

const skip = browserSkipReason() ?? (await postgresSkipReason()) ?? (await redisSkipReason());

describe('a meeting across two instances in Chromium', { skip }, () => {
  let db: TestDatabase;
  let secondStore: Store;
  let one: TestServer;
  let two: TestServer;
  let prefix: string;
  let browser: Browser;
  const opened: Participant[] = [];

  before(async () => {
    db = await openTestDatabase('postgres');
    secondStore = await openStore(db.url);
    prefix = uniquePrefix();
    const redis = { redisUrl: TEST_REDIS_URL, redisKeyPrefix: prefix };
    one = await startServer(db.store, redis);
    two = await startServer(secondStore, redis);
    browser = await launch();
  });
  after(async () => {
    for (const p of opened) await p.context.close().catch(() => {});
    await browser?.close();
    await one?.close();
    await two?.close();
    await secondStore?.close();
    await db?.dispose();
    await deletePrefix(prefix);
  });

  it('lets participants on different instances see each other\'s live video', async () => {
    const seeded = await seedOrganization(one.ctx, 'basic');
    const created = await client(one.baseUrl, seeded).post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201);
    const path = new URL(created.body.redirectUrl).pathname;
    const ann = await openParticipant(browser, one.origin + path);
    opened.push(ann);
    const bob = await openParticipant(browser, two.origin + path);
    opened.push(bob);
    await joinAs(ann.page, 'Ann');
    await joinAs(bob.page, 'Bob');
    await waitForParticipants(ann.page, ['Ann', 'Bob']);
    await waitForParticipants(bob.page, ['Ann', 'Bob']);
    for (const p of [ann, bob]) {
      await p.page.waitForFunction(
        async () => Object.values(await (window as any).foyer.framesDecoded()).some((n) => (n as number) > 0),
        undefined,
        { timeout: 20_000, polling: 250 },
      );
    }
    const before = await framesDecoded(bob.page);
    await new Promise((r) => setTimeout(r, 1000));
    const later = await framesDecoded(bob.page);
    const peer = Object.keys(later)[0]!;
    assert.ok(later[peer]! > before[peer]!, 'frames keep arriving across instances');
  });
});

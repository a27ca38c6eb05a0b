/**
 * Chat, a raised hand and a reaction in real headless Chromium, between
 * two Foyer instances on one PostgreSQL and one Redis (one participant on
 * each): the message crosses instances with its sender's name and time,
 * counts as unread on the other's "Chat" button (whose name stays "Chat")
 * and is announced; markup in it stays text and only http(s) addresses
 * become links, opening elsewhere and passing nothing on; Enter sends.
 * A hand raised on one page shows on the other's tile and is announced;
 * so is a reaction.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { StoreConnection as Store } from '../../src/domain/ports/store.ts';
import { openStore } from '../../src/store/open.ts';
import { openTestDatabase, postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { client, seedOrganization, startServer, type TestServer } from '../support/server.ts';
import { browserSkipReason, joinAs, launch, openParticipant, waitForParticipants, type Participant } from './support.ts';

const skip = browserSkipReason() ?? (await postgresSkipReason()) ?? (await redisSkipReason());
const WAIT = 45_000;
const said = (text: string) => (window as any).foyer.announcements().includes(text);

describe('chat, hands and reactions in Chromium across two instances', { skip }, () => {
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

  it('carries a message from one instance to the other as text, with links made safe, an unread count and an announcement; then a hand and a reaction', async () => {
    const seeded = await seedOrganization(one.ctx, 'basic');
    const created = await client(one.baseUrl, seeded).post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201);
    const path = new URL(created.body.redirectUrl).pathname;
    const ann = (await openParticipant(browser, one.origin + path)).page;
    const bobP = await openParticipant(browser, two.origin + path);
    opened.push(bobP);
    const bob = bobP.page;
    opened.push({ context: ann.context(), page: ann });
    await joinAs(ann, 'Ann', WAIT);
    await joinAs(bob, 'Bob', WAIT);
    for (const p of [ann, bob]) await waitForParticipants(p, ['Ann', 'Bob'], WAIT);
    assert.equal(await ann.isHidden('#chat-unread'), true);

    const text = 'See https://example.org/notes?a=1, <img src=x onerror="window.pwned=1"> javascript:alert(1) and <a href="https://evil.test">this</a>.';
    await bob.click('#chat');
    assert.equal(await bob.evaluate(() => document.activeElement?.id), 'chat-input');
    await bob.fill('#chat-input', text);
    await bob.click('#chat-send');
    assert.equal(await bob.inputValue('#chat-input'), '');

    await ann.waitForSelector('#chat-unread:not([hidden])', { timeout: WAIT });
    assert.equal(await ann.textContent('#chat-unread'), '1');
    assert.equal(await ann.getByRole('button', { name: 'Chat', exact: true }).count(), 1, 'the button is still called "Chat"');
    assert.equal(await ann.textContent('#chat-unread-text'), '1 unread');
    await ann.waitForFunction(said, `Message from Bob: ${text}`, { timeout: WAIT });

    await ann.click('#chat');
    assert.equal(await ann.isHidden('#chat-unread'), true);
    const item = ann.locator('#chat-log li').first();
    assert.equal(await item.locator('.person').textContent(), 'Bob');
    assert.match((await item.locator('time').getAttribute('datetime')) ?? '', /^\d{4}-\d\d-\d\dT/);
    assert.equal(await item.locator('.text').textContent(), text, 'shown exactly as written');
    assert.equal(await ann.locator('#chat-log img').count(), 0);
    const links = await item.locator('a').evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel'), a.textContent]));
    // Every link shows its own address (markup's href is just text around one).
    assert.deepEqual(links, [
      ['https://example.org/notes?a=1', '_blank', 'noopener noreferrer nofollow', 'https://example.org/notes?a=1'],
      ['https://evil.test/', '_blank', 'noopener noreferrer nofollow', 'https://evil.test'],
    ]);
    assert.equal(await ann.evaluate(() => (window as any).pwned), undefined);
    assert.match(await ann.textContent('#chat-note') ?? '', /not stored/);

    // Enter sends; the sender sees their own message as theirs.
    await ann.fill('#chat-input', 'Thanks!');
    await ann.press('#chat-input', 'Enter');
    await bob.waitForSelector('#chat-log li:has-text("Thanks!") .person:text-is("Ann")', { timeout: WAIT });
    await ann.waitForSelector('#chat-log li.mine .person:text-is("Ann (you)")', { timeout: WAIT });

    // Bob raises his hand: Ann sees it on his tile and hears it.
    await bob.click('#hand');
    await ann.waitForSelector('.tile.hand:not(.self):has(figcaption:has-text("Bob")) .hand-flag:not([hidden])', { timeout: WAIT });
    await ann.waitForFunction(said, 'Bob raised their hand.', { timeout: WAIT });
    assert.equal(await bob.getAttribute('#hand', 'aria-pressed'), 'true');
    assert.equal(await bob.textContent('#hand .btn-label'), 'Lower hand');
    // In the participant list, raised hands come first, marked.
    assert.deepEqual(await ann.$$eval('#people-list li', (items) => items.map((li) => [li.dataset.id === (window as any).foyer.selfId() ? 'Ann' : 'Bob', Boolean(li.querySelector('.hand-flag'))])), [['Bob', true], ['Ann', false]]);
    await bob.click('#hand');
    await ann.waitForFunction(said, 'Bob lowered their hand.', { timeout: WAIT });
    assert.equal(await ann.locator('.tile.hand').count(), 0);

    // Ann reacts: Bob sees it over her tile and hears it.
    await ann.click('#react');
    await ann.click('#reaction-menu [data-reaction="👍"]');
    await bob.waitForSelector('.tile:not(.self):has(figcaption:has-text("Ann")) .reaction span:text-is("👍")', { timeout: WAIT });
    await bob.waitForFunction(said, 'Ann: thumbs up', { timeout: WAIT });
  });
});

/**
 * @module scripts/waiting-shots
 * Screenshots of the waiting-list pages for a person to look at, at 1280
 * and 390 px, in English and German: a client's name entry, waiting with
 * nobody available, waiting third in a queue, the closing screen after the
 * call, a closed (inactive) queue; a member's console with clients
 * waiting, in a call and empty, a board's with its decline form open;
 * the Waiting lists page; and the administrators' who-served-whom page. Runs the real flow in headless Chromium with fake
 * devices against Foyer on an in-memory SQLite database.
 *
 *   node --import tsx scripts/waiting-shots.ts [--out DIR]
 */
import type { Browser, Page } from 'playwright-core';
import { operatorActor } from '../src/domain/actors.ts';
import { startSession } from '../src/domain/sign-in.ts';
import { createSpace, updateSpace } from '../src/domain/spaces.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { launch } from '../test/browser/support.ts';
import { outFolder, pageAt, saveShot } from './shots.ts';

const args = process.argv.slice(2);
const out = outFolder(args, '/tmp/waiting-shots');

const db = await openTestDatabase('sqlite');
const server = await startServer(db.store, { publicUrl: 'http://localhost:3000' });
const seeded = await seedOrganization(server.ctx, 'medical', [{ email: 'ann.lee@clinic.test', fullName: 'Dr Ann Lee', role: 'ADMIN' }]);
const ann = seeded.users[0]!;
const operator = operatorActor(seeded.organization);
const browser: Browser = await launch();
let n = 0;

const page = (width: number, cookie?: string): Promise<Page> => pageAt(browser, server.origin, width, cookie);

const shot = (p: Page, name: string, width: number, lang: string) => saveShot(out, p, name, width, lang, { fullPage: true });

const taken = (p: Page) => p.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: 30_000 });

try {
  for (const width of [1280, 390]) {
    for (const lang of ['en', 'de']) {
      n += 1;
      const created = await createSpace(server.ctx, operator, 'queue', { name: 'Dermatology consultations', slug: `derma-${n}`, closingMessage: 'We answer calls Monday to Friday, 8 am to 6 pm.' });
      const queue = await updateSpace(server.ctx, operator, 'queue', created.id, { memberIds: [ann.id] });
      const url = `${server.origin}/${queue.slug}?lang=${lang}`;
      const others: Page[] = [];
      for (const name of ['Maria Schulz', 'Jonas Becker']) {
        const o = await page(width);
        await o.goto(`${url}&displayName=${encodeURIComponent(name)}&skipPrejoin=true`);
        await o.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting');
        others.push(o);
      }
      const client = await page(width);
      await client.goto(url);
      await client.waitForSelector('#join');
      await client.fill('#name', 'Pat Doe');
      await shot(client, 'client-entry', width, lang);
      await client.click('#join');
      await client.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting');
      await shot(client, 'client-nobody', width, lang);

      const member = await page(width, (await startSession(server.ctx, ann, 'password')).token);
      await member.goto(`${server.origin}/dashboard/queues/${queue.id}/console?lang=${lang}`);
      await member.waitForFunction(() => (window as any).foyer?.view()?.waiting.length === 3);
      await client.waitForFunction(() => (window as any).foyer?.view()?.available === true);
      await shot(client, 'client-waiting', width, lang);
      await shot(member, 'console-waiting', width, lang);

      for (const p of [...others, client]) {
        await member.click('#take-next');
        await taken(p);
        await taken(member);
        if (p === client) await shot(member, 'console-call', width, lang);
        await member.click('#app #leave');
        await member.waitForSelector('#app', { state: 'hidden' });
        await member.waitForFunction(() => (window as any).foyer?.view()?.me.current === null);
      }
      await client.waitForSelector('#finished');
      await shot(client, 'client-ended', width, lang);
      await shot(member, 'console-empty', width, lang);

      await member.goto(`${server.origin}/dashboard/queues/${queue.id}/history?lang=${lang}`);
      await shot(member, 'history', width, lang);

      await updateSpace(server.ctx, operator, 'queue', queue.id, { isActive: false });
      const closed = await page(width);
      await closed.goto(url);
      await shot(closed, 'client-closed', width, lang);
      for (const p of [...others, client, closed]) await p.context().close();

      // A board: accept or decline each client, one decline form opened.
      const boardCreated = await createSpace(server.ctx, operator, 'board', { name: 'Dr Lee’s surgery', slug: `surgery-${n}`, hasWaitingList: true });
      const board = await updateSpace(server.ctx, operator, 'board', boardCreated.id, { memberIds: [ann.id] });
      const boardClients: Page[] = [];
      for (const name of ['Maria Schulz', 'Jonas Becker']) {
        const o = await page(width);
        await o.goto(`${server.origin}/${board.slug}?lang=${lang}&displayName=${encodeURIComponent(name)}&skipPrejoin=true`);
        await o.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting');
        boardClients.push(o);
      }
      await member.goto(`${server.origin}/dashboard/boards/${board.id}/console?lang=${lang}`);
      await member.waitForFunction(() => (window as any).foyer?.view()?.waiting.length === 2);
      await member.click('#waiting-list li:nth-child(2) summary');
      await shot(member, 'console-board', width, lang);
      await shot(boardClients[0]!, 'client-board-waiting', width, lang);
      await member.goto(`${server.origin}/dashboard/consoles?lang=${lang}`);
      await shot(member, 'consoles', width, lang);
      for (const p of [...boardClients, member]) await p.context().close();
    }
  }
} finally {
  await browser.close();
  await server.close();
  await db.dispose();
}

/**
 * @module scripts/accept-latency
 * Measures how long a member's "Accept" takes to become a conversation:
 * from the click in the console to the first remote video frame painted on
 * each side (requestVideoFrameCallback), and to both. Foyer runs in this
 * process on SQLite; the member's console and each client are headless
 * Chromium tabs with fake devices, on loopback; clients come in with
 * skipPrejoin=true so no human step is counted. Prints each run and the
 * medians.
 *
 *   node --import tsx scripts/accept-latency.ts [runs=7]
 */
import type { Page } from 'playwright-core';
import { startSession } from '../src/domain/sign-in.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { launch } from '../test/browser/support.ts';
import { newSpace } from '../test/browser/waiting-support.ts';

const runs = Number(process.argv[2] ?? 7);
const db = await openTestDatabase('sqlite');
const server = await startServer(db.store);
const seeded = await seedOrganization(server.ctx, 'medical', [{ email: 'ann@clinic.test', fullName: 'Dr Ann', role: 'ADMIN' }]);
const ann = seeded.users[0]!;
const board = await newSpace(server, seeded, 'board', [ann]);
const browser = await launch();

/** The page's first remote frame, on its own clock or (wall) as epoch milliseconds: a fresh page's origin is the wall clock's. */
const firstFrame = (page: Page, wall: boolean) =>
  page.evaluate((asWall) => {
    const at = (window as any).foyer.firstRemoteFrameAt() as number;
    return asWall ? performance.timeOrigin + at : at;
  }, wall);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
};

try {
  const memberContext = await browser.newContext({ permissions: ['camera', 'microphone'] });
  await memberContext.addCookies([{ name: 'foyer_session', value: (await startSession(server.ctx, ann, 'password')).token, url: server.origin }]);
  const member = await memberContext.newPage();
  await member.goto(`${server.origin}/dashboard/boards/${board.id}/console`);
  await member.waitForFunction(() => (window as any).foyer?.view() != null);

  const toMember: number[] = [];
  const toClient: number[] = [];
  const toBoth: number[] = [];
  for (let i = 1; i <= runs; i++) {
    const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
    const client = await context.newPage();
    await client.goto(`${server.origin}/${board.slug}?skipPrejoin=true&displayName=Client${i}`);
    await client.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting');
    await member.waitForFunction(() => (window as any).foyer.view().waiting.length === 1);
    // The click's moment on the console page's clock (its first frame is measured on it) and on the wall clock (for the client's fresh page).
    const clicked = await member.evaluate(() => {
      const at = { page: performance.now(), wall: Date.now() };
      (document.querySelector('#waiting-list li:nth-child(1) button.accept') as HTMLButtonElement).click();
      return at;
    });
    await member.waitForFunction(() => (window as any).foyer.firstRemoteFrameAt() !== null, undefined, { timeout: 30_000, polling: 20 });
    await client.waitForFunction(() => (window as any).foyer.firstRemoteFrameAt() !== null, undefined, { timeout: 30_000, polling: 20 });
    const m = (await firstFrame(member, false)) - clicked.page;
    const c = (await firstFrame(client, true)) - clicked.wall;
    toMember.push(m);
    toClient.push(c);
    toBoth.push(Math.max(m, c));
    console.log(`run ${i}: member sees the client after ${m.toFixed(0)} ms, client sees the member after ${c.toFixed(0)} ms`);
    await member.click('#app #leave');
    await client.waitForSelector('#finished');
    await member.waitForFunction(() => (window as any).foyer.view().me.current === null);
    await context.close();
  }
  console.log(
    `median of ${runs} accepts: both sides see each other ${median(toBoth).toFixed(0)} ms after the click ` +
      `(member ${median(toMember).toFixed(0)} ms, client ${median(toClient).toFixed(0)} ms); goal < 1000 ms`,
  );
} finally {
  await browser.close();
  await server.close();
  await db.dispose();
}

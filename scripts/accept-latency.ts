/**
 * @module scripts/accept-latency
 * Measures how long a member's "Accept" takes to become a conversation:
 * from the click in the console to the first remote video frame painted on
 * each side (requestVideoFrameCallback), and to both. Foyer runs in this
 * process on SQLite; the member's console and each client are headless
 * Chromium tabs with fake devices, on loopback; clients come in with
 * skipPrejoin=true so no human step is counted. Prints each run and the
 * medians. A run where either page reports its connection failed, or shows
 * no frame within 30 s, is printed as FAILED and left out of the times;
 * the script then exits with 1.
 *
 *   node --import tsx scripts/accept-latency.ts [runs=7] [--relay [--wrong-turn-secret]]
 *
 * `--relay` and `--wrong-turn-secret` as in scripts/join-latency.ts.
 */
import type { Page } from 'playwright-core';
import { startSession } from '../src/domain/sign-in.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { launch } from '../test/browser/support.ts';
import { newSpace } from '../test/browser/waiting-support.ts';
import { firstFrame, relayOption, summary } from './first-frame.ts';

const args = process.argv.slice(2);
const runs = Number(args.find((a) => !a.startsWith('--')) ?? 7);
const relay = await relayOption(args);
const db = await openTestDatabase('sqlite');
const server = await startServer(db.store, relay.ice ? { ice: relay.ice } : {});
const seeded = await seedOrganization(server.ctx, 'medical', [{ email: 'ann@clinic.test', fullName: 'Dr Ann', role: 'ADMIN' }]);
const ann = seeded.users[0]!;
const board = await newSpace(server, seeded, 'board', [ann]);
const browser = await launch({ cameraFps: 20 }); // a camera as fast as Chromium's own: timings as people would see them

/** A page's clock as epoch milliseconds: a fresh page's origin is the wall clock's. */
const timeOrigin = (page: Page) => page.evaluate(() => performance.timeOrigin);
let failures = 0;

try {
  console.log(`calls ${relay.label}`);
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
    const [onMember, onClient] = await Promise.all([firstFrame(member), firstFrame(client)]);
    if (onMember.ok && onClient.ok) {
      const m = onMember.at - clicked.page;
      const c = (await timeOrigin(client)) + onClient.at - clicked.wall;
      toMember.push(m);
      toClient.push(c);
      toBoth.push(Math.max(m, c));
      console.log(`run ${i}: member sees the client after ${m.toFixed(0)} ms, client sees the member after ${c.toFixed(0)} ms`);
    } else {
      failures += 1;
      console.log(`run ${i}: FAILED: ${[onMember.ok ? '' : `member: ${onMember.why}`, onClient.ok ? '' : `client: ${onClient.why}`].filter(Boolean).join('; ')}`);
    }
    await member.click('#app #leave');
    await client.waitForSelector('#finished');
    await member.waitForFunction(() => (window as any).foyer.view().me.current === null);
    await context.close();
  }
  console.log(summary(`${runs} accepts, both sides seeing each other after the click`, toBoth, failures, 1000));
  if (toBoth.length) {
    console.log(`  ${summary('the member sees the client', toMember, 0, 1000)}`);
    console.log(`  ${summary('the client sees the member', toClient, 0, 1000)}`);
  }
} finally {
  await browser.close();
  await server.close();
  await db.dispose();
  await relay.turn?.stop();
}
if (failures) process.exitCode = 1;

/**
 * @module scripts/accept-latency
 * Measures what a doctor and a patient feel when the doctor accepts: from
 * the click on "Accept" in the member's console to the first remote video
 * frame painted on each side (the client's waiting page turning into the
 * call, and the console's call). Foyer runs in this process on SQLite; the
 * member and the client are headless Chromium contexts with fake devices,
 * on loopback. A fresh console and a fresh client each run. Prints each
 * run and the medians; goal: both sides under 1 s.
 *
 *   node --import tsx scripts/accept-latency.ts [runs=7]
 */
import { operatorActor } from '../src/domain/actors.ts';
import { startSession } from '../src/domain/sign-in.ts';
import { createSpace, updateSpace } from '../src/domain/spaces.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { launch } from '../test/browser/support.ts';

const runs = Number(process.argv[2] ?? 7);
const db = await openTestDatabase('sqlite');
const server = await startServer(db.store);
const seeded = await seedOrganization(server.ctx, 'medical', [{ email: 'dr@clinic.test', fullName: 'Dr Lee', role: 'USER' }]);
const member = seeded.users[0]!;
const operator = operatorActor(seeded.organization);
const board = await createSpace(server.ctx, operator, 'board', { name: 'Surgery', slug: `surgery-${Date.now().toString(36)}`, hasWaitingList: true });
await updateSpace(server.ctx, operator, 'board', board.id, { memberIds: [member.id] });
const browser = await launch();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const firstFrame = (page: import('playwright-core').Page) =>
  page.waitForFunction(() => (window as any).foyer?.firstRemoteFrameEpoch(), undefined, { timeout: 30_000, polling: 10 }).then((h) => h.jsonValue() as Promise<number>);

try {
  const toClient: number[] = [];
  const toMember: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const memberContext = await browser.newContext({ permissions: ['camera', 'microphone'] });
    const clientContext = await browser.newContext({ permissions: ['camera', 'microphone'] });
    try {
      const { token } = await startSession(server.ctx, member, 'password');
      await memberContext.addCookies([{ name: 'foyer_session', value: token, url: server.origin }]);
      const desk = await memberContext.newPage();
      await desk.goto(`${server.origin}/dashboard/boards/${board.id}/console`);
      await desk.waitForFunction(() => (window as any).foyer?.view() != null);

      const client = await clientContext.newPage();
      await client.goto(`${server.origin}/${board.slug}`);
      await client.fill('#name', `Patient ${run}`);
      await client.click('#join');
      await client.waitForFunction(() => (window as any).foyer?.view()?.state === 'waiting');
      const accept = desk.locator('#waiting-list li:first-child button.accept');
      await accept.waitFor();

      const clicked = Date.now();
      await accept.click();
      const [clientFrame, memberFrame] = await Promise.all([firstFrame(client), firstFrame(desk)]);
      toClient.push(clientFrame - clicked);
      toMember.push(memberFrame - clicked);
      console.log(`run ${run}: accept → first frame at the client ${(clientFrame - clicked).toFixed(0)} ms, at the member ${(memberFrame - clicked).toFixed(0)} ms`);
      // Hang up, so that the member is free for the next client.
      await client.click('#leave');
      await desk.waitForFunction(() => (window as any).foyer.view()?.me.current === null);
    } finally {
      await clientContext.close();
      await memberContext.close();
    }
  }
  const both = toClient.map((c, i) => Math.max(c, toMember[i]!));
  console.log(
    `median of ${runs}: client ${median(toClient).toFixed(0)} ms, member ${median(toMember).toFixed(0)} ms, both sides ${median(both).toFixed(0)} ms; goal: both sides < 1000 ms`,
  );
} finally {
  await browser.close();
  await server.close();
  await db.dispose();
}

/**
 * @module scripts/join-latency
 * Measures how long a participant waits for the other side's video: from
 * opening the meeting link (navigation start) to the first remote video
 * frame painted in the page (requestVideoFrameCallback), with
 * skipPrejoin=true so no human step is counted. Foyer runs in this
 * process on SQLite; both participants are headless Chromium tabs with
 * fake devices, on loopback. Prints each join and the median.
 *
 *   node --import tsx scripts/join-latency.ts [joins=7]
 */
import { randomUUID } from 'node:crypto';
import { chromium } from 'playwright-core';
import { loadConfig } from '../src/config.ts';
import { operatorActor } from '../src/domain/actors.ts';
import { createMeeting } from '../src/domain/meetings.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { createLogger } from '../src/logger.ts';
import { createServer } from '../src/server.ts';
import { openStore } from '../src/store/open.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/browser/support.ts';

const joins = Number(process.argv[2] ?? 7);
const store = await openStore('sqlite::memory:', { migrate: true });
const config = loadConfig({ LOG_LEVEL: 'silent' });
const { app, ctx } = await createServer({ config, store, logger: createLogger(config, false) });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
const origin = `http://127.0.0.1:${port}`;
const org = await createOrganization(ctx, { name: 'Latency', type: 'basic', slug: `latency-${randomUUID().slice(0, 8)}` });
const meeting = await createMeeting(ctx, operatorActor(org), { isInfinite: true });
const link = `${origin}/meetings/${meeting.id}`;

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
try {
  const host = await (await browser.newContext({ permissions: ['camera', 'microphone'] })).newPage();
  await host.goto(`${link}?skipPrejoin=true&displayName=Host`);
  await host.waitForFunction(() => (window as any).foyer?.phase() === 'call');

  const figures: number[] = [];
  for (let i = 1; i <= joins; i++) {
    const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
    const guest = await context.newPage();
    await guest.goto(`${link}?skipPrejoin=true&displayName=Guest${i}`);
    await guest.waitForFunction(() => (window as any).foyer?.firstRemoteFrameAt() !== null, undefined, { timeout: 30_000, polling: 20 });
    const ms = await guest.evaluate(() => (window as any).foyer.firstRemoteFrameAt() as number);
    figures.push(ms);
    console.log(`join ${i}: ${ms.toFixed(0)} ms from opening the link to the first remote video frame`);
    await context.close();
    // Let the host notice the departure before the next guest arrives.
    await host.waitForFunction(() => (window as any).foyer.participants().length === 1, undefined, { timeout: 15_000 });
  }
  const sorted = [...figures].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  console.log(`median of ${joins} joins: ${median.toFixed(0)} ms (min ${sorted[0]!.toFixed(0)}, max ${sorted.at(-1)!.toFixed(0)}); goal < 1500 ms`);
} finally {
  await browser.close();
  await app.close();
  await store.close();
}

/**
 * @module scripts/join-latency
 * Measures how long a participant waits for the other side's video: from
 * opening the meeting link (navigation start) to the first remote video
 * frame decoded and painted in the page, with skipPrejoin=true so no human
 * step is counted. Foyer runs in this process on SQLite; both participants
 * are headless Chromium tabs with fake devices, on loopback. Prints each
 * join and the median. A join whose page reports its connection failed, or
 * that shows no frame within 30 s, is printed as FAILED and left out of the
 * times; the script then exits with 1.
 *
 *   node --import tsx scripts/join-latency.ts [joins=7] [--relay [--wrong-turn-secret]]
 *
 * `--relay` starts coturn on loopback and sends every call through it
 * (ICE_TRANSPORT_POLICY=relay); `--wrong-turn-secret` gives Foyer a secret
 * coturn refuses, to see failed joins reported as failures.
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
import { firstFrame, relayOption, summary } from './first-frame.ts';

const args = process.argv.slice(2);
const joins = Number(args.find((a) => !a.startsWith('--')) ?? 7);
const relay = await relayOption(args);
const store = await openStore('sqlite::memory:', { migrate: true });
const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), ...(relay.ice ? { ice: relay.ice } : {}) };
const { app, ctx } = await createServer({ config, store, logger: createLogger(config, false) });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
const origin = `http://127.0.0.1:${port}`;
const org = await createOrganization(ctx, { name: 'Latency', type: 'basic', slug: `latency-${randomUUID().slice(0, 8)}` });
const meeting = await createMeeting(ctx, operatorActor(org), { isInfinite: true });
const link = `${origin}/meetings/${meeting.id}`;

const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
let failures = 0;
try {
  console.log(`joins ${relay.label}`);
  const host = await (await browser.newContext({ permissions: ['camera', 'microphone'] })).newPage();
  await host.goto(`${link}?skipPrejoin=true&displayName=Host`);
  await host.waitForFunction(() => (window as any).foyer?.phase() === 'call');

  const figures: number[] = [];
  for (let i = 1; i <= joins; i++) {
    const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
    const guest = await context.newPage();
    await guest.goto(`${link}?skipPrejoin=true&displayName=Guest${i}`);
    const frame = await firstFrame(guest);
    if (frame.ok) {
      figures.push(frame.at);
      console.log(`join ${i}: ${frame.at.toFixed(0)} ms from opening the link to the first remote video frame`);
    } else {
      failures += 1;
      console.log(`join ${i}: FAILED: ${frame.why}`);
    }
    await context.close();
    // Let the host notice the departure before the next guest arrives.
    await host.waitForFunction(() => (window as any).foyer.participants().length === 1, undefined, { timeout: 15_000 });
  }
  console.log(summary(`${joins} joins`, figures, failures, 1500));
} finally {
  await browser.close();
  await app.close();
  await store.close();
  await relay.turn?.stop();
}
if (failures) process.exitCode = 1;

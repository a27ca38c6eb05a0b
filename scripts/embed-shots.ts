/**
 * @module scripts/embed-shots
 * Screenshots of the embedding example (examples/embed.html, served from a
 * second loopback origin) with a live meeting inside it and a second
 * participant, at 1280 and 390 px, for a person to look at: the element's
 * frame in the page, and the log of events and command answers.
 *
 *   node --import tsx scripts/embed-shots.ts [--out DIR]
 */
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { serveExamples } from '../examples/serve.mjs';
import { operatorActor } from '../src/domain/actors.ts';
import { setAllowedOrigins } from '../src/domain/allowed-origins.ts';
import { createMeeting } from '../src/domain/meetings.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/browser/support.ts';
import { openTestDatabase } from '../test/support/databases.ts';
import { seedOrganization, startServer } from '../test/support/server.ts';
import { outFolder, pageAt, saveShot } from './shots.ts';

const out = outFolder(process.argv.slice(2), '/tmp/embed-shots');
const db = await openTestDatabase('sqlite');
const server = await startServer(db.store);
const examples = await serveExamples(0);
const exampleOrigin = `http://localhost:${(examples.address() as AddressInfo).port}`;
const org = await seedOrganization(server.ctx, 'basic');
await setAllowedOrigins(server.ctx, operatorActor(org.organization), [exampleOrigin]);
const meeting = await createMeeting(server.ctx, operatorActor(org.organization), {});
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
try {
  const other = await pageAt(browser, server.origin, 1280);
  await other.goto(`${server.origin}/meetings/${meeting.id}?skipPrejoin=true&displayName=Olga`);
  for (const width of [1280, 390]) {
    const page = await pageAt(browser, exampleOrigin, width);
    await page.goto(`${exampleOrigin}/embed.html?src=${encodeURIComponent(`${server.origin}/meetings/${meeting.id}?skipPrejoin=true`)}&name=Gus`);
    await page.waitForFunction(() => (window as any).foyerLog?.some((e: { type: string }) => e.type === 'participant_joined'), undefined, { timeout: 30_000 });
    await page.click('[data-command=mute]');
    await page.click('[data-command=lock]');
    await page.waitForTimeout(1500);
    await saveShot(out, page, 'embed-example', width, 'en', { fullPage: true });
    await page.context().close();
  }
} finally {
  await browser.close();
  examples.close();
  await server.close();
  await db.dispose();
}

/**
 * @module test/browser/support
 * Real headless Chromium (Debian's package, driven by playwright-core) with
 * a fake camera and microphone, against a real Foyer app on loopback.
 * Without /usr/bin/chromium the browser suites skip with a printed
 * reason, except under CI=true, where that is a failure (.ci/run installs it).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Remote audio starts without a click, as after the pre-join "Join" gesture.
  '--autoplay-policy=no-user-gesture-required',
  // Background tabs must keep decoding: every participant is a tab here.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const reason = `Chromium not found at ${CHROMIUM} (apt-get install chromium)`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI=true requires the browser tests`);
  console.log(`# skipping browser tests: ${reason}`);
  return reason;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

export interface Participant {
  context: BrowserContext;
  page: Page;
}

/** A new participant (own browser context: own storage, own devices) opening `url`. */
export async function openParticipant(browser: Browser, url: string): Promise<Participant> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
  await page.goto(url);
  return { context, page };
}

/** Joins through the pre-join screen with `name`. */
export async function joinAs(page: Page, name: string): Promise<void> {
  await page.fill('#name', name);
  await page.click('#join');
  await page.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: 15_000 });
}

export async function participantNames(page: Page): Promise<string[]> {
  return page.evaluate(() => ((window as any).foyer.participants() as string[]).slice().sort());
}

export async function waitForParticipants(page: Page, names: string[], timeout = 15_000): Promise<void> {
  const want = [...names].sort();
  await page.waitForFunction(
    (expected: string[]) => JSON.stringify(((window as any).foyer?.participants() ?? []).slice().sort()) === JSON.stringify(expected),
    want,
    { timeout, polling: 100 },
  );
}

/** Decoded video frames per remote peer. */
export async function framesDecoded(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => (window as any).foyer.framesDecoded());
}

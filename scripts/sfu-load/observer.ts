/**
 * @module scripts/sfu-load/observer
 * A Chromium observer: the real meeting page, opened from the meeting's
 * link (the pre-join screen skipped), its fake camera at a few frames a
 * second as in the SFU tests. It gives the time from opening the link to
 * the first decoded and painted remote frame (scripts/first-frame.ts: a
 * failed join is a failure, never a time) and the frame rate it decodes.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { slowCamera } from '../../test/sfu/meeting-pages.ts';
import { firstFrame, type FirstFrame } from '../first-frame.ts';

export interface Observer {
  name: string;
  context: BrowserContext;
  page: Page;
  first: FirstFrame;
}

export async function observe(browser: Browser, link: string, name: string, timeoutMs: number): Promise<Observer> {
  const context = await browser.newContext({ permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`# ${name} page error: ${error.message}`));
  await page.addInitScript(slowCamera);
  await page.goto(`${link}${link.includes('?') ? '&' : '?'}displayName=${encodeURIComponent(name)}`);
  const first = await firstFrame(page, timeoutMs);
  return { name, context, page, first };
}

export async function framesDecoded(o: Observer): Promise<Record<string, number>> {
  return o.page.evaluate(() => (window as any).foyer?.framesDecoded?.() ?? {}).catch(() => ({}));
}

/** Frames a second per remote video over a window, from two framesDecoded() samples; and how many videos grew. */
export function frameRate(before: Record<string, number>, after: Record<string, number>, seconds: number): { fps: number; videos: number } {
  let frames = 0;
  let videos = 0;
  for (const [id, n] of Object.entries(after)) {
    const grown = n - (before[id] ?? 0);
    if (grown > 0) {
      frames += grown;
      videos += 1;
    }
  }
  return { fps: videos ? frames / videos / seconds : 0, videos };
}

export async function mediaPath(o: Observer): Promise<unknown> {
  return o.page.evaluate(() => (window as any).foyer?.mediaPath?.()).catch(() => null);
}

export async function close(o: Observer): Promise<void> {
  await o.context.close().catch(() => {});
}

/**
 * @module scripts/shots
 * What the screenshot scripts share: where to write (`--out DIR`), a page
 * of a given width with the fake camera allowed and, when given, a
 * member's dashboard session, and saving one screenshot per page, width
 * and language.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';

/** The folder from `--out DIR` in `args`, else `fallback`; created. */
export function outFolder(args: string[], fallback: string): string {
  const i = args.indexOf('--out');
  const out = resolve(i >= 0 ? (args[i + 1] ?? fallback) : fallback);
  mkdirSync(out, { recursive: true });
  return out;
}

/** A new page `width` px wide (a phone's height below 600 px), signed in with `session` when given. */
export async function pageAt(browser: Browser, origin: string, width: number, session?: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width > 600 ? 800 : 844 }, permissions: ['camera', 'microphone'] });
  if (session) await context.addCookies([{ name: 'foyer_session', value: session, url: origin }]);
  const p = await context.newPage();
  p.on('pageerror', (e) => console.log(`# page error: ${e.message}`));
  return p;
}

/** Saves `p` as OUT/NAME-WIDTH-LANG.png after a moment for transitions, and prints the path. */
export async function saveShot(out: string, p: Page, name: string, width: number, lang: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const file = `${out}/${name}-${width}-${lang}.png`;
  await p.waitForTimeout(400);
  await p.screenshot({ path: file, fullPage: options.fullPage ?? false });
  console.log(file);
}

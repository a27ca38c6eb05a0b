/**
 * @module test/browser/firefox-support
 * Real headless Firefox (Debian's firefox-esr, stock, driven by
 * playwright-core over WebDriver BiDi) with a fake camera and microphone.
 * Without /usr/bin/firefox-esr the Firefox suite skips with a printed
 * reason, except under CI=true, where that is a failure (.ci/run installs it).
 *
 * Everything else (joining, participant lists, decoded frames) goes through
 * the page's `window.foyer` hook with the helpers of support.ts, which are
 * browser-neutral.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { firefox, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Participant } from './support.ts';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * Firefox has no command-line switches for fake media: these preferences
 * (written to the profile's user.js) give every page a synthetic camera
 * (a moving test pattern, "Default Video Device") and microphone (a tone,
 * "Default Audio Device"). Without the second one getUserMedia waits
 * forever on a permission prompt that headless Firefox never shows.
 * Nothing else is needed: autoplay with sound is allowed by the click on
 * "Join" (a real user activation, as for people), every participant's page
 * is a visible window, and playwright-core's profile already switches off
 * background timer throttling, telemetry and update checks.
 */
export const FIREFOX_PREFS: Record<string, string | number | boolean> = {
  'media.navigator.streams.fake': true,
  'media.navigator.permission.disabled': true,
};

export function firefoxSkipReason(): string | undefined {
  if (existsSync(FIREFOX)) return undefined;
  const reason = `Firefox not found at ${FIREFOX} (apt-get install firefox-esr)`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI=true requires the Firefox browser tests`);
  console.log(`# skipping Firefox browser tests: ${reason}`);
  return reason;
}

export interface LaunchedFirefox {
  browser: Browser;
  /** Closes the browser and removes its scratch HOME. */
  close(): Promise<void>;
}

/**
 * Launches stock Firefox through playwright-core's BiDi path (a `moz-`
 * channel). Firefox refuses to start as root with a HOME it does not own,
 * and playwright-core refuses a relative HOME, so Firefox gets a fresh
 * HOME of its own (which also keeps it away from a real ~/.mozilla).
 */
export async function launchFirefox(extraPrefs: Record<string, string | number | boolean> = {}): Promise<LaunchedFirefox> {
  const home = mkdtempSync(join(tmpdir(), 'foyer-firefox-home-'));
  // playwright-core checks os.homedir() of this process before launching Firefox.
  if (!process.env.HOME || !isAbsolute(process.env.HOME)) process.env.HOME = home;
  const browser = await firefox.launch({
    channel: 'moz-firefox',
    executablePath: FIREFOX,
    headless: true,
    firefoxUserPrefs: { ...FIREFOX_PREFS, ...extraPrefs },
    env: { ...process.env, HOME: home } as Record<string, string>,
  });
  tolerateMissingMediaFeaturesOverride(browser);
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * playwright-core 1.65 sends `emulation.setMediaFeaturesOverride` (to reset
 * `prefers-color-scheme`) while creating every browser context, and fails
 * the context when the browser does not know the command. Firefox ESR 153
 * does not implement it (its BiDi `emulation` module has geolocation,
 * locale, network conditions, screen, timezone and user agent overrides
 * only), so `newContext()` fails with "unknown command". Nothing here
 * emulates media features, so this one command, and only when Firefox
 * answers "unknown command", is treated as done. It reaches the in-process
 * server object through the connection's `toImpl`, the hook the in-process
 * playwright-core exposes; if that hook disappears in a later version,
 * `newContext()` fails loudly with the original error rather than silently.
 */
function tolerateMissingMediaFeaturesOverride(browser: Browser): void {
  const impl = (browser as any)._connection?.toImpl?.(browser);
  const session = impl?._browserSession;
  if (!session || typeof session.send !== 'function') return;
  const send = session.send.bind(session);
  session.send = async (method: string, params: unknown) => {
    try {
      return await send(method, params);
    } catch (error) {
      if (method === 'emulation.setMediaFeaturesOverride' && /unknown command/.test(String((error as Error)?.message))) return {};
      throw error;
    }
  };
}

/**
 * A new Firefox participant (own browser context: own storage, own
 * devices) opening `url`. No `permissions` option: the preferences above
 * grant camera and microphone, and BiDi permission overrides are not needed.
 */
export async function openFirefoxParticipant(browser: Browser, url: string, setup?: (page: Page) => Promise<unknown>): Promise<Participant> {
  const context: BrowserContext = await browser.newContext();
  const page: Page = await context.newPage();
  page.on('pageerror', (error) => console.log(`# firefox page error: ${error.message}`));
  await setup?.(page);
  await page.goto(url);
  return { context, page };
}

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

/**
 * The fake camera's frame rate unless a suite asks for another, half
 * Chromium's own 20: every assertion on video needs only some frames, and
 * the pages' encoding and decoding is most of what a browser suite costs a
 * loaded machine.
 */
export const DEFAULT_CAMERA_FPS = 10;

export interface LaunchOptions {
  /**
   * false: no `--use-fake-ui-for-media-stream`, so camera and microphone
   * are only what each context's permissions allow (granted later with
   * `context.grantPermissions`, as a person answering a prompt late).
   */
  grantMedia?: boolean;
  /**
   * The fake camera's own frame rate, 5 to 60 (default DEFAULT_CAMERA_FPS).
   * Pages that ask for fewer frames than the device makes have Chromium drop
   * the rest, and with several pages on the one fake device of a browser it
   * was seen dropping every frame for every page at once for seconds (each
   * track's `stats.deliveredFrames` stalled while `totalFrames` went on): a
   * freeze no call code causes. A device that makes what the pages ask for
   * drops nothing.
   */
  cameraFps?: number;
}

export async function launch({ grantMedia = true, cameraFps = DEFAULT_CAMERA_FPS }: LaunchOptions = {}): Promise<Browser> {
  if (!(Number.isInteger(cameraFps) && cameraFps >= 5 && cameraFps <= 60)) throw new Error(`cameraFps ${cameraFps}: Chromium's fake camera makes 5 to 60 frames a second`);
  const granted = grantMedia ? CHROMIUM_ARGS : CHROMIUM_ARGS.filter((a) => a !== '--use-fake-ui-for-media-stream');
  const args = granted.map((a) => (a === '--use-fake-device-for-media-stream' ? `${a}=fps=${cameraFps}` : a));
  return chromium.launch({ executablePath: CHROMIUM, args, headless: true });
}

export interface Participant {
  context: BrowserContext;
  page: Page;
}

export interface OpenOptions {
  /** Runs before the page loads: init scripts, WebSocket routes. */
  setup?: (page: Page) => Promise<unknown>;
  /** What the context may use from the start (default: camera and microphone). */
  permissions?: string[];
}

/** A new participant (own browser context: own storage, own devices) opening `url`. */
export async function openParticipant(browser: Browser, url: string, options: OpenOptions = {}): Promise<Participant> {
  const context = await browser.newContext({ permissions: options.permissions ?? ['camera', 'microphone'] });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`# page error: ${error.message}`));
  await options.setup?.(page);
  await page.goto(url);
  return { context, page };
}

/** Joins through the pre-join screen with `name`. */
export async function joinAs(page: Page, name: string, timeout = 15_000): Promise<void> {
  await page.fill('#name', name);
  await page.click('#join');
  await page.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout });
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

/** What arrives from one remote participant (`window.foyer.stats()`, see public/js/lib/mesh.js). */
export interface RemoteStats {
  state: string;
  streamId: string | null;
  framesDecoded: number;
  frameWidth: number;
  frameHeight: number;
  audioPackets: number;
  audioSamples: number;
  audioEnergy: number;
  /** Candidate types and ports of the path media takes ('host', 'srflx', 'prflx', 'relay'); null before there is one. */
  path: { local: string | null; remote: string | null; localPort: number | null; remotePort: number | null } | null;
}

/** Per remote participant id. */
export async function remoteStats(page: Page): Promise<Record<string, RemoteStats>> {
  return page.evaluate(() => (window as any).foyer.stats());
}

/** The stats of the only remote participant, or undefined while there is none. */
export async function onlyRemote(page: Page): Promise<(RemoteStats & { id: string }) | undefined> {
  const all = Object.entries(await remoteStats(page));
  if (all.length !== 1) return undefined;
  const [id, stats] = all[0]!;
  return { id, ...stats };
}

/**
 * `check()`, or a rejection once `deadline` (a Date.now() value) is a second past: a check that never settles (an
 * evaluate in a page whose renderer hangs) fails the wait at its deadline instead of holding the test.
 */
async function checkBy<T>(check: () => Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the check itself did not answer')), Math.max(0, deadline - Date.now()) + 1000);
  });
  try {
    return await Promise.race([check(), hung]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls `check` until it returns a value other than undefined/false, and
 * returns it; fails with `what` (and the last value seen) after `timeout`.
 */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined | false | null>,
  { timeout = 45_000, interval = 250 }: { timeout?: number; interval?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      last = await checkBy(check, deadline);
      if (last !== undefined && last !== false && last !== null) return last as T;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, interval));
  }
}

/**
 * Waits until the only remote participant's `key` grows by more than `by`
 * from its current value: media keeps arriving, not just arrived once. A
 * remote that rejoined meanwhile (a new id: on a starved machine a socket
 * can miss the server's pings) is measured afresh. Returns the remote's id.
 */
export async function waitForGrowth(
  page: Page,
  key: 'framesDecoded' | 'audioPackets' | 'audioSamples' | 'audioEnergy',
  by: number,
  timeout = 45_000,
): Promise<string> {
  let start = await waitUntil(`a remote participant's ${key}`, () => onlyRemote(page), { timeout });
  let last: unknown;
  const grown = await waitUntil(
    `${key} growing by more than ${by}`,
    async () => {
      const now = await onlyRemote(page);
      last = now;
      if (!now) return undefined;
      if (now.id !== start.id) start = now;
      return now[key] - start[key] > by ? now : undefined;
    },
    { timeout },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; from ${JSON.stringify(start)} to ${JSON.stringify(last)}`);
  });
  return grown.id;
}

/**
 * An init script: the page's getUserMedia waits until `answerMedia(page)`,
 * as behind a pending permission prompt or a slow camera.
 */
export const HELD_MEDIA_SCRIPT = `{
  const md = navigator.mediaDevices;
  const original = md.getUserMedia.bind(md);
  let answer;
  const answered = new Promise((r) => (answer = r));
  window.__answer = () => { window.__answeredAt = Date.now(); answer(); };
  md.getUserMedia = async (c) => { await answered; return original(c); };
}`;

/** Lets the held getUserMedia of a page with HELD_MEDIA_SCRIPT answer; resolves with when (this machine's clock). */
export function answerMedia(page: Page): Promise<number> {
  return page.evaluate(() => {
    (window as any).__answer();
    return (window as any).__answeredAt as number;
  });
}

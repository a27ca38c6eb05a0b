/**
 * The set-up the meeting page suites share: one SQLite database, two
 * instances on it (normal idle time, and a short one for the closing tests),
 * an organization with a key, one Chromium, participants closed after each
 * test, and the waits and selectors the tests speak in.
 *
 * The suites are several files rather than one so that each stays well
 * inside the per-file time limit even on a starved machine.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type TestServer } from '../support/server.ts';
import { joinAs, launch, onlyRemote, openParticipant, waitForParticipants, waitUntil, type LaunchOptions, type OpenOptions, type Participant } from './support.ts';

// Long enough for a page to load and join before a meeting nobody joined closes, even with two
// browser suites sharing a small machine's cores under load.
export const IDLE_SECONDS = 6;
/** For waits on media and presence: generous, because the machine running this may be shared and starved. */
export const WAIT = 45_000;

// By name, not id: a participant who rejoins gets a new id.
export const listed = (name: string, flag: string) => `#people-list li:has-text("${name}") small:has-text("${flag}")`;
export const tileOf = (name: string, state = '') => `.tile${state}:not(.self):has(figcaption:has-text("${name}"))`;
export const media = (p: Participant) => p.page.evaluate(() => (window as any).foyer.media());
export const pageUrl = (srv: TestServer, redirectUrl: string) => srv.origin + new URL(redirectUrl).pathname + new URL(redirectUrl).search;

/** Waits for the page's announced media flags (camera toggles finish asynchronously). */
export const waitForMedia = (p: Participant, want: { audio: boolean; video: boolean; screen: boolean }) =>
  p.page.waitForFunction((w) => JSON.stringify((window as any).foyer.media()) === JSON.stringify(w), want, { timeout: WAIT });

/**
 * Waits until `key` of the only remote grows by at most `tolerance` over a
 * second. (Sound: concealment of late packets on a busy machine adds a
 * trace of energy even to silence; the beeps add about 0.2 a second.)
 */
export async function waitForStall(p: Participant, key: 'framesDecoded' | 'audioEnergy', what: string, tolerance = 0): Promise<void> {
  const growth: number[] = [];
  await waitUntil(what, async () => {
    const before = (await onlyRemote(p.page))?.[key];
    await new Promise((r) => setTimeout(r, 1000));
    const now = (await onlyRemote(p.page))?.[key];
    if (before === undefined || now === undefined) return false;
    growth.push(now - before);
    return now - before <= tolerance;
  }).catch((error: Error) => {
    throw new Error(`${error.message}; growth per second: ${growth.join(', ')}`);
  });
}

export interface MeetingSuite {
  readonly db: TestDatabase;
  readonly server: TestServer;
  readonly shortIdle: TestServer;
  readonly api: Client;
  readonly shortApi: Client;
  /** Participants opened and not yet closed; closed after each test. */
  readonly opened: Participant[];
  open(url: string, options?: OpenOptions): Promise<Participant>;
  /** A new meeting's page URL on `srv` (the normal instance unless given). */
  newMeeting(srv?: TestServer): Promise<string>;
  /** Ann and Bob in a call at `url`, each seeing the other in the list. */
  pair(url: string, options?: { ann?: OpenOptions; bob?: OpenOptions }): Promise<{ ann: Participant; bob: Participant }>;
}

/** Registers the shared set-up in the calling `describe` and returns its handles (valid inside tests). */
export function useMeetingSuite(launchOptions: LaunchOptions = {}): MeetingSuite {
  let db: TestDatabase;
  let server: TestServer;
  let shortIdle: TestServer;
  let api: Client;
  let shortApi: Client;
  let browser: Browser;
  const opened: Participant[] = [];

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store);
    shortIdle = await startServer(db.store, { idleCloseSeconds: IDLE_SECONDS });
    const seeded = await seedOrganization(server.ctx, 'basic');
    api = client(server.baseUrl, seeded);
    shortApi = client(shortIdle.baseUrl, seeded);
    browser = await launch(launchOptions);
  });
  // Calls left running would load the machine for every later test.
  afterEach(async () => {
    for (const p of opened.splice(0)) await p.context.close().catch(() => {});
  });
  after(async () => {
    for (const p of opened) await p.context.close().catch(() => {});
    await browser?.close();
    await shortIdle?.close();
    await server?.close();
    await db?.dispose();
  });

  const open = async (url: string, options?: OpenOptions) => {
    const p = await openParticipant(browser, url, options);
    opened.push(p);
    return p;
  };
  return {
    get db() { return db; },
    get server() { return server; },
    get shortIdle() { return shortIdle; },
    get api() { return api; },
    get shortApi() { return shortApi; },
    opened,
    open,
    async newMeeting(srv: TestServer = server) {
      const created = await api.post('/v3/meeting', { json: {} });
      assert.equal(created.status, 201, created.text);
      return pageUrl(srv, created.body.redirectUrl);
    },
    async pair(url, options = {}) {
      const ann = await open(url, options.ann);
      const bob = await open(url, options.bob);
      await joinAs(ann.page, 'Ann', WAIT);
      await joinAs(bob.page, 'Bob', WAIT);
      for (const p of [ann, bob]) await waitForParticipants(p.page, ['Ann', 'Bob'], WAIT);
      return { ann, bob };
    },
  };
}

/**
 * Embedding across origins, in real headless Chromium and Firefox: the
 * example page (examples/embed.html, served from a second loopback origin
 * by examples/serve.mjs) loads /sdk/foyer.js from Foyer and embeds, with
 * <foyer-meeting>:
 * - a guest in a meeting, cross-site (http://localhost:P vs Foyer on
 *   http://127.0.0.1): ready, joined with the participant id presence
 *   holds, a second participant joining, changing media and leaving,
 *   commands carried out (mute, camera, screen share where the browser
 *   lets a delegated click capture) and refused (a guest's lock);
 * - the meeting's host, same-site (the member's session cookie goes
 *   along): lock and a knock seen, unlock, end for everyone;
 * - a client waiting in a queue and the member's console: the client's
 *   place, the console's line, "take next" in the console, the client
 *   admitted into the call with the member;
 * and a page of an origin the organization did not allow gets nothing:
 * the browser refuses to frame Foyer for it, and no event arrives.
 */
import assert from 'node:assert/strict';
import type { AddressInfo, Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { operatorActor } from '../../src/domain/actors.ts';
import { setAllowedOrigins } from '../../src/domain/allowed-origins.ts';
import { liveContext } from '../../src/domain/lifecycle.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { participantsOf } from '../../src/domain/places.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { User } from '../../src/domain/types.ts';
import { serveExamples } from '../../examples/serve.mjs';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { firefoxSkipReason, launchFirefox, type LaunchedFirefox } from './firefox-support.ts';
import { browserSkipReason, launch, waitUntil } from './support.ts';

const WAIT = 45_000;

type Logged = Record<string, unknown> & { type: string };

interface Engine {
  name: 'Chromium' | 'Firefox';
  skip: string | undefined;
  start(): Promise<{ browser: Browser; close(): Promise<void> }>;
  /** Firefox grants the fake devices through preferences and takes no permission list. */
  contextOptions: Record<string, unknown>;
}

const ENGINES: Engine[] = [
  {
    name: 'Chromium',
    skip: browserSkipReason(),
    start: async () => {
      const browser = await launch();
      return { browser, close: () => browser.close() };
    },
    contextOptions: { permissions: ['camera', 'microphone'] },
  },
  {
    name: 'Firefox',
    skip: firefoxSkipReason(),
    start: async () => {
      const launched: LaunchedFirefox = await launchFirefox();
      return { browser: launched.browser, close: () => launched.close() };
    },
    contextOptions: {},
  },
];

for (const engine of ENGINES) {
  describe(`embedding Foyer in another site's page, in ${engine.name}`, { skip: engine.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let clinic: SeededOrganization;
    let lee: User;
    let examples: Server;
    let stranger: Server;
    let running: { browser: Browser; close(): Promise<void> };
    const contexts: BrowserContext[] = [];
    /** The example page's origins: cross-site (another host name) and same-site (same host, another port). */
    let crossSite: string;
    let sameSite: string;
    let strangerOrigin: string;

    before(async () => {
      db = await openTestDatabase('sqlite');
      server = await startServer(db.store);
      clinic = await seedOrganization(server.ctx, 'basic', [{ email: 'lee@clinic.test', fullName: 'Dr Lee', role: 'USER' }]);
      lee = clinic.users[0]!;
      examples = await serveExamples(0);
      stranger = await serveExamples(0);
      const port = (examples.address() as AddressInfo).port;
      crossSite = `http://localhost:${port}`;
      sameSite = `http://127.0.0.1:${port}`;
      strangerOrigin = `http://localhost:${(stranger.address() as AddressInfo).port}`;
      await setAllowedOrigins(server.ctx, operatorActor(clinic.organization), [crossSite, sameSite]);
      running = await engine.start();
    });
    after(async () => {
      for (const context of contexts) await context.close().catch(() => {});
      await running?.close();
      examples?.close();
      stranger?.close();
      await server?.close();
      await db?.dispose();
    });

    /** A person's browser (own cookies, own devices), with a member's session when given. */
    const person = async (member?: User) => {
      const context = await running.browser.newContext(engine.contextOptions);
      contexts.push(context);
      if (member) {
        const { token } = await startSession(server.ctx, member, 'password');
        await context.addCookies([{ name: 'foyer_session', value: token, url: server.origin }]);
      }
      const page = await context.newPage();
      page.on('pageerror', (error) => console.log(`# ${engine.name} page error: ${error.message}`));
      return page;
    };

    /** The example page at `origin`, embedding `src` as `name`. */
    const embedAt = async (origin: string, src: string, name: string, member?: User) => {
      const page = await person(member);
      await page.goto(`${origin}/embed.html?src=${encodeURIComponent(src)}&name=${encodeURIComponent(name)}`);
      return page;
    };

    const live = () => liveContext(server.ctx, { instanceId: 'test-reader', instanceTtlMs: 60_000 });
    const events = (page: Page): Promise<Logged[]> => page.evaluate(() => (window as any).foyerLog);
    /** Waits for the first event (after `from` earlier ones) that `match`es, and returns it. */
    const nextEvent = async (page: Page, what: string, match: (e: Logged) => boolean, from = 0): Promise<Logged> =>
      waitUntil(`${what} (${engine.name})`, async () => (await events(page)).slice(from).find(match), { timeout: WAIT });
    /** Clicks one of the example's command buttons (a real click in the parent page) and waits for its answer. */
    const command = async (page: Page, button: string, commandName: string) => {
      const before = (await events(page)).length;
      await page.click(`[data-command=${button}]`);
      return nextEvent(page, `the answer to ${commandName}`, (e) => e.command === commandName && (e.type === 'command_done' || e.type === 'error'), before);
    };
    const foyerFrame = async (page: Page, path: RegExp): Promise<Frame> =>
      waitUntil('the embedded Foyer frame', async () => page.frames().find((f) => path.test(f.url())), { timeout: WAIT });

    it('tells a guest’s page what happens in the meeting, with the ids presence and webhooks use, and carries out or refuses its commands', async () => {
      // Stored by the organization: its links join at once with camera and microphone on (a bare URL's skipPrejoin joins with both off).
      const meeting = await createMeeting(server.ctx, operatorActor(clinic.organization), { queryParameters: { skipPrejoin: true } });
      const page = await embedAt(crossSite, `${server.origin}/meetings/${meeting.id}?skipPrejoin=true`, 'Gus');
      const ready = await nextEvent(page, 'ready', (e) => e.type === 'ready');
      assert.deepEqual(ready, { source: 'foyer', type: 'ready', meetingId: meeting.id, page: 'meeting' });
      const joined = await nextEvent(page, 'joined', (e) => e.type === 'joined');
      assert.equal(joined.displayName, 'Gus');
      assert.equal(joined.meetingId, meeting.id);
      assert.equal(joined.host, false);
      const present = await participantsOf(live(), { kind: 'meeting', id: meeting.id });
      assert.deepEqual(present.map((p) => [p.id, p.displayName]), [[joined.participantId, 'Gus']]);

      // Someone else joins, mutes, and leaves: the guest's page hears each.
      const other = await person();
      await other.goto(`${server.origin}/meetings/${meeting.id}?skipPrejoin=true&displayName=Olga`);
      await other.waitForFunction(() => (window as any).foyer?.phase() === 'call', undefined, { timeout: WAIT });
      const olgaId = await other.evaluate(() => (window as any).foyer.selfId());
      const arrived = await nextEvent(page, 'Olga joining', (e) => e.type === 'participant_joined');
      assert.deepEqual([arrived.participantId, arrived.displayName, arrived.meetingId], [olgaId, 'Olga', meeting.id]);
      // Her microphone on first: a skipPrejoin page whose devices answer late joins without them, then says they are on.
      await other.waitForFunction(() => (window as any).foyer.media().audio === true, undefined, { timeout: WAIT });
      await other.click('#mic');
      const muted = await nextEvent(page, 'Olga muting', (e) => e.type === 'media_changed' && e.participantId === olgaId && e.audio === false);
      assert.equal(muted.self, false);
      // Olga writes in the chat: the parent hears the message as text.
      await other.click('#chat');
      await other.fill('#chat-input', 'Hello <b>Gus</b>');
      await other.click('#chat-send');
      const chat = await nextEvent(page, 'Olga\'s chat message', (e) => e.type === 'chat_message');
      assert.deepEqual([chat.participantId, chat.displayName, chat.text, chat.self, chat.meetingId], [olgaId, 'Olga', 'Hello <b>Gus</b>', false, meeting.id]);

      // Commands from the parent page.
      assert.equal((await command(page, 'mute', 'mute')).type, 'command_done');
      const selfMuted = await nextEvent(page, 'own mute', (e) => e.type === 'media_changed' && e.self === true && e.audio === false);
      assert.equal(selfMuted.participantId, joined.participantId);
      await waitUntil('Olga seeing Gus muted', async () => (await other.evaluate(() => (window as any).foyer.participants())).length === 2 || undefined, { timeout: WAIT });
      assert.equal((await command(page, 'stopCamera', 'stop_camera')).type, 'command_done');
      await nextEvent(page, 'own camera off', (e) => e.type === 'media_changed' && e.self === true && e.video === false);
      const lock = await command(page, 'lock', 'lock');
      assert.deepEqual([lock.type, lock.code], ['error', 'not_allowed']);
      const share = await command(page, 'startScreenShare', 'start_screen_share');
      if (engine.name === 'Chromium') {
        // The parent's click is delegated to the frame (capability delegation), so the frame may capture.
        assert.equal(share.type, 'command_done', JSON.stringify(share));
        await nextEvent(page, 'sharing', (e) => e.type === 'media_changed' && e.self === true && e.screen === true);
      } else {
        // Firefox cannot delegate a gesture to another origin's frame: refused, and said so.
        assert.deepEqual([share.type, share.code], ['error', 'screen_share_refused']);
      }

      await other.click('#leave');
      const gone = await nextEvent(page, 'Olga leaving', (e) => e.type === 'participant_left');
      assert.equal(gone.participantId, olgaId);
      assert.equal((await command(page, 'leave', 'leave')).type, 'command_done');
      const left = await nextEvent(page, 'left', (e) => e.type === 'left');
      assert.equal(left.participantId, joined.participantId);
      assert.ok((await events(page)).every((e) => e.source === 'foyer' && e.meetingId === meeting.id));
    });

    it('lets the host’s page lock, see a knock, unlock and end the meeting for everyone (same site: the member’s session goes along)', async () => {
      const meeting = await createMeeting(server.ctx, operatorActor(clinic.organization), { ownerEmail: lee.email, type: 'CONSULTATION', waitForOwner: false, queryParameters: { skipPrejoin: true } });
      const host = await embedAt(sameSite, `${server.origin}/meetings/${meeting.id}?skipPrejoin=true`, 'Dr Lee', lee);
      const joined = await nextEvent(host, 'joined', (e) => e.type === 'joined');
      assert.equal(joined.host, true);
      assert.equal((await command(host, 'lock', 'lock')).type, 'command_done');
      await nextEvent(host, 'locked', (e) => e.type === 'locked');

      const guest = await embedAt(crossSite, `${server.origin}/meetings/${meeting.id}?skipPrejoin=true`, 'Pat');
      await nextEvent(guest, 'knocking', (e) => e.type === 'knocking');
      const knocks = await nextEvent(host, 'the knock', (e) => e.type === 'waiting_changed' && Array.isArray(e.waiting) && e.waiting.length === 1);
      assert.equal((knocks.waiting as Array<{ displayName: string }>)[0]!.displayName, 'Pat');
      // Let in from the host's own page (inside the frame), then the guest is admitted.
      const frame = await foyerFrame(host, /\/meetings\//);
      await frame.click('#knocks button[data-action="let-in"]');
      await nextEvent(guest, 'admitted', (e) => e.type === 'admitted');
      await nextEvent(guest, 'joined', (e) => e.type === 'joined');

      assert.equal((await command(host, 'unlock', 'unlock')).type, 'command_done');
      await nextEvent(host, 'unlocked', (e) => e.type === 'unlocked');
      assert.equal((await command(host, 'end', 'end')).type, 'command_done');
      const ended = await nextEvent(guest, 'ended', (e) => e.type === 'ended');
      assert.deepEqual([ended.reason, ended.meetingId], ['ended_by_host', meeting.id]);
    });

    it('follows a client waiting in a queue and the member’s console, both embedded, until the member takes the client', async () => {
      const operator = operatorActor(clinic.organization);
      const queue = await createSpace(server.ctx, operator, 'queue', { name: 'Walk-in', slug: `walk-in-${engine.name.toLowerCase()}` });
      await updateSpace(server.ctx, operator, 'queue', queue.id, { memberIds: [lee.id] });
      const console = await embedAt(sameSite, `${server.origin}/dashboard/queues/${queue.id}/console`, 'Dr Lee', lee);
      const consoleReady = await nextEvent(console, 'console ready', (e) => e.type === 'ready');
      assert.deepEqual([consoleReady.page, consoleReady.spaceId], ['console', queue.id]);

      const client = await embedAt(crossSite, `${server.origin}/${queue.slug}?skipPrejoin=true`, 'Wanda');
      const place = await nextEvent(client, 'the client’s place', (e) => e.type === 'knocking');
      assert.deepEqual([place.position, place.slug], [1, queue.slug]);
      const line = await nextEvent(console, 'the console’s line', (e) => e.type === 'waiting_changed' && (e.waiting as unknown[]).length === 1);
      assert.equal((line.waiting as Array<{ displayName: string }>)[0]!.displayName, 'Wanda');

      const frame = await foyerFrame(console, /\/console/);
      await frame.click('#take-next');
      await nextEvent(client, 'admitted', (e) => e.type === 'admitted');
      const inCall = await nextEvent(client, 'joined', (e) => e.type === 'joined');
      assert.equal(typeof inCall.meetingId, 'string');
      const memberJoined = await nextEvent(console, 'the console’s call', (e) => e.type === 'joined');
      assert.equal(memberJoined.meetingId, inCall.meetingId);
      await nextEvent(console, 'Wanda in the console’s call', (e) => e.type === 'participant_joined' && e.displayName === 'Wanda');
    });

    it('gives a page of an origin the organization did not allow no frame and no event', async () => {
      const meeting = await createMeeting(server.ctx, operatorActor(clinic.organization), {});
      const page = await embedAt(strangerOrigin, `${server.origin}/meetings/${meeting.id}?skipPrejoin=true`, 'Eve');
      // The same page of an allowed origin hears `ready` within moments; give this one longer.
      const allowed = await embedAt(crossSite, `${server.origin}/meetings/${meeting.id}`, 'Control');
      await nextEvent(allowed, 'ready on the allowed origin', (e) => e.type === 'ready');
      await page.waitForTimeout(2000);
      assert.deepEqual(await events(page), []);
      assert.deepEqual(await participantsOf(live(), { kind: 'meeting', id: meeting.id }), [], 'the refused frame never joined');
    });
  });
}

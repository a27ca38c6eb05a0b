/**
 * Meetings on the SFU through a real TURN relay, in headless Chromium and
 * Firefox (two Chromium pages, one Firefox page, in every meeting): coturn
 * on loopback (test/support/coturn.ts), its relay addresses on this host's
 * own address, a Foyer that starts its own Janus, every page relay-only
 * (ICE_TRANSPORT_POLICY=relay). Nothing leaves the machine. The scenarios
 * run in order:
 * - three people move to the SFU and each decodes the two others through
 *   its two connections, both on a relay-to-Janus path (coturn allocated
 *   for each page's credential and, once they leave, logs what it relayed);
 * - the relay freezes mid-call: the SFU connection's state shows on the
 *   others' tiles and in the list ("Reconnecting…"), then connected again,
 *   video flowing, without a reload;
 * - with a credential coturn refuses, every page shows the SFU connection
 *   failed, with "Try again" and the hint naming TURN.
 * The same proofs for the mesh are test/browser/turn.test.ts.
 */
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../src/config.ts';
import { coturnSkipReason, startCoturn, type Coturn } from '../support/coturn.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type TestServer } from '../support/server.ts';
import { firefoxSkipReason, launchFirefox, type LaunchedFirefox } from '../browser/firefox-support.ts';
import { browserSkipReason, joinAs, launch, openParticipant, waitForParticipants, waitUntil, type Participant } from '../browser/support.ts';
import { pageIce, peerStates, refuseCredential, tileIn, turnCredential } from '../browser/turn-support.ts';
import { cameraFpsFor, decodesEveryone, FAST, slowCamera, WAIT, type Person } from './meeting-pages.ts';
import { JANUS_BIN, janusSkipReason, testRtpPorts } from './support.ts';

const skip = coturnSkipReason() ?? janusSkipReason() ?? browserSkipReason() ?? firefoxSkipReason();

/** Bytes that only media, not ICE's checks, put through an allocation in a test's time. */
const RELAYED = 50_000;

type Path = { local: string | null; remote: string | null; localPort: number | null; remotePort: number | null; bytesSent: number; bytesReceived: number } | null;
type MediaPath = { mode: string; connections: number; sfu: { mesh: string[]; state: { state: string; attempt: number; hint?: string } | null } | null };
const pathOf = (p: Person): Promise<MediaPath> => p.page.evaluate(() => (window as any).foyer.mediaPath());
/** The path each of the page's two SFU connections takes (candidate types, ports and bytes of the selected pair). */
const sfuPaths = (p: Person): Promise<{ pub: { path: Path } | null; sub: { path: Path } | null }> => p.page.evaluate(() => (window as any).foyer.sfuPairs());

/** Each page's view of the two others, as [page, other's name]. */
const viewsOf = (people: Person[]) => people.flatMap((p) => people.filter((o) => o !== p).map((o) => [p, o.name] as const));

describe('meetings on the SFU through a TURN relay (two Chromium pages and a Firefox one, a local Janus, relay-only)', { skip, timeout: 600_000 }, () => {
  let turn: Coturn;
  let db: TestDatabase;
  let server: TestServer;
  let api: Client;
  let browser: Browser;
  let ff: LaunchedFirefox;
  const rtpPorts = testRtpPorts();
  let people: Person[] = [];
  /** This host's address, where the relay's allocations are (Janus sends nothing to loopback: see startCoturn). */
  let relayIp: string;

  before(async () => {
    const own = Object.values(networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
    assert.ok(own, 'this host has an IPv4 address besides loopback, for Janus');
    relayIp = own;
    turn = await startCoturn({ relayIp });
    db = await openTestDatabase('sqlite');
    const ice = loadConfig({ ICE_SERVERS: turn.urls.join(','), TURN_SECRET: turn.secret, ICE_TRANSPORT_POLICY: 'relay' }).ice;
    server = await startServer(
      db.store,
      { ice, sfu: { janus: { kind: 'local', bin: JANUS_BIN! }, rtpPorts, publicIp: undefined, fromParticipants: 3, videoSlots: 9 } },
      { sfu: { tuning: FAST, iceInterfaces: 'lo' } },
    );
    await waitUntil('the local Janus up', async () => server.sfu!.health() === 'ok', { timeout: 30_000 });
    api = client(server.baseUrl, await seedOrganization(server.ctx, 'basic'));
    browser = await launch({ cameraFps: cameraFpsFor() });
    // Firefox uses the loopback interface for ICE only when told to (the relay is on 127.0.0.1).
    ff = await launchFirefox({ 'media.peerconnection.ice.loopback': true });
  });

  after(async () => {
    await browser?.close();
    await ff?.close();
    await server?.close();
    await db?.dispose();
    await turn?.stop();
  });

  async function newMeeting(): Promise<string> {
    const created = await api.post('/v3/meeting', { json: {} });
    assert.equal(created.status, 201, created.text);
    const redirect = new URL(created.body.redirectUrl);
    return server.origin + redirect.pathname + redirect.search;
  }

  /** A Firefox participant (its preferences grant camera and microphone). */
  async function openFirefox(url: string, prepare: (page: Page) => Promise<void>): Promise<Participant> {
    const context = await ff.browser.newContext();
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log(`# firefox page error: ${error.message}`));
    await prepare(page);
    await page.goto(url);
    return { context, page };
  }

  /** Ann and Bob (Chromium) and Cat (Firefox) join `url` one after the other: the third moves the meeting to the SFU. */
  async function threeJoin(url: string, setup?: (page: Page) => Promise<unknown>): Promise<Person[]> {
    const joined: Person[] = [];
    // A loaded machine can take more than the default 30 s to load a page or click.
    const prepare = async (page: Page) => {
      page.setDefaultTimeout(WAIT);
      await page.addInitScript(slowCamera, { fps: cameraFpsFor() });
      await setup?.(page);
    };
    for (const name of ['Ann', 'Bob', 'Cat']) {
      const p = name === 'Cat' ? await openFirefox(url, prepare) : await openParticipant(browser, url, { setup: prepare });
      await joinAs(p.page, name, WAIT);
      // A page that reloads loses this mark.
      await p.page.evaluate(() => ((window as any).notReloaded = true));
      joined.push({ ...p, name });
    }
    for (const p of joined) await waitForParticipants(p.page, ['Ann', 'Bob', 'Cat'], WAIT);
    for (const p of joined) await waitUntil(`${p.name} on the SFU`, async () => (await pathOf(p)).mode === 'sfu', { timeout: WAIT });
    return joined;
  }

  const notReloaded = async (p: Person) => assert.equal(await p.page.evaluate(() => (window as any).notReloaded), true, `${p.name} did not reload`);

  it('moves three relay-only people to the SFU, each decoding the two others over two relayed connections to Janus', async () => {
    people = await threeJoin(await newMeeting());
    for (const p of people) await decodesEveryone(p, 2);
    // Handed over: no mesh connection left, only the SFU's two.
    for (const p of people) await waitUntil(`${p.name} holding only the SFU's two connections`, async () => (await pathOf(p)).connections === 2, { timeout: WAIT });
    const within = (port: number | null, range: { min: number; max: number }) => port !== null && port >= range.min && port <= range.max;
    for (const p of people) {
      const paths = await sfuPaths(p);
      for (const [which, path] of [['publishing', paths.pub?.path], ['subscription', paths.sub?.path]] as const) {
        // From this page's relay allocation to Janus's own media ports: nothing went directly. Janus's address may
        // have been learned from its first check before its candidate was read ("prflx").
        assert.ok(
          path && path.local === 'relay' && within(path.localPort, turn.relayPorts) && ['host', 'prflx'].includes(path.remote!) && within(path.remotePort, rtpPorts),
          `${p.name}'s ${which} connection: relay ${JSON.stringify(turn.relayPorts)} to Janus ${JSON.stringify(rtpPorts)}: ${JSON.stringify(path)}`,
        );
        // The very allocation coturn made (and logged).
        assert.ok(turn.log().includes(`Local relay addr: ${relayIp}:${path.localPort}\n`), `coturn logged the relay address ${relayIp}:${path.localPort}`);
      }
      const { username } = await turnCredential(p.page, turn.secret);
      assert.ok(turn.allocations().includes(username), `an allocation for ${username}:\n${turn.allocations().join('\n')}`);
    }
  });

  it('shows "Reconnecting…" on the others\' tiles and in the list while the relay is silent, then connected with video again, without a reload', async () => {
    assert.equal(people.length, 3, 'the meeting of the scenario before');
    turn.pause();
    try {
      // Watched on all pages at once: "reconnecting" lasts only until the media bound turns it to failed.
      // Tile, its words and the list read together in the page: on a loaded machine the state can move on to
      // failed between two separate reads.
      await Promise.all(viewsOf(people).map(([p, other]) => p.page.waitForFunction((name: string) => {
        const tile = [...document.querySelectorAll('.tile:not(.self)')].find((t) => t.querySelector('figcaption')?.textContent?.includes(name));
        const item = [...document.querySelectorAll('#people-list li')].find((li) => li.textContent?.includes(name));
        return tile?.getAttribute('data-peer-state') === 'reconnecting'
          && tile.querySelector('.state-text')?.textContent === 'Reconnecting…'
          && item?.querySelector('.connection')?.getAttribute('data-state') === 'reconnecting';
      }, other, { timeout: WAIT, polling: 100 })));
    } finally {
      turn.resume();
    }
    for (const [p, other] of viewsOf(people)) await p.page.waitForSelector(tileIn(other, 'connected'), { timeout: WAIT });
    for (const p of people) {
      await decodesEveryone(p, 2);
      assert.equal((await pathOf(p)).mode, 'sfu');
      await notReloaded(p);
    }
  });

  it('leaves in coturn\'s log the media it relayed for each page\'s two connections once they leave', async () => {
    const usernames = await Promise.all(people.map(async (p) => (await turnCredential(p.page, turn.secret)).username));
    // coturn logs a session's bytes when its allocation ends: those logged from now on are the SFU connections' (the
    // mesh's ended with the move). Leaving closes them, which releases their allocations (a closed tab's would last
    // until they expire).
    // After the relay's silence a connection may be on a new allocation, and its sending rate starts low again: each
    // page's two connections first carry what is asked below on the path they take now.
    for (const p of people) {
      await waitUntil(`${p.name}'s two SFU connections carrying media on their relayed path`, async () => {
        const { pub, sub } = await sfuPaths(p);
        return (pub?.path?.bytesSent ?? 0) > 2 * RELAYED && (sub?.path?.bytesReceived ?? 0) > 2 * RELAYED;
      }, { timeout: WAIT });
    }
    const from = turn.peerUsage().length;
    for (const p of people) {
      await p.page.click('#leave');
      await p.page.waitForFunction(() => (window as any).foyer.phase() === 'left');
    }
    const carrying = (username: string) => turn.peerUsage().slice(from).filter((u) => u.username === username && u.receivedBytes + u.sentBytes > RELAYED).length;
    // Each page's two connections: the publishing one sent its camera, the subscription received the others'.
    try {
      await waitUntil('coturn logging the bytes each page\'s two SFU connections relayed', async () => usernames.every((u) => carrying(u) >= 2), { timeout: WAIT }).catch((error: Error) => {
        throw new Error(`${error.message}; ${JSON.stringify(turn.peerUsage().slice(from))}`);
      });
    } finally {
      // Only now: a context closed at once may take with it the release a closed connection still had to send.
      for (const p of people.splice(0)) await p.context.close();
    }
  });

  it('with a credential coturn refuses, shows the SFU connection failed on every tile, with "Try again" and the hint naming TURN', async () => {
    people = await threeJoin(await newMeeting(), refuseCredential);
    // The mesh, which never connected either, has handed everyone over to the SFU: what the tiles show is its state.
    for (const p of people) await waitUntil(`${p.name} handed over to the SFU`, async () => (await pathOf(p)).sfu?.mesh.length === 0, { timeout: WAIT });
    await Promise.all(viewsOf(people).map(async ([p, other]) => {
      await p.page.waitForSelector(`${tileIn(other, 'failed')} .tip[data-hint="turn"]:not([hidden])`, { timeout: WAIT });
      assert.equal(await p.page.textContent(`${tileIn(other, 'failed')} .state-text`), `Can't reach ${other} — trying again`);
      assert.equal(await p.page.locator(tileIn(other, 'failed')).getByRole('button', { name: 'Try again', exact: true }).count(), 1);
    }));
    for (const p of people) {
      const sfu = (await pathOf(p)).sfu!;
      assert.equal(sfu.state?.state, 'failed', JSON.stringify(sfu));
      const username = (await pageIce(p.page)).iceServers.find((s) => s.username)!.username!;
      assert.ok(turn.unauthorized().includes(username) && !turn.allocations().includes(username), `${username} refused, never allocated`);
    }
    // "Try again" on one tile starts both SFU connections over: every tile of that page shows a new attempt.
    const [ann] = people;
    const attempt = (await pathOf(ann!)).sfu!.state!.attempt;
    await ann!.page.locator(tileIn('Bob', 'failed')).getByRole('button', { name: 'Try again', exact: true }).click();
    await ann!.page.waitForSelector(tileIn('Cat', 'connecting'), { timeout: WAIT });
    assert.ok((await peerStates(ann!.page)).every((s) => s.attempt > attempt), JSON.stringify(await peerStates(ann!.page)));
    for (const p of people.splice(0)) await p.context.close();
  });
});

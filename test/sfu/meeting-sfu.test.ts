/**
 * Meetings through the SFU, end to end: a real Foyer that starts its own
 * Janus (JANUS_BIN, ICE on loopback), headless Chromium pages of the real
 * meeting page, all talking only to Foyer's /ws. One browser session runs
 * the scenarios in order, so the machine pays for the pages once:
 * - two people stay peer-to-peer; a third arrives and all three move to
 *   the SFU without a reload, each then decoding the two others through at
 *   most two RTCPeerConnections (the longest freeze of a tile during the
 *   move is printed, beside the longest gap of that person's own camera);
 * - Janus is SIGKILLed mid-meeting: the pages reconnect by themselves and
 *   video is back (the time is printed) without a reload;
 * - a participant's socket is cut: Janus goes on forwarding their media
 *   both ways, and they resume as themselves on the same connections;
 * - a fourth arrives, whose first publishing offer is lost on its way: the
 *   page starts over, saying it closed the subscription offered meanwhile,
 *   and the server offers a new one; then each decodes the three others
 *   (grid tiles at a lower simulcast layer), still with at most two
 *   connections each;
 * - a muted microphone goes as Opus DTX (a few packets a second);
 * - the host removes someone (their media stops, the others go on), then
 *   ends the meeting for everyone (its SFU room is destroyed).
 * Four pages at most, cameras at a few frames a second: the machines that
 * run the tests have two cores and run two suites at once. Eight pages are
 * in test/sfu/eight-participants.test.ts; the SFU's
 * promise for larger meetings (upload flat with size) is measured without a
 * browser per participant (scripts/sfu-load.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { TestDatabase } from '../support/databases.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import type { Client, TestServer } from '../support/server.ts';
import { browserSkipReason, joinAs, launch, openParticipant, waitForParticipants, waitUntil } from '../browser/support.ts';
import { cameraFpsFor, cameraFrames, decodesEveryone, FAST, frames, pathOf, selfId, sfuPage, startSfuMeeting, WAIT, type Person, type SfuMeeting } from './meeting-pages.ts';
import { janusSkipReason } from './support.ts';

const skip = janusSkipReason() ?? browserSkipReason();

describe('meetings through the SFU (Chromium, a local Janus)', { skip, timeout: 600_000 }, () => {
  let meeting: SfuMeeting;
  let db: TestDatabase;
  let server: TestServer;
  let api: Client;
  let browser: Browser;
  let url: string;
  /** Ann reaches Foyer through it: taking it down cuts her socket as a lost network would. */
  let proxy: TcpProxy;
  const people: Person[] = [];
  const figures: Record<string, unknown> = {};

  before(async () => {
    meeting = await startSfuMeeting(FAST);
    ({ db, server, api, url } = meeting);
    proxy = await startTcpProxy(Number(new URL(server.origin).port));
    browser = await launch({ cameraFps: cameraFpsFor() });
  });

  after(async () => {
    console.log(`sfu meeting figures ${JSON.stringify(figures)}`);
    await browser?.close();
    await proxy?.close();
    await meeting?.close();
  });

  /** Whether `viewer` shows `id` speaking (the ring on their tile, from the levels its subscription reads). */
  const seesSpeaking = (viewer: Person, id: string): Promise<true | undefined> =>
    viewer.page.evaluate((who) => document.querySelector(`.tile[data-id="${who}"]`)?.classList.contains('speaking') || undefined, id);

  /** Dan's messages to and from `sfu`, as his page sent and received them (his first publishing offer lost). */
  const danSfu: { offers: Array<{ discarded?: string; lost: boolean }>; subscriptions: Array<{ session: string; afterOffers: number }> } = { offers: [], subscriptions: [] };

  /** Dan's socket, through Playwright: his first publishing offer never reaches Foyer. */
  async function loseFirstSfuOffer(page: Page): Promise<void> {
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const foyer = ws.connectToServer();
      ws.onMessage((message) => {
        const m = JSON.parse(String(message));
        if (m.type === 'offer' && m.to === 'sfu') {
          const lost = danSfu.offers.length === 0;
          danSfu.offers.push({ discarded: m.discarded, lost });
          if (lost) return;
        }
        foyer.send(message);
      });
      foyer.onMessage((message) => {
        const m = JSON.parse(String(message));
        if (m.type === 'offer' && m.from === 'sfu' && !danSfu.subscriptions.some((x) => x.session === m.session)) {
          danSfu.subscriptions.push({ session: m.session, afterOffers: danSfu.offers.length });
        }
        ws.send(message);
      });
    });
  }

  async function arrive(name: string): Promise<Person> {
    const via = name === 'Ann' ? url.replace(server.origin, `http://127.0.0.1:${proxy.port}`) : url;
    // Cat's microphone plays a steady tone: someone the others must see speak.
    const prepare = sfuPage({ tone: name === 'Cat' });
    const setup = name === 'Dan' ? async (page: Page) => (await prepare(page), await loseFirstSfuOffer(page)) : prepare;
    const p = await openParticipant(browser, via, { setup });
    await joinAs(p.page, name, WAIT);
    // A page that reloads loses this mark.
    await p.page.evaluate(() => ((window as any).notReloaded = true));
    const person = { ...p, name };
    people.push(person);
    return person;
  }

  it('keeps two people peer-to-peer and moves everyone to the SFU when a third arrives, without a reload', async () => {
    const ann = await arrive('Ann');
    const bob = await arrive('Bob');
    for (const p of [ann, bob]) await waitForParticipants(p.page, ['Ann', 'Bob'], WAIT);
    await decodesEveryone(ann, 1);
    assert.deepEqual(await pathOf(ann), { mode: 'mesh', connections: 1, sfu: null });
    assert.deepEqual(await pathOf(bob), { mode: 'mesh', connections: 1, sfu: null });

    // Ann's view of Bob, sampled through the move: the longest time without a new frame; beside it, the longest
    // time Bob's own camera gave his page no frame, which no path can hide (see launch's cameraFps).
    const bobId = await selfId(bob);
    let sampling = true;
    /** The longest time a growing count stood still, from readings of it; a reading of null is none. */
    const gaps = () => {
      let last: number | null = null;
      let since = Date.now();
      let longest: number | null = null;
      return {
        read(n: number | null, now: number) {
          if (n === null || n === last) return;
          if (last !== null) longest = Math.max(longest ?? 0, now - since);
          last = n;
          since = now;
        },
        get longest() {
          return longest;
        },
      };
    };
    const seen = gaps();
    const made = gaps();
    const sampler = (async () => {
      while (sampling) {
        const [n, m] = await Promise.all([frames(ann).then((f) => f[bobId] ?? 0, () => null), cameraFrames(bob).catch(() => null)]);
        const now = Date.now();
        seen.read(n, now);
        made.read(m, now);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const cat = await arrive('Cat');
    for (const p of people) await waitForParticipants(p.page, ['Ann', 'Bob', 'Cat'], WAIT);
    for (const p of people) {
      await waitUntil(`${p.name} on the SFU`, async () => (await pathOf(p)).mode === 'sfu', { timeout: WAIT });
    }
    for (const p of people) await decodesEveryone(p, 2);
    // Handed over: no mesh connection left.
    for (const p of people) await waitUntil(`${p.name} holding only the SFU's two connections`, async () => (await pathOf(p)).connections === 2 ? true : undefined, { timeout: WAIT });
    sampling = false;
    await sampler;
    figures.longestFreezeDuringMoveMs = seen.longest;
    figures.longestCameraGapDuringMoveMs = made.longest;
    // Who speaks, as the others' pages read it from their subscriptions: Cat, whose microphone plays a tone.
    const catId = await selfId(cat);
    for (const p of [ann, bob]) {
      await waitUntil(`${p.name} seeing Cat speak`, () => seesSpeaking(p, catId), { timeout: WAIT });
    }
    for (const p of [ann, bob, cat]) assert.equal(await p.page.evaluate(() => (window as any).notReloaded), true, `${p.name} did not reload`);
  });

  it('comes back by itself after Janus is killed: the meeting gets a room again, video returns without a reload', async () => {
    const pid = server.sfu!.localPid;
    assert.ok(pid, 'the local Janus runs');
    const watchers = people;
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await waitUntil('Janus noticed down', async () => server.sfu!.health() === 'down' || server.sfu!.localPid !== pid, { timeout: 10_000, interval: 50 });
    figures.janusDownNoticedMs = Date.now() - killedAt;
    // Video from everyone again.
    for (const p of watchers) await decodesEveryone(p, people.length - 1, 5);
    figures.videoBackAfterKillMs = Date.now() - killedAt;
    for (const p of people) assert.equal(await p.page.evaluate(() => (window as any).notReloaded), true, `${p.name} did not reload`);
    // Sound too: Cat's tone, heard by the others.
    const catId = await selfId(people[2]!);
    for (const p of [people[0]!, people[1]!]) {
      await waitUntil(`${p.name} hearing Cat again`, () => seesSpeaking(p, catId), { timeout: WAIT });
    }
  });

  it('keeps media flowing through the SFU while a socket is cut, and resumes that participant on the same connections', async () => {
    const [ann] = people as [Person];
    const annId = await selfId(ann);
    const made = await ann.page.evaluate(() => (window as any).connectionsMade);
    await proxy.down();
    await ann.page.waitForSelector('#notice:has-text("Connection to the meeting lost")', { timeout: WAIT });
    // The socket is gone, not the media: Janus still forwards Ann's video to the others, and theirs to her.
    for (const p of people) await decodesEveryone(p, people.length - 1);
    await proxy.up();
    await ann.page.waitForSelector('#notice:has-text("Connected again")', { timeout: WAIT });
    assert.equal(await selfId(ann), annId, 'the same participant');
    for (const p of people) await waitForParticipants(p.page, people.map((x) => x.name), WAIT);
    for (const p of people) await decodesEveryone(p, people.length - 1);
    assert.equal(await ann.page.evaluate(() => (window as any).connectionsMade), made, 'Ann made no new connection');
    assert.equal((await pathOf(ann)).mode, 'sfu');
  });

  it('carries a fourth whose first offer was lost, each decoding the three others through two connections, grid tiles at a lower layer', async () => {
    await arrive('Dan');
    const dan = people.at(-1)!;
    const names = people.map((p) => p.name);
    for (const p of people) await waitForParticipants(p.page, names, WAIT);
    const startedAt = Date.now();
    for (const p of people) await decodesEveryone(p, people.length - 1);
    // Dan's page started over once its first offer went unanswered (the media bound, then a second): longer than a join.
    figures.fourDecodingAllAfterLostOfferMs = Date.now() - startedAt;
    // The subscription Foyer offered while Dan's first offer was lost: his next offer says he closed its connection,
    // and Foyer joined him afresh with a new subscription (one answering the old handle would never connect).
    const [lost, next] = danSfu.offers;
    assert.ok(lost?.lost && next && !next.lost, JSON.stringify(danSfu));
    assert.equal(next.discarded, danSfu.subscriptions[0]?.session, JSON.stringify(danSfu));
    // In answer to that offer, not to one more the page would make once its media bound passed again.
    assert.equal(danSfu.subscriptions[1]?.afterOffers, 2, `a new subscription offered in answer: ${JSON.stringify(danSfu)}`);
    for (const p of people) {
      const path = await pathOf(p);
      assert.equal(path.mode, 'sfu', `${p.name} on the SFU`);
      assert.ok(path.connections <= 2, `${p.name} holds ${path.connections} connections`);
    }
    // Dan arrived in a meeting on the SFU already: straight there, no mesh connection to anyone first.
    assert.equal(await dan.page.evaluate(() => (window as any).meshConnectionsMade), 0, 'Dan made no mesh connection');
    // Three tiles in a grid: each gets a lower simulcast layer, not the full picture. (At the page's 640×480
    // Chromium sends two layers, not three: what arrives is at most half the camera's width.)
    let last: number[] = [];
    const sizes = await waitUntil('grid tiles at a lower layer', async () => {
      const stats: Record<string, { frameWidth: number }> = await people[0]!.page.evaluate(() => (window as any).foyer.stats());
      const widths = (last = Object.values(stats).map((s) => s.frameWidth));
      return widths.length === 3 && widths.every((w) => w > 0 && w <= 320) ? widths : undefined;
    }, { timeout: WAIT }).catch((error: Error) => {
      throw new Error(`${error.message}; widths ${JSON.stringify(last)}`);
    });
    figures.gridWidths = sizes;
  });

  it('carries a muted microphone as a packet now and then (Opus DTX), not fifty a second', async () => {
    const [ann, bob, cat] = people as [Person, Person, Person];
    const [bobId, catId] = [await selfId(bob), await selfId(cat)];
    const audioFrom = async (): Promise<{ bob: number; cat: number }> => {
      const stats: Record<string, { audioPackets: number }> = await ann.page.evaluate(() => (window as any).foyer.stats());
      return { bob: stats[bobId]?.audioPackets ?? 0, cat: stats[catId]?.audioPackets ?? 0 };
    };
    await bob.page.click('#mic');
    try {
      // Over the same few seconds, what arrives from Bob (muted) against what arrives from Cat (the fake microphone's
      // tone, fifty packets a second): a ratio, whatever the machine's speed. DTX starts once the encoder hears silence.
      let seen = { bob: 0, cat: 0 };
      await waitUntil('Bob, muted, sending a fraction of Cat’s audio packets', async () => {
        const before = await audioFrom();
        await new Promise((r) => setTimeout(r, 3000));
        const after = await audioFrom();
        seen = { bob: after.bob - before.bob, cat: after.cat - before.cat };
        // Some from Bob all the same: DTX keeps the stream, it does not stop it.
        return seen.cat > 50 && seen.bob > 0 && seen.bob * 4 < seen.cat ? true : undefined;
      }, { timeout: WAIT }).catch((error: Error) => {
        throw new Error(`${error.message}; packets in the last window ${JSON.stringify(seen)}`);
      });
      figures.audioPacketsMutedVsTone = seen;
    } finally {
      await bob.page.click('#mic');
    }
  });

  it('lets the host remove someone from the SFU room, and end the meeting, which destroys the room', async () => {
    const meetingId = new URL(url).pathname.split('/').pop()!;
    const place = { kind: 'meeting' as const, id: meetingId };
    const placement = await db.store.findPlacement(place);
    assert.ok(placement, 'the meeting is placed');
    const janus = server.sfu!.servers.find((s) => s.label === placement.server)!;
    const dan = people.pop()!;
    const danId = await selfId(dan);
    await waitUntil('Dan publishing in the SFU room', async () => (await janus.participants(placement.room)).some((p) => p.display === danId && p.publisher));
    const removed = await api.delete(`/v3/meeting/${meetingId}/participants/${danId}`);
    assert.ok(removed.status < 300, removed.text);
    await waitUntil('Dan gone from the SFU room', async () => !(await janus.participants(placement.room)).some((p) => p.display === danId) ? true : undefined, { timeout: 10_000 });
    await dan.page.waitForFunction(() => (window as any).foyer.phase() === 'ended' || (window as any).foyer.closes().includes(4460), undefined, { timeout: WAIT });
    // The others go on, with one person less.
    await decodesEveryone(people[0]!, people.length - 1, 5);

    const ended = await api.post(`/v3/meeting/${meetingId}/end`, { json: {} });
    assert.ok(ended.status < 300, ended.text);
    await waitUntil('the placement forgotten', async () => ((await db.store.findPlacement(place)) === undefined ? true : undefined), { timeout: 10_000 });
    // The placement goes first, then the room.
    await waitUntil('the SFU room destroyed', () => janus.participants(placement.room).then(() => undefined, (error: Error) => (/426|No such room/i.test(error.message) ? true : undefined)), { timeout: 10_000 });
  });
});

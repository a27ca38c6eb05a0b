/**
 * A screen shared in a meeting on the SFU, end to end: a real Foyer that
 * starts its own Janus (ICE on loopback) and three headless Chromium pages
 * of the real meeting page (three, so the meeting is on the SFU). Ann
 * shares her screen (Chromium's fake screen capture): it goes up as a
 * second video on her publishing connection, renegotiated (no new
 * connection), while her camera goes on. Bob and Cat each decode both, her
 * camera and her screen, and show the screen as the large tile, her camera
 * still in a tile of its own; Ann sees her own screen in her tile, as on
 * the mesh. When she stops, the screen's tile goes and her camera keeps
 * decoding; when she shares again, the same m-lines carry it again. The
 * mesh keeps today's way (the screen in the camera's place), proven by the
 * browser suites.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { browserSkipReason, joinAs, launch, openParticipant, waitForParticipants, waitUntil, type Participant } from '../browser/support.ts';
import { ACTION_TIMEOUT_MS, cameraFpsFor, startSfuMeeting, type SfuMeeting } from './meeting-pages.ts';
import { janusSkipReason } from './support.ts';

const skip = janusSkipReason() ?? browserSkipReason();
const WAIT = 60_000;

/**
 * Three pages and a screen share on a machine's two cores: the camera and the screen at a few frames a second
 * (enough for every assertion), and the connections a page makes counted, so that the test can tell that
 * sharing renegotiated the connection it had rather than building a new one.
 */
function slowMedia(cameraFps: number): void {
  const Made = window.RTCPeerConnection;
  (window as any).connectionsMade = 0;
  window.RTCPeerConnection = class extends Made {
    constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
      super(...args);
      (window as any).connectionsMade += 1;
    }
  };
  const devices = navigator.mediaDevices;
  const camera = devices.getUserMedia.bind(devices);
  devices.getUserMedia = (constraints?: MediaStreamConstraints) => {
    const video = constraints?.video;
    return camera(video ? { ...constraints, video: { ...(typeof video === 'object' ? video : {}), frameRate: { max: cameraFps } } } : constraints);
  };
  const screen = devices.getDisplayMedia.bind(devices);
  devices.getDisplayMedia = (constraints?: DisplayMediaStreamOptions) => screen({ ...constraints, video: { frameRate: { max: 5 }, width: { max: 1280 } } });
}

interface Person extends Participant {
  name: string;
}

interface Figures {
  framesDecoded: number;
  frameWidth: number;
  screen?: { framesDecoded: number; frameWidth: number; frameHeight: number };
}

const statsOf = (p: Person): Promise<Record<string, Figures>> => p.page.evaluate(() => (window as any).foyer.stats());
const selfId = (p: Person): Promise<string> => p.page.evaluate(() => (window as any).foyer.selfId());
const made = (p: Person): Promise<number> => p.page.evaluate(() => (window as any).connectionsMade);

/** Where the tile of `id` sits and how large it is (null: no such tile). */
function tileOf(p: Person, id: string): Promise<{ classes: string; area: number; off: boolean } | null> {
  return p.page.evaluate((tileId) => {
    const node = document.querySelector(`.tile[data-id="${tileId}"]`);
    if (!node) return null;
    const box = node.getBoundingClientRect();
    return { classes: node.className, area: Math.round(box.width * box.height), off: node.classList.contains('off') };
  }, id);
}

/**
 * Waits until `viewer` decodes more than `by` new frames of `from`'s camera and, with `screen`, of their screen
 * too (two inbound videos from one person). A count that drops belongs to a new connection: counted from zero.
 */
async function decodes(viewer: Person, from: string, { screen, by = 8 }: { screen: boolean; by?: number }): Promise<Figures> {
  const grown = { camera: 0, screen: 0 };
  let last: Figures | undefined;
  const add = (key: 'camera' | 'screen', now: number, before: number | undefined) => (grown[key] += before === undefined ? 0 : now >= before ? now - before : now);
  return waitUntil(`${viewer.name} decoding ${from}'s camera${screen ? ' and screen' : ''}`, async () => {
    const now = (await statsOf(viewer))[from];
    if (!now) return undefined;
    add('camera', now.framesDecoded, last?.framesDecoded);
    if (now.screen) add('screen', now.screen.framesDecoded, last?.screen?.framesDecoded);
    last = now;
    return grown.camera > by && (!screen || grown.screen > by) ? now : undefined;
  }, { timeout: WAIT, interval: 250 }).catch((error: Error) => {
    throw new Error(`${error.message}; grown ${JSON.stringify(grown)}, last ${JSON.stringify(last)}`);
  });
}

describe('a screen shared through the SFU (Chromium, a local Janus)', { skip, timeout: 600_000 }, () => {
  let meeting: SfuMeeting;
  let browser: Browser;
  const people: Person[] = [];

  before(async () => {
    [meeting, browser] = await Promise.all([startSfuMeeting(), launch({ cameraFps: cameraFpsFor() })]);
  });

  after(async () => {
    await browser?.close();
    await meeting?.close();
  });

  async function arrive(name: string): Promise<Person> {
    const p = await openParticipant(browser, meeting.url, {
      setup: async (page) => {
        page.setDefaultTimeout(ACTION_TIMEOUT_MS);
        await page.addInitScript(slowMedia, cameraFpsFor());
      },
    });
    await joinAs(p.page, name, WAIT);
    const person = { ...p, name };
    people.push(person);
    return person;
  }

  it('sends the screen as a second stream beside the camera, shown large to the others, and takes it away when sharing stops', async () => {
    // When each step was done, in ms from the start, printed as it happens: where the time goes on a loaded
    // machine, and where a run that never ends stopped.
    const started = Date.now();
    const mark = (what: string) => console.log(`# screen share: ${what} after ${Date.now() - started} ms`);
    mark('opening the pages');
    const [ann, bob, cat] = await Promise.all([arrive('Ann'), arrive('Bob'), arrive('Cat')]);
    const annId = await selfId(ann);
    const viewers = [bob, cat];
    for (const p of people) {
      await waitForParticipants(p.page, ['Ann', 'Bob', 'Cat'], WAIT).catch(async (error: Error) => {
        // What each page holds: a list that never came together says more than the timeout.
        const seen = await Promise.all(people.map((q) => q.page.evaluate(() => ({ participants: (window as any).foyer.participants(), path: (window as any).foyer.mediaPath() })).catch((e: Error) => e.message)));
        throw new Error(`${p.name} did not list all three: ${error.message}; ${people.map((q, i) => `${q.name}: ${JSON.stringify(seen[i])}`).join('; ')}`);
      });
    }
    // Everyone on the SFU, each handed over (its two connections only), decoding Ann's camera.
    await Promise.all(people.map(async (p) => {
      let path: { mode: string; connections: number; sfu: { viaSfu: string[] } | null } | undefined;
      await waitUntil(`${p.name} on the SFU's two connections only`, async () => {
        path = await p.page.evaluate(() => (window as any).foyer.mediaPath());
        return path?.mode === 'sfu' && path.connections === 2 && path.sfu?.viaSfu.length === 2;
      }, { timeout: WAIT }).catch((error: Error) => {
        throw new Error(`${error.message}; ${JSON.stringify(path)}`);
      });
    }));
    await Promise.all(viewers.map((v) => decodes(v, annId, { screen: false })));
    const annConnections = await made(ann);
    mark('onSfu');

    await ann.page.click('#share');
    await ann.page.waitForFunction(() => (window as any).foyer.media().screen === true, undefined, { timeout: WAIT });
    mark('sharing');
    // Ann sees her own screen in her tile, as before.
    assert.match((await tileOf(ann, 'self'))!.classes, /\bsharing\b/);
    const screenTile = `screen:${annId}`;
    await Promise.all(viewers.map(async (v) => {
      await waitUntil(`${v.name} receiving Ann's screen`, async () => (await statsOf(v))[annId]?.screen, { timeout: WAIT });
      mark(`${v.name}Receives`);
      const figures = await decodes(v, annId, { screen: true });
      mark(`${v.name}Decodes`);
      // The screen is sent whole: a wide picture (the camera is 640 wide, its layers less).
      assert.ok(figures.screen!.frameWidth > 640, `${v.name} receives the screen at ${figures.screen!.frameWidth} px wide`);
      const screen = await waitUntil(`${v.name} showing Ann's screen on the stage`, async () => {
        const tile = await tileOf(v, screenTile);
        return tile && /\bon-stage\b/.test(tile.classes) ? tile : undefined;
      }, { timeout: WAIT });
      const camera = (await tileOf(v, annId))!;
      assert.ok(camera, `${v.name} still has Ann's camera tile`);
      assert.match(camera.classes, /\bin-strip\b/, `${v.name}: Ann's camera beside the stage`);
      assert.ok(!camera.off && !/\bsharing\b/.test(camera.classes), `${v.name}: Ann's camera tile shows her camera (${camera.classes})`);
      assert.ok(screen.area > 4 * camera.area, `${v.name}: the screen (${screen.area} px²) is the large tile, not her camera (${camera.area} px²)`);
    }));

    await ann.page.click('#share');
    await ann.page.waitForFunction(() => (window as any).foyer.media().screen === false, undefined, { timeout: WAIT });
    await Promise.all(viewers.map(async (v) => {
      await waitUntil(`${v.name} without Ann's screen tile`, async () => (await tileOf(v, screenTile)) === null, { timeout: WAIT });
      await waitUntil(`${v.name} no longer receiving Ann's screen`, async () => (await statsOf(v))[annId]?.screen === undefined, { timeout: WAIT });
      await decodes(v, annId, { screen: false });
      assert.doesNotMatch((await tileOf(v, annId))!.classes, /\bin-strip\b/, `${v.name}: Ann's camera back in the grid`);
    }));
    mark('stopped');

    // Sharing again reuses the screen's m-line on Ann's connection and an m-line of Bob's subscription.
    await ann.page.click('#share');
    await decodes(bob, annId, { screen: true });
    await waitUntil("Bob showing Ann's screen again", async () => /\bon-stage\b/.test((await tileOf(bob, screenTile))?.classes ?? ''), { timeout: WAIT });
    mark('sharedAgain');
    // Every change renegotiated Ann's publishing connection: none was built anew.
    assert.equal(await made(ann), annConnections, 'Ann made no new connection');
  });
});

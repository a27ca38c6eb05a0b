/**
 * @module test/sfu/meeting-pages
 * What the SFU suites with real meeting pages share: a Foyer with its own
 * Janus and a meeting in it, a camera at a few frames a second that also
 * counts the page's connections, where a page's media goes, and waiting
 * until a page decodes everyone.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Participant } from '../browser/support.ts';
import { waitUntil } from '../browser/support.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type TestServer } from '../support/server.ts';
import { JANUS_BIN, testRtpPorts } from './support.ts';

export const WAIT = 60_000;
/** Janus probed often, so that a killed one is noticed at once. */
export const FAST = { probeIntervalMs: 500, downAfterMs: 2500, reconnectDelayMs: 200 };

export interface SfuMeeting {
  db: TestDatabase;
  server: TestServer;
  /** The organization's API client that made the meeting. */
  api: Client;
  /** The meeting's link on this server. */
  url: string;
  close(): Promise<void>;
}

/**
 * A real Foyer on SQLite that starts its own Janus (ICE on loopback; meetings of three on the SFU), once Janus is
 * up, and a meeting made through the API. `tuning`: how often Janus is probed; `videoSlots`: SFU_VIDEO_SLOTS. SFU_TEST_LOG=warn shows the log.
 */
export async function startSfuMeeting(tuning?: typeof FAST, { videoSlots = 9 }: { videoSlots?: number } = {}): Promise<SfuMeeting> {
  const db = await openTestDatabase('sqlite');
  const log = process.env.SFU_TEST_LOG;
  const server = await startServer(
    db.store,
    {
      sfu: { janus: { kind: 'local', bin: JANUS_BIN! }, rtpPorts: testRtpPorts(), publicIp: undefined, fromParticipants: 3, videoSlots },
      // A cut socket is held longer than by default: checking that media still flows meanwhile takes a while on a slow machine.
      resumeGraceSeconds: 180,
      ...(log ? { logLevel: log as 'warn' } : {}),
    },
    { sfu: { ...(tuning ? { tuning } : {}), iceInterfaces: 'lo' }, logger: Boolean(log) },
  );
  await waitUntil('the local Janus up', async () => server.sfu!.health() === 'ok', { timeout: WAIT });
  const api = client(server.baseUrl, await seedOrganization(server.ctx, 'basic'));
  const created = await api.post('/v3/meeting', { json: {} });
  assert.equal(created.status, 201, created.text);
  const redirect = new URL(created.body.redirectUrl);
  return {
    db,
    server,
    api,
    url: server.origin + redirect.pathname + redirect.search,
    async close() {
      await server.close();
      await db.dispose();
    },
  };
}

/** Frames a second of the SFU suites' cameras; the fake device makes no fewer than 5. */
const SFU_CAMERA_FPS = 8;
/** Frames a second of their lean cameras (many pages at once). */
const LEAN_CAMERA_FPS = 5;

/** The rate the pages of `sfuPage(options)` ask for, and the fake device's for their browser (launch's `cameraFps`): Chromium then drops no frames. */
export function cameraFpsFor(options?: { lean?: boolean }): number {
  return options?.lean ? LEAN_CAMERA_FPS : SFU_CAMERA_FPS;
}

/**
 * Each camera runs at a few frames a second (at the page's own size, so simulcast still makes its layers):
 * all the assertions need, and the pages' encoders and decoders stay within reach of a loaded machine.
 * `tone`: the microphone plays a steady tone, someone the others see speak.
 */
export function slowCamera(options: { lean?: boolean; tone?: boolean; fps: number }): void {
  // Counted too: the connections a page made, so that a test can tell that none was rebuilt; those of the
  // mesh (sending and receiving on one connection, where the SFU's send only or receive only); and the videos
  // each of the SFU's offers to the page's subscription carries (its video sections, Janus sending only), one a
  // person who does not share a screen.
  const Made = window.RTCPeerConnection;
  (window as any).connectionsMade = 0;
  (window as any).meshConnectionsMade = 0;
  (window as any).subscriptionOffers = [];
  const setRemote = Made.prototype.setRemoteDescription;
  Made.prototype.setRemoteDescription = async function (this: RTCPeerConnection, description?: RTCSessionDescriptionInit) {
    await (setRemote as (d?: RTCSessionDescriptionInit) => Promise<void>).call(this, description);
    const sections = (description?.sdp ?? '').split(/\r?\nm=/).slice(1);
    const carried = sections.filter((m) => /^video [1-9]/.test(m) && /\na=sendonly/.test(m)).length;
    if (description?.type === 'offer' && carried > 0) (window as any).subscriptionOffers.push(carried);
  };
  window.RTCPeerConnection = class extends Made {
    constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
      super(...args);
      (window as any).connectionsMade += 1;
    }
  };
  const setLocal = Made.prototype.setLocalDescription;
  const counted = new WeakSet<RTCPeerConnection>();
  Made.prototype.setLocalDescription = async function (this: RTCPeerConnection, description?: RTCLocalSessionDescriptionInit) {
    await (setLocal as (d?: RTCLocalSessionDescriptionInit) => Promise<void>).call(this, description);
    if (!counted.has(this) && /a=sendrecv/.test(this.localDescription?.sdp ?? '')) {
      counted.add(this);
      (window as any).meshConnectionsMade += 1;
    }
  };
  const devices = navigator.mediaDevices;
  // Firefox runs init scripts in its first about:blank too, which has no media devices.
  if (!devices) return;
  const original = devices.getUserMedia.bind(devices);
  // One tone per page, whatever the number of requests: each gets a copy of its track. (Built inline: a named
  // helper would be wrapped by the test bundle's keepNames in a function the page does not have.)
  let toneTrack: MediaStreamTrack | undefined;
  // Lean: a small camera at fewer frames, and no microphone (the page goes on without one), for many pages at once.
  const lean = options.lean === true;
  devices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
    const video = constraints?.video;
    if (lean && !video) throw new DOMException('No microphone here.', 'NotFoundError');
    const frameRate = { max: options.fps };
    const size = lean ? { width: { max: 320 }, height: { max: 240 }, frameRate } : { frameRate };
    const stream = await original(video ? { ...constraints, ...(lean ? { audio: false } : {}), video: { ...(typeof video === 'object' ? video : {}), ...size } } : constraints);
    if (!options.tone || stream.getAudioTracks().length === 0) return stream;
    // A steady tone instead of the fake device's beeps, which the microphone's noise suppression learns to take out.
    for (const track of stream.getAudioTracks()) {
      stream.removeTrack(track);
      track.stop();
    }
    if (!toneTrack) {
      const context = new AudioContext();
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      gain.gain.value = 0.3;
      const out = context.createMediaStreamDestination();
      oscillator.connect(gain).connect(out);
      oscillator.start();
      // Held by the page: a graph nothing refers to is collected, and the tone goes silent.
      (window as any).toneGraph = { context, oscillator, gain, out };
      toneTrack = out.stream.getAudioTracks()[0]!;
    }
    stream.addTrack(toneTrack.clone());
    return stream;
  };
}

/** A page's actions (a click, a fill) wait this long before failing: on a slow machine several pages with live video take longer than Playwright's 30 s. */
export const ACTION_TIMEOUT_MS = 120_000;

/** Sets up a page of an SFU suite: the camera of slowCamera (`lean` as there), and long action timeouts. */
export function sfuPage(options?: { lean?: boolean; tone?: boolean }): (page: Page) => Promise<void> {
  return async (page) => {
    page.setDefaultTimeout(ACTION_TIMEOUT_MS);
    await page.addInitScript(slowCamera, { ...options, fps: cameraFpsFor(options) });
  };
}

export interface Person extends Participant {
  name: string;
}

export type Path = { mode: string; connections: number; sfu: unknown };
export const pathOf = (p: Person): Promise<Path> => p.page.evaluate(() => (window as any).foyer.mediaPath());
export const frames = (p: Person): Promise<Record<string, number>> => p.page.evaluate(() => (window as any).foyer.framesDecoded());
/** Frames `p`'s own camera delivered to the page so far (Chromium's track stats; null without them). */
export const cameraFrames = (p: Person): Promise<number | null> =>
  p.page.evaluate(() => {
    const stream = document.querySelector<HTMLVideoElement>('#tile-self video')?.srcObject as MediaStream | null | undefined;
    return (stream?.getVideoTracks()[0] as { stats?: { deliveredFrames?: number } } | undefined)?.stats?.deliveredFrames ?? null;
  });
export const selfId = (p: Person): Promise<string> => p.page.evaluate(() => (window as any).foyer.selfId());

/**
 * Waits until `viewer` decodes more than `by` new frames from each of the others it lists. A count that drops
 * belongs to a new connection (the page rebuilt it): its frames count from zero.
 */
export async function decodesEveryone(viewer: Person, others: number, by = 10): Promise<Record<string, number>> {
  const start = await frames(viewer);
  let last: Record<string, number> = start;
  const grown: Record<string, number> = {};
  return waitUntil(`${viewer.name} decoding video from ${others} others`, async () => {
    const now = await frames(viewer);
    for (const [id, n] of Object.entries(now)) {
      const before = last[id] ?? 0;
      grown[id] = (grown[id] ?? 0) + (n >= before ? n - before : n);
    }
    last = now;
    const growing = Object.keys(now).filter((id) => grown[id]! > by);
    return growing.length >= others ? now : undefined;
  }, { timeout: WAIT, interval: 250 }).catch(async (error: Error) => {
    const pairs = await viewer.page.evaluate(() => (window as any).foyer.sfuPairs?.()).catch(() => null);
    throw new Error(`${error.message}; frames ${JSON.stringify(start)} → ${JSON.stringify(last)}; path ${JSON.stringify(await pathOf(viewer))}; pairs ${JSON.stringify(pairs)}`);
  });
}


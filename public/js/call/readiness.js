// @module public/js/call/readiness — the device and network check of the
// pre-join and waiting screens: camera, microphone, speaker (a tone to
// hear), the signalling round trip, and whether the relay (TURN) server
// answers where one is configured. A waiting client's result travels with
// them (`readiness` on `wait`, docs/signalling.md) to the member's console
// and the `waiting.client.joined` webhook.
import { el } from '../lib/dom.js';
import { Signalling } from '../lib/signalling.js';
import { playTestTone, rememberedDevice } from './devices.js';
import { icon } from './icons.js';
import { audioTrack, cameraTrack } from './tracks.js';

/** Round trips of the signalling socket: the median of `count` pings, in ms; null when it cannot be reached. */
export async function signallingRoundTrip(wsPath, count = 3, timeoutMs = 5000) {
  const pongs = [];
  let resolvePong = null;
  // Its own address (the query is ignored by the server), so it is told apart from the call's socket in logs and tests.
  const socket = new Signalling(`${wsPath}?check=1`, { onMessage: (m) => m.type === 'pong' && resolvePong?.(), onClose: () => resolvePong?.(), keepaliveMs: 60_000 });
  try {
    await Promise.race([socket.opened, new Promise((_, fail) => setTimeout(() => fail(new Error('timeout')), timeoutMs))]);
    for (let i = 0; i < count; i++) {
      const pong = new Promise((ok) => (resolvePong = () => ok(true)));
      const started = performance.now();
      socket.send({ type: 'ping' });
      const answered = await Promise.race([pong, new Promise((ok) => setTimeout(() => ok(false), timeoutMs))]);
      if (!answered || socket.socket.readyState !== WebSocket.OPEN) break;
      pongs.push(performance.now() - started);
      if (i + 1 < count) await new Promise((r) => setTimeout(r, 50));
    }
  } catch {
    // not reachable
  } finally {
    socket.close();
  }
  if (!pongs.length) return null;
  pongs.sort((a, b) => a - b);
  return Math.round(pongs[Math.floor(pongs.length / 2)]);
}

/** Whether a relay candidate can be had from the configured TURN servers: true, false, or null (none configured). */
export async function relayReachable(iceServers, timeoutMs = 5000) {
  const turn = (iceServers ?? []).filter((s) => [].concat(s.urls).some((u) => /^turns?:/.test(u)));
  if (!turn.length || typeof RTCPeerConnection === 'undefined') return null;
  const pc = new RTCPeerConnection({ iceServers: turn, iceTransportPolicy: 'relay' });
  try {
    pc.createDataChannel('check');
    const found = new Promise((ok) => {
      pc.addEventListener('icecandidate', (e) => {
        if (e.candidate?.candidate.includes(' relay ')) ok(true);
        if (!e.candidate) ok(false);
      });
    });
    await pc.setLocalDescription(await pc.createOffer());
    return await Promise.race([found, new Promise((ok) => setTimeout(() => ok(false), timeoutMs))]);
  } catch {
    return false;
  } finally {
    pc.close();
  }
}

export function networkLevel(ms) {
  if (ms === null || ms === undefined) return 'unknown';
  return ms < 150 ? 'good' : ms < 400 ? 'fair' : 'poor';
}

function deviceStatus(c, kind) {
  const { state } = c;
  const track = kind === 'audio' ? audioTrack(state) : cameraTrack(state);
  if (track?.readyState === 'live') return 'ok';
  if (!(kind === 'audio' ? state.audioOn : state.videoOn)) return 'off';
  const problem = c.problems[kind];
  if (c.acquiring || (!problem && !track)) return 'checking';
  return problem === 'blocked' || problem === 'missing' ? problem : 'failed';
}

/** The result as it travels (`readiness` on `wait`): camera and microphone ok, off, blocked, missing or failed; network good, fair, poor or unknown. */
export function readinessOf(c) {
  const done = (s) => (s === 'checking' ? 'failed' : s);
  return { camera: done(deviceStatus(c, 'video')), microphone: done(deviceStatus(c, 'audio')), network: networkLevel(c.readiness.rtt) };
}

/** Runs the network part (once per screen); the device part follows the devices by itself. */
export async function checkNetwork(c) {
  c.readiness.rtt = undefined;
  c.emit('readiness');
  const running = Promise.all([signallingRoundTrip(c.settings.wsPath), relayReachable(c.settings.iceServers)]);
  c.readiness.running = running;
  const [rtt, relay] = await running;
  if (c.readiness.running !== running) return;
  c.readiness.running = null;
  c.readiness.rtt = rtt;
  c.readiness.relay = relay;
  c.emit('readiness');
}

/**
 * The result once the check has had its chance: the devices asked for and
 * the network measured, or `timeoutMs` passed (what is known then). A
 * waiting client's page sends this with `wait`, so the webhook and the
 * console start from a finished check, not a half-run one.
 */
export async function settledReadiness(c, timeoutMs = 3000) {
  const settled = () => !c.acquiring && c.readiness.rtt !== undefined;
  if (!settled()) {
    await new Promise((resolve) => {
      const offs = [];
      const done = () => {
        clearTimeout(timer);
        for (const off of offs) off();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      for (const event of ['media', 'problem', 'readiness']) offs.push(c.on(event, () => settled() && done()));
    });
  }
  return readinessOf(c);
}

/** Calls `send(readiness)` whenever the check's result changes (a camera fixed while waiting), until the returned function is called. */
export function followReadiness(c, send, initial = readinessOf(c)) {
  let last = JSON.stringify(initial);
  const offs = ['media', 'problem', 'readiness'].map((event) =>
    c.on(event, () => {
      if (c.acquiring || c.readiness.rtt === undefined) return;
      const now = readinessOf(c);
      if (JSON.stringify(now) === last) return;
      last = JSON.stringify(now);
      send(now);
    }),
  );
  return () => offs.forEach((off) => off());
}

const MARK = { ok: '✓', off: '–', blocked: '✕', missing: '✕', failed: '✕', checking: '…', good: '✓', fair: '!', poor: '✕', unknown: '✕' };

/** The check as a list, kept current while it is on the page; with `recheck`, a "Check again" button runs the network part again. */
export function checkList(c, { recheck = false } = {}) {
  const { t, tf } = c;
  const list = el('ul', { class: 'check', id: 'readiness', 'aria-labelledby': 'readiness-title' });
  const row = (id, label, status, text) => el('li', { 'data-check': id, 'data-status': status }, el('span', { class: 'mark', 'aria-hidden': 'true' }, MARK[status] ?? ''), el('span', { class: 'what' }, label), ' ', el('span', { class: 'status' }, text));
  const deviceText = (s) => t({ ok: 'statusOk', off: 'statusOff', blocked: 'statusBlocked', missing: 'statusMissing', checking: 'statusChecking' }[s] ?? 'otherProblem');
  const render = () => {
    if (!list.isConnected && list.dataset.drawn) return false;
    list.dataset.drawn = '1';
    const camera = deviceStatus(c, 'video');
    const mic = deviceStatus(c, 'audio');
    const { rtt, relay } = c.readiness;
    const level = rtt === undefined ? 'checking' : networkLevel(rtt);
    const networkText = rtt === undefined ? t('statusChecking') : rtt === null ? t('networkUnknown') : tf(`network${level[0].toUpperCase()}${level.slice(1)}`, { ms: rtt });
    list.replaceChildren(
      row('camera', t('checkCamera'), camera, deviceText(camera)),
      row('microphone', t('checkMicrophone'), mic, deviceText(mic)),
      row('speaker', t('checkSpeaker'), 'test', t('statusTestIt')),
      row('network', t('checkNetwork'), level, relay === null || relay === undefined ? networkText : `${networkText}; ${t(relay ? 'relayOk' : 'relayFailed')}`),
    );
    return true;
  };
  const offs = ['media', 'problem', 'readiness'].map((event) =>
    c.on(event, () => {
      if (render() === false) for (const off of offs) off();
    }),
  );
  render();
  // Where the check stands alone (the waiting screen), it brings its own speaker test and a way to run the network part again.
  const buttons = recheck
    ? el(
        'div',
        { class: 'check-actions' },
        el('button', { type: 'button', class: 'small', id: 'check-speaker', onclick: () => playTestTone(rememberedDevice('audiooutput')) }, icon('speaker'), ` ${t('testSpeaker')}`),
        el('button', { type: 'button', class: 'small', id: 'check-again', onclick: () => c.readiness.rtt !== undefined && void checkNetwork(c) }, t('checkAgain')),
      )
    : null;
  return el('section', { class: 'check-box', 'aria-labelledby': 'readiness-title' }, el('h2', { id: 'readiness-title' }, t('checkTitle')), list, buttons);
}

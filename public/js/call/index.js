// @module public/js/call — the call component: one per page, used by every
// page with a call (a meeting or room, a board's or queue's client, a
// member's console). `createCall(page)` builds it over a page's state
// (lib/page-state.js) and returns what it can do as plain functions, so a
// button, a keyboard shortcut or an embedding page can call them alike.
// Nothing here runs on import: the page entry creates the call.
import { createLevelMeter } from '../lib/level-meter.js';
import { sendChat } from './chat.js';
import { connect } from './connection.js';
import { switchDevice, switchSpeaker, watchDevices } from './devices.js';
import { finish, leave } from './end.js';
import { endForAll, toggleLock } from './host.js';
import { acquire, retryMissing, stopMedia, toggleCamera, toggleMic, toggleShare } from './local-media.js';
import { MediaPath } from './media-path.js';
import { togglePanel } from './panel.js';
import { showPrejoin } from './prejoin.js';
import { classify, sendProfile, weakUplink } from './quality.js';
import { sendReaction, setHand } from './reactions.js';
import { newBackoff, reconnectWhenOnline } from './reconnect.js';
import { refresh, relayout } from './screen.js';
import { openSettings } from './settings.js';
import { listenForShortcuts } from './shortcuts.js';
import { feedLevels, setActiveSpeaker } from './speaking.js';
import { attachStream, renderPeerState, screenTileId, setQuality, showScreen } from './tiles.js';
import { renderPeople } from './people.js';
import { announced, audioTrack } from './tracks.js';

const LEVELS_MS = 250;
const QUALITY_MS = 2000;

/**
 * `onEnd(kind, code)`: a page that uses the call for its own purpose (the
 * waiting page, a member's console) draws its own end; it is called after
 * everything is torn down, and returning false leaves the call's end screen.
 * `waitingCall`: a member's 1:1 call with a waiting client, where locking
 * the meeting or ending it for everyone makes no sense (hanging up does it).
 */
export function createCall(page, { onEnd = null, waitingCall = false } = {}) {
  const listeners = new Map();
  const c = {
    ...page,
    options: { waitingCall },
    tiles: new Map(),
    /** Screens shared as streams of their own (through the SFU), by sharer: each is shown in a tile of its own. */
    screens: new Map(),
    /** Messages and closes are handled one at a time, in the order they came. */
    queue: Promise.resolve(),
    backoff: newBackoff(),
    onEnd,
    /** The media source: the mesh, then the SFU once the place uses it (media-path.js). */
    media: null,
    acquireSeq: 0,
    acquiring: false,
    /** Device problems by kind: null, blocked, missing, inUse, unsupported, failed or ended (local-media.js). */
    problems: { audio: null, video: null },
    readiness: { rtt: undefined, relay: undefined },
    /** How the connection to each remote participant is doing (the media source's onPeerState). */
    peerStates: new Map(),
    ui: { hand: false, pinned: null, view: 'grid', panel: null, unread: 0, messages: [], announcements: [], speakerId: null, weakUplink: false, corner: null },
    timers: [],
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(fn);
      return () => listeners.get(event)?.delete(fn);
    },
    emit(event, ...args) {
      for (const fn of [...(listeners.get(event) ?? [])]) fn(...args);
    },
    refresh: () => refresh(c),
    relayout: () => relayout(c),
  };
  c.media = new MediaPath({
    iceServers: page.settings.iceServers,
    iceTransportPolicy: page.settings.iceTransportPolicy,
    send: (m) => c.state.signalling?.send(m),
    onStream: (id, stream) => attachStream(c, id, stream),
    // The person may still be there (a connection starting over): their tile stays until they leave the list.
    onGone: (id) => {
      const tile = c.tiles.get(id);
      if (tile) tile.video.srcObject = null;
    },
    onScreen: (id, stream) => showScreen(c, id, stream),
    onPeerState: (id, s) => onPeerState(c, id, s),
    // Through the SFU, Janus's audio levels name who speaks (the rings still come from the audio received).
    onTalking: (id, talking) => {
      if (talking) setActiveSpeaker(c, id);
    },
  });
  const { state } = page;
  c.actions = {
    join: () => connect(c),
    leave: () => leave(c),
    toggleMic: () => toggleMic(c),
    toggleCamera: () => toggleCamera(c),
    toggleShare: () => toggleShare(c),
    toggleHand: () => setHand(c, !c.ui.hand),
    react: (emoji) => sendReaction(c, emoji),
    sendChat: (text) => sendChat(c, text),
    togglePanel: (kind) => togglePanel(c, kind),
    openSettings: () => openSettings(c),
    setDevice: (kind, deviceId) => (kind === 'speaker' ? switchSpeaker(c, deviceId) : switchDevice(c, kind, deviceId)),
    retryDevices: () => retryMissing(c, { blocked: true }),
    pin: (id) => {
      c.ui.pinned = id;
      refresh(c);
    },
    toggleView: () => {
      c.ui.view = c.ui.view === 'speaker' ? 'grid' : 'speaker';
      refresh(c);
    },
    toggleLock: () => toggleLock(c),
    /** The host turns the meeting's chat off or on; the server decides and tells everyone (`chat_state`). */
    toggleChat: () => c.state.signalling?.send({ type: 'set_chat', off: !c.state.chatOff }),
    endForAll: () => endForAll(c),
    /** Connects again to one person whose connection failed (the media source decides how). */
    retry: (id) => c.media.retry?.(id),
  };
  reconnectWhenOnline(c, c.actions.join);
  watchDevices(c);
  // Ctrl+D / Ctrl+E (⌘ on a Mac), only while the call screen is up.
  listenForShortcuts(c);
  c.on('call', () => startMonitors(c));

  return {
    state,
    ...c.actions,
    /** Ends the call from this side without a leave (the page moves on). */
    drop() {
      state.leaving = true;
      const signalling = state.signalling;
      state.signalling = null;
      signalling?.close();
      c.media.closeAll();
      stopMonitors(c);
      state.participants = [];
    },
    finish: (kind, code) => finish(c, kind, code),
    acquire: () => acquire(c),
    stopMedia: () => stopMedia(c),
    refreshControls: () => refresh(c),
    showPrejoin: (onJoin, message, labels) => showPrejoin(c, onJoin, message, labels),
    /** The device and network check, as it travels with a waiting client. */
    readiness: () => c.readiness,
    context: c,
    /** Read-only views for tests and diagnostics (window.foyer). */
    framesDecoded: () => c.media.framesDecoded(),
    stats: () => c.media.stats(),
    peerStates: () => c.media.peerStates(),
    /** 'mesh' or 'sfu', and how many RTCPeerConnections are open. */
    mediaPath: () => ({ mode: c.media.mode, connections: c.media.connectionCount(), sfu: c.media.sfuDetails() }),
    announced: () => announced(state),
    announcements: () => [...c.ui.announcements],
    sendProfile: () => c.ui.sendProfile ?? null,
  };
}

function onPeerState(c, id, s) {
  c.peerStates.set(id, { state: s.state, attempt: s.attempt ?? 0, hint: s.hint });
  for (const tile of [c.tiles.get(id), c.tiles.get(screenTileId(id))]) if (tile) renderPeerState(c, tile);
  // Once for all the states reported together: through the SFU one connection's state is everyone's, and the list
  // drawn again per person took a page joining a meeting of 25 some 60 ms.
  if (c.peopleDue) return;
  c.peopleDue = true;
  queueMicrotask(() => {
    c.peopleDue = false;
    renderPeople(c);
  });
}

/** While the call screen is up: who speaks (a few times a second), how each connection does, what to send. */
function startMonitors(c) {
  stopMonitors(c);
  c.timers.push(
    setInterval(() => {
      if (c.state.phase !== 'call') return;
      const levels = c.media.audioLevels?.() ?? {};
      const mic = audioTrack(c.state);
      if (c.selfMeter?.track !== mic) {
        c.selfMeter?.meter.stop();
        c.selfMeter = mic ? { track: mic, meter: createLevelMeter(mic) } : null;
      }
      levels.self = mic?.enabled && c.selfMeter ? c.selfMeter.meter.level() : 0;
      feedLevels(c, levels);
    }, LEVELS_MS),
    setInterval(() => void checkQuality(c), QUALITY_MS),
  );
  void checkQuality(c);
}

function stopMonitors(c) {
  for (const timer of c.timers.splice(0)) clearInterval(timer);
  c.selfMeter?.meter.stop();
  c.selfMeter = null;
}

export { stopMonitors };

async function checkQuality(c) {
  if (c.state.phase !== 'call') return;
  const all = (await c.media.connectionStats?.()) ?? {};
  const people = c.state.participants;
  for (const [id, figures] of Object.entries(all)) {
    const p = people.find((x) => x.id === id);
    const tile = c.tiles.get(id);
    if (tile) setQuality(c, tile, classify({ ...figures, expectVideo: Boolean(p?.video || p?.screen) }));
  }
  const weak = weakUplink(Object.values(all));
  const profile = sendProfile(Math.max(people.length, 1), weak, Boolean(c.state.screenTrack));
  c.ui.sendProfile = profile;
  c.media.setSendQuality?.(profile);
  if (weak !== c.ui.weakUplink) {
    c.ui.weakUplink = weak;
    refresh(c);
  }
}

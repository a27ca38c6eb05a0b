// @module public/js/meeting/state — what the meeting page knows: the
// server's settings, the preferences in its URL (displayName, audio=off,
// video=off, skipPrejoin=true, lang, embed=true), its language, and the one
// mutable `state` every part of the page reads and changes.
import { readSettings } from '../lib/dom.js';
import { pickLang, translator } from '../lib/i18n.js';
import { readStored } from '../lib/storage.js';
import { meetingTexts } from '../shared/strings/meeting.js';
import { meetingHostTexts } from '../shared/strings/meeting-host.js';

export const settings = readSettings();
export const params = new URLSearchParams(location.search);
// A page the server already rendered in a language (a member's console) passes it in its settings.
export const lang = pickLang(params.get('lang') || settings.lang);
export const t = translator(lang, meetingTexts, meetingHostTexts);
/** `tf('removeLabel', { name })`: the text with `{name}` filled in. */
export const tf = (key, values = {}) => t(key).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
export const embed = params.get('embed') === 'true';
/** Where each screen (pre-join, call, end) replaces the one before. */
export const root = document.getElementById('app');
export const NAME_KEY = 'foyer.displayName';

export const state = {
  /** prejoin → joining → (knocking →) call, and back to joining on a reconnect; ends in ended, left or failed. */
  phase: 'prejoin',
  name: (params.get('displayName') || readStored(NAME_KEY) || '').trim().slice(0, 64),
  audioOn: params.get('audio') !== 'off',
  videoOn: params.get('video') !== 'off',
  audioDevice: undefined,
  videoDevice: undefined,
  stream: new MediaStream(),
  screenTrack: null,
  // One stream for the self view while sharing: a new one per refresh restarts the <video> (flicker).
  screenStream: null,
  selfId: null,
  participants: [],
  /** The server says this page's participant is the meeting's admin (from the member's session). */
  host: false,
  /** Arrivals knock (welcome and `lock`); and, for the host, who is knocking now (`knocks`). */
  locked: false,
  knocks: [],
  /** The page's link to an embedding page (meeting/embed.js), told what happens in the call; null when not started. */
  bridge: null,
  /** The current connection (lib/signalling.js); null between a drop and the next attempt. */
  signalling: null,
  leaving: false,
  firstRemoteFrameAt: null,
  // Diagnostics (window.foyer): every close code seen, every reconnect wait chosen.
  closes: [],
  retryDelays: [],
};

export function audioTrack() {
  return state.stream.getAudioTracks()[0] ?? null;
}

export function cameraTrack() {
  return state.stream.getVideoTracks()[0] ?? null;
}

/** What others are told: only what is really sent, never "camera on" over a black tile. */
export function announced() {
  return {
    audio: state.audioOn && Boolean(audioTrack()),
    video: state.videoOn && Boolean(cameraTrack()),
    screen: Boolean(state.screenTrack),
  };
}

/** Diagnostics lists (window.foyer) that a long outage must not grow without end. */
export function remember(list, value) {
  list.push(value);
  if (list.length > 100) list.shift();
}

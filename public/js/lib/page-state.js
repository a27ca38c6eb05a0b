// @module public/js/lib/page-state — what one page knows, made by the page's
// entry when it starts (nothing is read on import): the server's settings,
// the preferences in its URL (displayName, audio=off, video=off,
// skipPrejoin=true, lang, embed=true), its language and texts, the element
// it renders into, and the one mutable `state` its parts read and change.
import { readSettings } from './dom.js';
import { pickLang, translator } from './i18n.js';
import { readStored } from './storage.js';

/** Where a participant's name is remembered in this browser. */
export const NAME_KEY = 'foyer.displayName';

/** `fill('Hello {name}', { name })`: `{…}` replaced by the values given, others left as they are. */
export function fill(text, values = {}) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/**
 * A member's pass (`?pass=`, their own link to a call) acts as that member:
 * it is kept for this tab's rejoins and reloads but taken out of the
 * address bar, so a copied address or the history never carries it.
 */
function keepPassOutOfAddress(params) {
  const key = `foyer.pass:${location.pathname}`;
  const pass = params.get('pass');
  try {
    if (pass) {
      sessionStorage.setItem(key, pass);
      const url = new URL(location.href);
      url.searchParams.delete('pass');
      history.replaceState(history.state, '', url);
    } else {
      const kept = sessionStorage.getItem(key);
      if (kept) params.set('pass', kept);
    }
  } catch {
    // Storage refused (a sandboxed frame): the pass stays in the address, as it came.
  }
}

/**
 * A page's state. `texts`: its tables of texts (later ones win on a shared
 * key); `lang`: a language the server already rendered the page in (a
 * member's console), else `?lang=`, the settings' and then the browser's.
 */
export function createPageState({ texts = [], rootId = 'app', settingsId = 'foyer-settings' } = {}) {
  const settings = readSettings(settingsId);
  const params = new URLSearchParams(location.search);
  keepPassOutOfAddress(params);
  const lang = pickLang(params.get('lang') || settings.lang);
  const lookup = translator(lang, ...texts);
  return {
    settings,
    params,
    lang,
    t: lookup,
    /** `tf('removeLabel', { name })`: the text with `{name}` filled in. */
    tf: (key, values) => fill(lookup(key), values),
    embed: params.get('embed') === 'true',
    /** Where each screen (pre-join, call, end) replaces the one before. */
    root: document.getElementById(rootId),
    state: {
      /** prejoin → joining → (knocking →) call, and back to joining on a reconnect; ends in ended, left or failed. */
      phase: 'prejoin',
      // The link's name first, then a signed-in member's own, then the one this browser remembers.
      name: (params.get('displayName') || settings.memberName || readStored(NAME_KEY) || '').trim().slice(0, 64),
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
      /** The current connection (lib/signalling.js); null between a drop and the next attempt. */
      signalling: null,
      leaving: false,
      firstRemoteFrameAt: null,
      // Diagnostics (window.foyer): every close code seen, every reconnect wait chosen.
      closes: [],
      retryDelays: [],
    },
  };
}

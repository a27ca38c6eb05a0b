// Foyer's embedding SDK, served at /sdk/foyer.js: one ES module, no build
// step, no imports. Load it from your Foyer and use the element:
//
//   <script type="module" src="https://meet.example.org/sdk/foyer.js"></script>
//   <foyer-meeting src="REDIRECT_URL" display-name="Ann" lang="en"></foyer-meeting>
//
// <foyer-meeting> wraps the meeting (or waiting, or console) page in an
// iframe allowed to use camera, microphone and screen capture, re-emits
// the page's events as DOM events of the element (`ready`, `joined`,
// `participant_joined`, … each a CustomEvent whose `detail` is the
// message), and offers the page's commands as methods returning promises
// (`mute()`, `leave()`, `lock()`, …), rejected with an Error whose `code`
// says why the page refused. Only messages from the iframe's own window
// and origin are heard, and commands are addressed to that origin alone.
// The page talks only to origins its organization allowed (Dashboard →
// Embedding, or POST /v3/allowed-origins). See docs/embedding.md.

const EVENT_SOURCE = 'foyer';
const COMMAND_SOURCE = 'foyer-parent';
const EVENT_TYPES = [
  'ready',
  'joined',
  'left',
  'participant_joined',
  'participant_left',
  'knocking',
  'admitted',
  'waiting_changed',
  'media_changed',
  'chat_message',
  'locked',
  'unlocked',
  'ended',
  'error',
  'command_done',
];
/** How long a command may go unanswered before its promise is rejected with code "timeout". */
const COMMAND_TIMEOUT_MS = 15_000;
const ALLOW = 'camera; microphone; display-capture; fullscreen; autoplay; clipboard-write';

let sheet = null;
function styles() {
  if (!sheet && typeof CSSStyleSheet === 'function') {
    // A constructed sheet, not a <style>: it works under the embedding page's own strict CSP.
    sheet = new CSSStyleSheet();
    sheet.replaceSync(':host { display: block; position: relative; min-height: 360px; } iframe { position: absolute; inset: 0; width: 100%; height: 100%; border: 0; }');
  }
  return sheet;
}

const BaseElement = globalThis.HTMLElement ?? class {};

export class FoyerMeeting extends BaseElement {
  static get observedAttributes() {
    return ['src', 'display-name', 'lang', 'audio', 'video'];
  }

  #iframe = null;
  #origin = null;
  #pending = new Map();
  #sequence = 0;
  #listening = false;

  connectedCallback() {
    if (!this.#listening) {
      window.addEventListener('message', this.#onMessage);
      this.#listening = true;
    }
    if (!this.#iframe) this.#render();
  }

  disconnectedCallback() {
    window.removeEventListener('message', this.#onMessage);
    this.#listening = false;
    this.#rejectAll('disconnected');
  }

  attributeChangedCallback(name, before, after) {
    if (before !== after && this.isConnected) this.#render();
  }

  /** The iframe (for sizing or focus); null before `src` is set. */
  get frame() {
    return this.#iframe;
  }

  /** The page's URL with the element's settings, as the iframe loads it. */
  get pageUrl() {
    const src = this.getAttribute('src');
    if (!src) return null;
    const url = new URL(src, document.baseURI);
    url.searchParams.set('embed', 'true');
    const name = this.getAttribute('display-name');
    if (name) url.searchParams.set('displayName', name);
    const lang = this.getAttribute('lang');
    if (lang) url.searchParams.set('lang', lang);
    for (const kind of ['audio', 'video']) {
      const value = this.getAttribute(kind);
      if (value === 'off' || value === 'false') url.searchParams.set(kind, 'off');
    }
    return url;
  }

  #render() {
    const url = this.pageUrl;
    if (!url) return;
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    const sheetOrNull = styles();
    if (sheetOrNull) root.adoptedStyleSheets = [sheetOrNull];
    this.#rejectAll('reloaded');
    const iframe = document.createElement('iframe');
    // Each feature for the iframe's own origin (the allow attribute's default), nobody else's.
    iframe.setAttribute('allow', ALLOW);
    iframe.setAttribute('title', this.getAttribute('title') || 'Video call');
    iframe.src = url.href;
    this.#origin = url.origin;
    this.#iframe = iframe;
    root.replaceChildren(iframe);
  }

  #onMessage = (event) => {
    if (!this.#iframe || event.source !== this.#iframe.contentWindow || event.origin !== this.#origin) return;
    const data = event.data;
    if (!data || typeof data !== 'object' || data.source !== EVENT_SOURCE || !EVENT_TYPES.includes(data.type)) return;
    if (data.requestId && this.#pending.has(data.requestId) && (data.type === 'command_done' || data.type === 'error')) {
      const { resolve, reject, timer } = this.#pending.get(data.requestId);
      this.#pending.delete(data.requestId);
      clearTimeout(timer);
      if (data.type === 'command_done') resolve(data);
      else reject(Object.assign(new Error(data.message || data.code), { code: data.code, command: data.command }));
    }
    this.dispatchEvent(new CustomEvent(data.type, { detail: data }));
  };

  #rejectAll(code) {
    for (const { reject, timer } of this.#pending.values()) {
      clearTimeout(timer);
      reject(Object.assign(new Error(code), { code }));
    }
    this.#pending.clear();
  }

  /** Sends `command` to the page; resolves when it was carried out, rejects with `error.code` when refused. */
  command(command) {
    const target = this.#iframe?.contentWindow;
    if (!target) return Promise.reject(Object.assign(new Error('not_loaded'), { code: 'not_loaded' }));
    const requestId = `r${++this.#sequence}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(requestId);
        reject(Object.assign(new Error('timeout'), { code: 'timeout', command }));
      }, COMMAND_TIMEOUT_MS);
      this.#pending.set(requestId, { resolve, reject, timer });
      const message = { source: COMMAND_SOURCE, command, requestId };
      // Screen capture needs a person's gesture: where the browser can, the parent's click is delegated to the page.
      if (command === 'start_screen_share') {
        try {
          target.postMessage(message, { targetOrigin: this.#origin, delegate: 'display-capture' });
          return;
        } catch {
          // No capability delegation here: sent plainly below.
        }
      }
      target.postMessage(message, this.#origin);
    });
  }

  hello() {
    return this.command('hello');
  }
  mute() {
    return this.command('mute');
  }
  unmute() {
    return this.command('unmute');
  }
  startCamera() {
    return this.command('start_camera');
  }
  stopCamera() {
    return this.command('stop_camera');
  }
  startScreenShare() {
    return this.command('start_screen_share');
  }
  stopScreenShare() {
    return this.command('stop_screen_share');
  }
  leave() {
    return this.command('leave');
  }
  lock() {
    return this.command('lock');
  }
  unlock() {
    return this.command('unlock');
  }
  end() {
    return this.command('end');
  }
}

if (globalThis.customElements && !customElements.get('foyer-meeting')) customElements.define('foyer-meeting', FoyerMeeting);

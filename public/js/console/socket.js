// @module public/js/console/socket — a member's console socket
// (docs/signalling.md, "Waiting lists"): `console` for this board or
// queue, its views, the member's actions, and coming back after a drop.
// The page's session cookie goes with the upgrade: that is who the member is.
import { Signalling } from '../lib/signalling.js';
import { RECONNECT_CODES } from '../shared/close-codes.js';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15000;

export class ConsoleSocket {
  /** `onView(view)`, `onError(error)`, `onDrop()`, `onFinal(code, error)`. */
  constructor(settings, handlers) {
    this.settings = settings;
    this.handlers = handlers;
    this.socket = null;
    this.retryDelay = RETRY_FIRST_MS;
    this.timer = null;
    this.lastError = null;
    window.addEventListener('online', () => {
      if (this.timer) this.connect();
    });
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    this.lastError = null;
    const current = new Signalling(this.settings.wsPath, {
      onMessage: (m) => this.socket === current && this.onMessage(m),
      onClose: (code) => this.socket === current && this.onClose(code),
    });
    this.socket = current;
    const { kind, spaceId } = this.settings.console;
    current.opened.then(() => current.send({ type: 'console', kind, spaceId })).catch(() => {});
  }

  send(message) {
    this.socket?.send(message);
  }

  onMessage(m) {
    if (m.type === 'console') {
      this.retryDelay = RETRY_FIRST_MS;
      this.handlers.onView(m.view);
    } else if (m.type === 'error') {
      this.lastError = m;
      this.handlers.onError(m);
    }
  }

  onClose(code) {
    this.socket = null;
    if (RECONNECT_CODES.includes(code)) {
      this.handlers.onDrop();
      const wait = Math.round(this.retryDelay * (0.8 + Math.random() * 0.4));
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
      this.timer = setTimeout(() => this.connect(), wait);
      return;
    }
    this.handlers.onFinal(code, this.lastError);
  }
}

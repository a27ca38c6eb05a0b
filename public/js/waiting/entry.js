// @module public/js/waiting/entry — the client's waiting entry (their place) in a board's or
// queue's line, over its own signalling socket (docs/signalling.md,
// "Waiting lists"): `wait` with the token of the place this tab holds and
// the device and network check, the views the server sends, the check
// again when it changes (`readiness`), and coming back after a dropped
// connection with that token, so a reload or a new network keeps the place.
import { Signalling } from '../lib/signalling.js';
import { readSession, writeSession } from '../lib/storage.js';
import { RECONNECT_CODES } from '../shared/close-codes.js';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15000;
const FINAL = new Set(['served', 'left', 'declined', 'closed']);

/**
 * The place of the page whose state is `page` (its settings name the
 * board or queue, its state the client's name). `onView(view)` for every
 * view; `onDrop()` when the connection is lost and being restored;
 * `onRefused(code, error)` when the server will not have this client.
 */
export function createWaitingEntry(page, handlers) {
  const { settings, state } = page;
  const tokenKey = `foyer.waitingToken.${settings.waiting?.slug}`;
  let socket = null;
  let retryDelay = RETRY_FIRST_MS;
  let retryTimer = null;
  let lastError = null;
  let done = false;
  let listening = false;
  /** The server has this socket's client in line: it takes `readiness` from now on. */
  let inLine = false;

  function connect() {
    retryTimer = null;
    lastError = null;
    const current = new Signalling(settings.wsPath, {
      onMessage: (m) => socket === current && onMessage(m),
      onClose: (code) => socket === current && onClose(code),
    });
    socket = current;
    inLine = false;
    current.opened
      .then(() => current.send({ type: 'wait', slug: settings.waiting.slug, name: state.name, token: readSession(tokenKey), readiness: handlers.readiness?.() ?? null }))
      .catch(() => {});
  }

  function connectNow() {
    clearTimeout(retryTimer);
    connect();
  }

  function onMessage(m) {
    if (m.type === 'waiting') {
      inLine = true;
      // The page is really here: only a place whose page answered keeps it through a lost connection.
      if (m.token) {
        writeSession(tokenKey, m.token);
        socket?.send({ type: 'here' });
      }
      retryDelay = RETRY_FIRST_MS;
      // A wait that is over is over: the next visit starts a new one.
      if (FINAL.has(m.view.state)) finish();
      handlers.onView(m.view);
    } else if (m.type === 'error') {
      lastError = m;
    }
  }

  function onClose(code) {
    socket = null;
    if (done) return;
    if (RECONNECT_CODES.includes(code)) {
      handlers.onDrop();
      const wait = Math.round(retryDelay * (0.8 + Math.random() * 0.4));
      retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
      retryTimer = setTimeout(connect, wait);
      return;
    }
    done = true;
    handlers.onRefused(code, lastError);
  }

  /** The wait is over (served, declined, closed, left): no reconnecting, no place to take back. */
  function finish() {
    done = true;
    clearTimeout(retryTimer);
    writeSession(tokenKey, null);
    const current = socket;
    socket = null;
    current?.close();
  }

  return {
    /** This tab holds a place (it reloaded, or came back): it can wait again without the entry screen. */
    holdsPlace: () => Boolean(readSession(tokenKey)),
    /** Gets in line (or takes the held place back). */
    open() {
      done = false;
      connect();
      if (listening) return;
      listening = true;
      window.addEventListener('online', () => {
        if (retryTimer) connectNow();
      });
    },
    /** The check changed: the members' consoles are told (a socket not yet in line sends it with its `wait`). */
    report(readiness) {
      if (inLine && socket) socket.send({ type: 'readiness', readiness });
    },
    /** Gives the place up for good. */
    leave() {
      socket?.send({ type: 'leave' });
      finish();
    },
    finish,
    /** Forgets the place after a refusal (a bad name keeps none). */
    forget: () => writeSession(tokenKey, null),
  };
}

// @module public/js/meeting/reconnect — coming back after a dropped
// connection (network, server restart, instance reaped; docs/signalling.md):
// exponential backoff with jitter, a notice meanwhile, and no waiting once
// the browser is back online. Which closes call for it is meeting/connection.js's call.
import { remember, state, t } from './state.js';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15000;

let retryDelay = RETRY_FIRST_MS;
let retryTimer = null;

/** A connection came up: the next drop starts again from the shortest wait. */
export function resetBackoff() {
  retryDelay = RETRY_FIRST_MS;
}

export function cancelReconnect() {
  clearTimeout(retryTimer);
  retryTimer = null;
}

/** Shows that the connection was lost (`text`, by default the plain notice) and calls `rejoin` after the next backoff step. */
export function reconnectLater(rejoin, text = t('reconnecting')) {
  const notice = document.getElementById('notice');
  if (notice) {
    notice.textContent = text;
    notice.dataset.sticky = '1';
  }
  const delay = retryDelay;
  retryDelay = Math.min(delay * 2, RETRY_MAX_MS);
  // ±20 %: after a restart, a whole meeting's worth of pages should not return in the same instant.
  const wait = Math.round(delay * (0.8 + Math.random() * 0.4));
  remember(state.retryDelays, wait);
  retryTimer = setTimeout(() => reconnectNow(rejoin), wait);
}

function reconnectNow(rejoin) {
  cancelReconnect();
  const notice = document.getElementById('notice');
  if (notice) delete notice.dataset.sticky;
  void rejoin();
}

/** Back online: no point waiting out the backoff. */
export function reconnectWhenOnline(rejoin) {
  window.addEventListener('online', () => {
    if (retryTimer) reconnectNow(rejoin);
  });
}

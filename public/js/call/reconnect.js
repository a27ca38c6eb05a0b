// @module public/js/call/reconnect — coming back after a dropped
// connection (network, server restart, instance reaped; docs/signalling.md):
// exponential backoff with jitter, a notice meanwhile, and no waiting once
// the browser is back online. Which closes call for it is connection.js's call.
import { remember } from './tracks.js';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15000;

/** One call's backoff: the next wait and the pending attempt. */
export function newBackoff() {
  return { delay: RETRY_FIRST_MS, timer: null };
}

/** A connection came up: the next drop starts again from the shortest wait. */
export function resetBackoff(c) {
  c.backoff.delay = RETRY_FIRST_MS;
}

export function cancelReconnect(c) {
  clearTimeout(c.backoff.timer);
  c.backoff.timer = null;
}

/** Shows that the connection was lost (`text`, by default the plain notice) and calls `rejoin` after the next backoff step. */
export function reconnectLater(c, rejoin, text = c.t('reconnecting')) {
  const notice = document.getElementById('notice');
  if (notice) {
    notice.textContent = text;
    notice.dataset.sticky = '1';
  }
  const delay = c.backoff.delay;
  c.backoff.delay = Math.min(delay * 2, RETRY_MAX_MS);
  // ±20 %: after a restart, a whole meeting's worth of pages should not return in the same instant.
  const wait = Math.round(delay * (0.8 + Math.random() * 0.4));
  remember(c.state.retryDelays, wait);
  c.backoff.timer = setTimeout(() => reconnectNow(c, rejoin), wait);
}

function reconnectNow(c, rejoin) {
  cancelReconnect(c);
  const notice = document.getElementById('notice');
  if (notice) delete notice.dataset.sticky;
  void rejoin();
}

/** Back online: no point waiting out the backoff. */
export function reconnectWhenOnline(c, rejoin) {
  window.addEventListener('online', () => {
    if (c.backoff.timer) reconnectNow(c, rejoin);
  });
}

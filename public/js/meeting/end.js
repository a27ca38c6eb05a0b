// @module public/js/meeting/end — leaving, and the end screens: left,
// ended (by the host too), removed by the host, turned away, not found, not
// joinable, and failed (the server refused this connection for good;
// nothing retries). Removed and turned away offer no rejoin button.
import { el } from '../lib/dom.js';
import { mesh } from './call.js';
import { stopMedia } from './local-media.js';
import { cancelReconnect } from './reconnect.js';
import { root, state, t } from './state.js';

/** A page that uses the call for its own purpose (the waiting page, a member's console) draws its own end. */
let endScreen = null;

/**
 * `show(kind, code)` is called instead of the meeting's end screen, after
 * everything is torn down; returning false leaves the meeting's screen.
 */
export function setEndScreen(show) {
  endScreen = show;
}

/** `kind`: left, ended, endedByHost, removed, turnedAway, notFound, notJoinable or failed (with the close `code`). */
export function finish(kind, code) {
  state.phase = kind === 'left' || kind === 'failed' ? kind : 'ended';
  state.leaving = true;
  cancelReconnect();
  state.signalling?.close();
  state.signalling = null;
  mesh.closeAll();
  stopMedia();
  state.participants = [];
  state.bridge?.finished(kind, code === undefined ? {} : { code });
  if (endScreen && endScreen(kind, code) !== false) return;
  const messages = {
    left: t('left'),
    ended: t('ended'),
    endedByHost: t('endedByHost'),
    removed: t('removed'),
    turnedAway: t('turnedAway'),
    notFound: t('notFound'),
    notJoinable: t('notJoinable'),
    failed: t('failed'),
  };
  const body = [el('h1', {}, messages[kind])];
  if (kind === 'failed') body.push(el('p', { class: 'detail' }, `${t('failedCode')} ${code}`));
  if (kind === 'left' || kind === 'failed') {
    body.push(el('button', { type: 'button', class: 'primary', id: 'rejoin', onclick: () => location.reload() }, kind === 'left' ? t('rejoin') : t('tryAgain')));
  }
  root.replaceChildren(el('section', { class: 'plain', id: 'finished', 'data-kind': kind, 'data-code': code }, ...body));
}

export function leave() {
  state.leaving = true;
  state.signalling?.send({ type: 'leave' });
  finish('left');
}

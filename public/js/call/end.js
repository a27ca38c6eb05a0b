// @module public/js/call/end — leaving, and the end screens: left,
// ended (by the host too), removed by the host, turned away, not found, not
// joinable, and failed (the server refused this connection for good;
// nothing retries). Removed and turned away offer no rejoin button.
import { el } from '../lib/dom.js';
import { stopMonitors } from './index.js';
import { stopMedia } from './local-media.js';
import { cancelReconnect } from './reconnect.js';

/** `kind`: left, ended, endedByHost, removed, turnedAway, notFound, notJoinable or failed (with the close `code`). */
export function finish(c, kind, code) {
  const { state, t } = c;
  state.phase = kind === 'left' || kind === 'failed' ? kind : 'ended';
  state.leaving = true;
  cancelReconnect(c);
  state.signalling?.close();
  state.signalling = null;
  c.media.closeAll();
  stopMonitors(c);
  stopMedia(c);
  state.participants = [];
  c.emit('finished', kind, code);
  if (c.onEnd && c.onEnd(kind, code) !== false) return;
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
  c.root.replaceChildren(el('section', { class: 'plain', id: 'finished', 'data-kind': kind, 'data-code': code }, ...body));
}

export function leave(c) {
  c.state.leaving = true;
  c.state.signalling?.send({ type: 'leave' });
  finish(c, 'left');
}

// @module public/js/call/end — leaving, and the end screens: left,
// ended (by the host too), removed by the host, turned away, not found, not
// joinable, and failed (the server refused this connection for good;
// nothing retries). Each leads somewhere that fits: Rejoin after leaving,
// Try again after a failure, none after being removed or turned away; the
// host who ended the meeting, and any member of the organization, get
// their way back to the dashboard's meetings.
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
  const endedItself = c.endedBySelf && (kind === 'ended' || kind === 'endedByHost');
  const body = [el('h1', {}, endedItself ? t('endedBySelf') : messages[kind])];
  if (kind === 'failed') body.push(el('p', { class: 'detail' }, `${t('failedCode')} ${code}`));
  if (endedItself) body.push(el('p', { class: 'detail' }, t('endedBySelfDetail')));
  else if (kind === 'ended' || kind === 'endedByHost' || kind === 'removed' || kind === 'turnedAway') body.push(el('p', { class: 'detail' }, t('closePage')));
  const actions = [];
  if (kind === 'left' || kind === 'failed') {
    actions.push(el('button', { type: 'button', class: 'primary', id: 'rejoin', onclick: () => location.reload() }, kind === 'left' ? t('rejoin') : t('tryAgain')));
  }
  // A member (signed in, or the meeting's host) goes back to where they came from; after ending the meeting it is the main way on.
  if (!c.embed && (state.host || c.settings.memberName || c.settings.host)) {
    actions.push(el('a', { class: `button${actions.length ? '' : ' primary'}`, id: 'to-dashboard', href: '/dashboard/meetings' }, t('toDashboard')));
  }
  if (actions.length) body.push(el('div', { class: 'end-actions' }, ...actions));
  c.root.replaceChildren(el('section', { class: 'plain', id: 'finished', 'data-kind': endedItself ? 'endedBySelf' : kind, 'data-code': code }, ...body));
}

export function leave(c) {
  c.state.leaving = true;
  c.state.signalling?.send({ type: 'leave' });
  finish(c, 'left');
}

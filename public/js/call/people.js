// @module public/js/call/people — the participant list: each person's
// name, host badge, raised hand, what they send (muted, camera off,
// sharing), how the connection to them is doing (with "Try again" when it
// failed), and the host's actions on them.
import { el } from '../lib/dom.js';
import { colourOf, initials } from './avatar.js';
import { participantActions } from './host.js';
import { icon } from './icons.js';
import { peerStateText } from './tiles.js';

function flags(c, p) {
  const { t } = c;
  const out = [];
  if (!p.audio) out.push(t('muted'));
  if (!p.video && !p.screen) out.push(t('camOff'));
  if (p.screen) out.push(t('sharing'));
  // Their connection to the server dropped: kept for a while, their media may still arrive.
  if (p.state === 'reconnecting') out.push(t('serverReconnecting'));
  return out.length ? ` · ${out.join(', ')}` : '';
}

export function renderPeople(c) {
  const { state, t } = c;
  const list = document.getElementById('people-list');
  if (!list) return;
  // Raised hands first (as the calls people know list them), otherwise in order of arrival.
  const ordered = [...state.participants.filter((p) => p.hand), ...state.participants.filter((p) => !p.hand)];
  list.replaceChildren(
    ...ordered.map((p) => {
      const self = p.id === state.selfId;
      const s = self ? null : (c.peerStates.get(p.id) ?? { state: 'connecting', attempt: 0 });
      const connection = s && s.state !== 'connected' ? el('small', { class: 'connection', id: `listed-state-${p.id}`, 'data-state': s.state }, peerStateText(c, s, p.name)) : null;
      const retry = s?.state === 'failed' ? el('button', { type: 'button', class: 'small retry', 'aria-describedby': `listed-state-${p.id}`, onclick: () => c.actions.retry(p.id) }, t('retry')) : null;
      const item = el(
        'li',
        { 'data-id': p.id },
        el(
          'span',
          { class: 'person' },
          // Drawn from the attribute, so the initials are not part of the name read out.
          el('span', { class: 'mini-avatar', 'data-initials': initials(p.name), 'aria-hidden': 'true' }),
          self ? `${p.name} (${t('you')})` : p.name,
          p.hand ? el('span', { class: 'hand-flag', title: t('handRaised') }, icon('hand'), el('span', { class: 'visually-hidden' }, t('handRaised'))) : null,
          p.host ? el('span', { class: 'badge host-badge' }, t('host')) : null,
          el('small', {}, flags(c, p)),
        ),
        connection,
        retry,
        participantActions(c, p),
      );
      item.querySelector('.mini-avatar').style.setProperty('--avatar', colourOf(p.name));
      return item;
    }),
  );
}

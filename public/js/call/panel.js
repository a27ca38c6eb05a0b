// @module public/js/call/panel — the side panel: the participant list or
// the chat, one at a time (beside the videos on a wide screen, over them
// on a phone), opened and closed by their bar buttons or its own Close.
import { el } from '../lib/dom.js';
import { buildChat, markRead } from './chat.js';
import { icon } from './icons.js';

export function buildPanel(c) {
  const { t } = c;
  const close = el('button', { type: 'button', class: 'icon-button close', id: 'panel-close', 'aria-label': t('close'), onclick: () => setPanel(c, null) }, icon('close'));
  const people = el('section', { class: 'people', id: 'people', 'aria-labelledby': 'people-title', hidden: true }, el('h2', { id: 'people-title' }, t('participants')), el('ul', { id: 'people-list' }));
  const chat = c.features?.has('chat') ? buildChat(c) : null;
  if (chat) chat.hidden = true;
  const panel = el('aside', { class: 'side-panel', id: 'panel', hidden: true }, close, people, chat);
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !event.defaultPrevented) setPanel(c, null);
  });
  return panel;
}

/** Opens `kind` ('people' or 'chat'), or closes the panel (null); the same kind again closes it. */
export function setPanel(c, kind) {
  const panel = document.getElementById('panel');
  if (!panel) return;
  const opener = c.ui.panel ? document.getElementById(c.ui.panel === 'chat' ? 'chat' : 'people-toggle') : null;
  c.ui.panel = kind;
  panel.hidden = !kind;
  document.getElementById('people').hidden = kind !== 'people';
  const chat = document.getElementById('chat-panel');
  if (chat) chat.hidden = kind !== 'chat';
  document.querySelector('.call')?.classList.toggle('panel-open', Boolean(kind));
  document.getElementById('chat')?.setAttribute('aria-expanded', String(kind === 'chat'));
  document.getElementById('people-toggle')?.setAttribute('aria-expanded', String(kind === 'people'));
  if (kind === 'chat') {
    markRead(c);
    document.getElementById('chat-input')?.focus();
  } else if (kind === 'people') {
    document.getElementById('people-title')?.setAttribute('tabindex', '-1');
    document.getElementById('people-title')?.focus();
  } else {
    opener?.focus();
  }
  c.relayout();
}

export function togglePanel(c, kind) {
  setPanel(c, c.ui.panel === kind ? null : kind);
}

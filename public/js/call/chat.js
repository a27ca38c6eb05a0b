// @module public/js/call/chat — the call's chat: a panel with the messages
// (names, times, links made clickable, never any HTML from anyone), a text
// box labelled "Message" and a "Send" button, an unread count on the
// "Chat" button while the panel is closed. The server relays each message
// to everyone in the meeting, on every instance, and stores none of them
// (docs/signalling.md, "Chat"): a page that joins later sees only what
// arrives after it, and everything is gone when the meeting ends.
import { el } from '../lib/dom.js';
import { announce } from './announce.js';
import { showUnread } from './controls.js';
import { MAX_CHAT_CHARS } from '../shared/call-extras.js';

export { MAX_CHAT_CHARS };
/** Messages kept on the page (the oldest scroll away beyond this). */
const KEEP = 200;
const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi;

/**
 * `text` as nodes: plain text, with http(s) addresses as links that open
 * elsewhere and pass nothing on. Built from text nodes only, so no message
 * can ever bring markup of its own.
 */
export function linkified(text) {
  const nodes = [];
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    // Trailing punctuation belongs to the sentence, not the address.
    const raw = match[0].replace(/[.,;:!?)\]}]+$/, '');
    let href = null;
    try {
      const url = new URL(raw.startsWith('www.') ? `https://${raw}` : raw);
      if (url.protocol === 'https:' || url.protocol === 'http:') href = url.href;
    } catch {
      href = null;
    }
    if (!href) continue;
    if (match.index > at) nodes.push(document.createTextNode(text.slice(at, match.index)));
    nodes.push(el('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow' }, raw));
    at = match.index + raw.length;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

/** The chat panel's content (shown in the side panel, see panel.js). */
export function buildChat(c) {
  const { t } = c;
  const input = el('textarea', { id: 'chat-input', name: 'message', rows: '2', maxlength: String(MAX_CHAT_CHARS), autocomplete: 'off', placeholder: t('messagePlaceholder') });
  const error = el('p', { class: 'error', id: 'chat-error', role: 'alert' });
  const form = el(
    'form',
    { class: 'chat-form', id: 'chat-form' },
    el('label', { for: 'chat-input', class: 'visually-hidden' }, t('message')),
    input,
    el('button', { type: 'submit', class: 'primary', id: 'chat-send' }, t('send')),
    error,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (sendChat(c, input.value)) input.value = '';
  });
  // Enter sends, Shift+Enter starts a new line (as in every chat).
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  // The log (read out as messages arrive) holds a list, which keeps its own role.
  const list = el('ol', { class: 'chat-list', id: 'chat-list' });
  const log = el('div', { class: 'chat-log', id: 'chat-log', role: 'log', 'aria-labelledby': 'chat-title' }, list);
  const empty = el('p', { class: 'chat-empty', id: 'chat-empty' }, t('chatEmpty'));
  const section = el(
    'section',
    { class: 'chat', id: 'chat-panel', 'aria-labelledby': 'chat-title' },
    el('h2', { id: 'chat-title' }, t('chat')),
    el('p', { class: 'note', id: 'chat-note' }, t('chatNotStored')),
    log,
    empty,
    el('p', { class: 'note chat-off', id: 'chat-off', role: 'status' }),
    form,
  );
  for (const m of c.ui.messages) list.append(messageItem(c, m));
  empty.hidden = c.ui.messages.length > 0;
  queueMicrotask(() => showChatState(c));
  return section;
}

/** The host turned the chat off (or on): the box and Send follow, and a note says why. */
export function showChatState(c) {
  const off = Boolean(c.state.chatOff);
  const input = document.getElementById('chat-input');
  const send = document.getElementById('chat-send');
  const note = document.getElementById('chat-off');
  if (input) input.disabled = off;
  if (send) send.disabled = off;
  if (note) {
    note.hidden = !off;
    note.textContent = off ? c.t('chatIsOff') : '';
  }
  const toggle = document.getElementById('chat-toggle');
  if (toggle) toggle.querySelector('.btn-label').textContent = c.t(off ? 'chatTurnOn' : 'chatTurnOff');
}

/** The host turned the chat off or on (`chat_state`): shown and said. */
export function onChatState(c, off) {
  c.state.chatOff = off;
  showChatState(c);
  announce(c, c.t(off ? 'chatTurnedOff' : 'chatTurnedOn'));
}

function messageItem(c, m) {
  const mine = m.from === c.state.selfId;
  const time = new Date(m.at);
  return el(
    'li',
    { class: mine ? 'mine' : '' },
    el('div', { class: 'meta' }, el('span', { class: 'person' }, mine ? `${m.name} (${c.t('you')})` : m.name), ' ', el('time', { datetime: time.toISOString() }, time.toLocaleTimeString(c.lang, { hour: 'numeric', minute: '2-digit' }))),
    el('p', { class: 'text' }, ...linkified(m.text)),
  );
}

/** Sends `text` (trimmed); false when there is nothing to send or it is too long (the box says why). */
export function sendChat(c, text) {
  const value = String(text ?? '').trim();
  const error = document.getElementById('chat-error');
  if (!value) return false;
  if (c.state.chatOff) {
    if (error) error.textContent = c.t('chatIsOff');
    return false;
  }
  if (value.length > MAX_CHAT_CHARS) {
    if (error) error.textContent = c.tf('chatTooLong', { n: MAX_CHAT_CHARS });
    return false;
  }
  // Only to a joined socket: while the page rejoins the message stays in the box (a knocking socket would be closed for it).
  if (c.state.phase !== 'call' || !c.state.signalling) {
    if (error) error.textContent = c.t('chatOffline');
    return false;
  }
  if (error) error.textContent = '';
  c.state.signalling.send({ type: 'chat', text: value });
  return true;
}

/** A message relayed by the server: shown, counted as unread while the panel is closed, announced. */
export function onChat(c, m) {
  if (typeof m.text !== 'string' || typeof m.name !== 'string') return;
  c.ui.messages.push(m);
  if (c.ui.messages.length > KEEP) c.ui.messages.shift();
  const log = document.getElementById('chat-log');
  const list = document.getElementById('chat-list');
  if (log && list) {
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    list.append(messageItem(c, m));
    while (list.childElementCount > KEEP) list.firstElementChild.remove();
    if (atBottom || m.from === c.state.selfId) log.scrollTop = log.scrollHeight;
    document.getElementById('chat-empty')?.setAttribute('hidden', '');
  }
  if (m.from === c.state.selfId) return;
  if (c.ui.panel !== 'chat') {
    c.ui.unread += 1;
    showUnread(c, c.ui.unread);
    // The open panel's log is read out by itself; a closed one is announced here.
    announce(c, c.tf('messageFrom', { name: m.name, text: m.text }));
  }
}

/** The server refused a message: the chat is off (`chat_off`), too many at once (`slow_down`), or too long. */
export function onChatRefused(c, code) {
  const error = document.getElementById('chat-error');
  if (error) error.textContent = code === 'chat_off' ? c.t('chatIsOff') : code === 'slow_down' ? c.t('chatSlowDown') : c.tf('chatTooLong', { n: MAX_CHAT_CHARS });
}

/** The panel opened: everything is read. */
export function markRead(c) {
  c.ui.unread = 0;
  showUnread(c, 0);
  const log = document.getElementById('chat-log');
  if (log) log.scrollTop = log.scrollHeight;
}

// @module public/js/call/host — the meeting admin (the host) in the call:
// the host badge everyone sees, the host's own controls (lock or unlock, end
// for everyone after a confirmation, remove and ask to mute per participant,
// the knock list with let in and turn away), and the mute request a
// participant is shown. The server decides who the host is and checks every
// action; these are only the buttons.
import { el } from '../lib/dom.js';

const send = (c, message) => c.state.signalling?.send(message);

/** Locks the meeting (arrivals knock) or unlocks it. */
export function toggleLock(c) {
  send(c, { type: c.state.locked ? 'unlock' : 'lock' });
}

/** The lock button, the locked badge and notice, after a change of `state.locked`. */
export function refreshLock(c) {
  const { state, t } = c;
  const lock = document.getElementById('lock');
  if (lock) {
    lock.querySelector('.btn-label').textContent = state.locked ? t('unlock') : t('lock');
    lock.setAttribute('aria-pressed', String(state.locked));
  }
  const badge = document.getElementById('locked-badge');
  if (badge) badge.hidden = !state.locked;
  const notice = document.getElementById('host-notice');
  if (notice && state.host && state.locked && !notice.textContent) notice.textContent = t('lockedNotice');
}

/** Ends the meeting for everyone, after a confirmation. */
export async function endForAll(c) {
  const { t } = c;
  if (await confirmAction(c, t('endConfirmTitle'), t('endConfirmText'), t('endForAll'))) {
    // Its end screen then speaks to the one who ended it, not of "the host".
    c.endedBySelf = true;
    send(c, { type: 'end' });
  }
}

/** What the host can do to participant `p` in the list; nothing for others, themselves or another host. */
export function participantActions(c, p) {
  const { state, t, tf } = c;
  if (!state.host || p.id === state.selfId || p.host) return null;
  const remove = async () => {
    if (await confirmAction(c, tf('removeConfirmTitle', { name: p.name }), t('removeConfirmText'), t('remove'))) send(c, { type: 'remove', participantId: p.id });
  };
  const askMute = () => {
    send(c, { type: 'ask_mute', participantId: p.id });
    announce(tf('askedMute', { name: p.name }));
  };
  return el(
    'span',
    { class: 'host-actions' },
    // The server checks each of these for the host; a raised hand a host has answered goes down for everyone.
    p.hand ? el('button', { type: 'button', class: 'small', 'data-action': 'lower-hand', 'aria-label': tf('lowerHandLabel', { name: p.name }), onclick: () => send(c, { type: 'lower_hand', participantId: p.id }) }, t('lowerHandOf')) : null,
    p.audio ? el('button', { type: 'button', class: 'small', 'data-action': 'ask-mute', 'aria-label': tf('askMuteLabel', { name: p.name }), onclick: askMute }, t('askMute')) : null,
    el('button', { type: 'button', class: 'small danger', 'data-action': 'remove', 'aria-label': tf('removeLabel', { name: p.name }), onclick: remove }, t('remove')),
  );
}

/** The host's knock list (hidden when nobody knocks), from `state.knocks`; a new arrival is announced. */
export function renderKnocks(c, previous = []) {
  const { state, t, tf } = c;
  const section = document.getElementById('knocks');
  if (!section) return;
  // A keyboard user who just let someone in keeps their place: the next knock, or the lock button.
  const hadFocus = section.contains(document.activeElement);
  section.hidden = !state.host || state.knocks.length === 0;
  const list = state.knocks.map((k) =>
    el(
      'li',
      { 'data-id': k.id },
      el('span', { class: 'knock-name' }, k.name, k.wasRemoved ? el('small', {}, ` · ${t('removedEarlier')}`) : null),
      el(
        'span',
        { class: 'knock-actions' },
        el('button', { type: 'button', class: 'small primary', 'data-action': 'let-in', 'aria-label': tf('letInLabel', { name: k.name }), onclick: () => send(c, { type: 'admit', knockId: k.id }) }, t('letIn')),
        el('button', { type: 'button', class: 'small', 'data-action': 'turn-away', 'aria-label': tf('turnAwayLabel', { name: k.name }), onclick: () => send(c, { type: 'turn_away', knockId: k.id }) }, t('turnAway')),
      ),
    ),
  );
  section.replaceChildren(el('h2', { id: 'knocks-title' }, t('knocksTitle')), el('ul', {}, ...list));
  if (hadFocus) (section.querySelector('[data-action="let-in"]') ?? document.getElementById('lock'))?.focus();
  const known = new Set(previous.map((k) => k.id));
  const arrived = state.knocks.filter((k) => !known.has(k.id));
  if (state.host && arrived.length) announce(arrived.map((k) => tf('knockArrived', { name: k.name })).join(' '));
  else if (state.knocks.length === 0 && previous.length > 0) announce('');
}

/** A short message for the host in a live region (screen readers read it). */
export function announce(text) {
  const notice = document.getElementById('host-notice');
  if (notice) notice.textContent = text;
}

/** The host asked this participant to mute: they decide (nobody can switch another's microphone). */
export function showMuteRequest(c, mute) {
  const { state, t } = c;
  document.getElementById('mute-request')?.remove();
  const box = el(
    'div',
    { class: 'mute-request', id: 'mute-request', role: 'alertdialog', 'aria-labelledby': 'mute-request-text' },
    el('p', { id: 'mute-request-text' }, t('muteRequest')),
  );
  const close = () => box.remove();
  const now = el('button', { type: 'button', class: 'primary', id: 'mute-now', onclick: () => (close(), state.audioOn && mute()) }, t('muteNow'));
  box.append(el('div', { class: 'row' }, now, el('button', { type: 'button', id: 'mute-dismiss', onclick: close }, t('dismiss'))));
  document.querySelector('.call')?.prepend(box);
  now.focus();
}

/** A modal question with Cancel (the default) and a confirming button; resolves true when confirmed. */
export function confirmAction(c, title, text, confirmLabel) {
  const { t } = c;
  return new Promise((resolve) => {
    const dialog = el(
      'dialog',
      { class: 'confirm', id: 'confirm', 'aria-labelledby': 'confirm-title' },
      el('h2', { id: 'confirm-title' }, title),
      el('p', {}, text),
    );
    const cancel = el('button', { type: 'button', id: 'confirm-cancel', onclick: () => dialog.close('cancel') }, t('cancel'));
    const ok = el('button', { type: 'button', class: 'danger', id: 'confirm-ok', onclick: () => dialog.close('ok') }, confirmLabel);
    dialog.append(el('div', { class: 'row' }, cancel, ok));
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'ok');
    });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}

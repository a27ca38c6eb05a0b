// @module public/js/call/controls — the control bar: microphone, camera,
// screen, hand, reactions, chat (with its unread count), participants,
// settings, the host's lock and end (in "More"), and Leave. Every button
// calls one of the call's actions (c.actions), which a keyboard shortcut or
// an embedding page can call as well; `refreshControls` shows what is real.
import { el } from '../lib/dom.js';
import { canShareScreen } from '../lib/media.js';
import { icon } from './icons.js';
import { REACTIONS } from './reactions.js';
import { shortcutLabel } from './shortcuts.js';
import { announced, cameraTrack } from './tracks.js';

/** A bar button: an icon and a label (visually hidden on phones; always the accessible name). */
function barButton(id, iconName, label, onclick, extra = {}) {
  return el('button', { type: 'button', id, class: 'control', onclick, ...extra }, icon(iconName), el('span', { class: 'btn-label' }, label));
}

function setLabel(button, text) {
  const label = button?.querySelector('.btn-label');
  if (label && label.textContent !== text) label.textContent = text;
}

/** A small popover opened by `button`: closes on Escape, on a click outside and after a choice. */
function popover(c, button, panel) {
  const set = (open) => {
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) panel.querySelector('button:not([hidden])')?.focus();
  };
  button.addEventListener('click', (event) => {
    event.stopPropagation();
    set(panel.hidden);
  });
  panel.addEventListener('click', (event) => {
    if (event.target.closest('button')) set(false);
  });
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      set(false);
      button.focus();
    }
  });
  document.addEventListener('click', (event) => {
    if (!panel.hidden && !panel.contains(event.target)) set(false);
  });
  set(false);
}

/** The bar, for the call `c` (its actions in c.actions). */
export function buildControls(c) {
  const { t, state, embed } = c;
  const a = c.actions;
  // Only what this server relays is offered (welcome's `features`).
  // A raised hand asks for a turn among several; in a 1:1 waiting-list call there is nobody to wait for.
  const has = (feature) => Boolean(c.features?.has(feature)) && !(feature === 'hand' && c.options.waitingCall);
  const shortcut = (key) => (navigator.platform?.startsWith('Mac') ? `Meta+${key}` : `Control+${key}`);
  const mic = barButton('mic', 'mic', '', a.toggleMic, { 'aria-keyshortcuts': shortcut('D') });
  const cam = barButton('cam', 'cam', '', a.toggleCamera, { 'aria-keyshortcuts': shortcut('E') });
  const share = canShareScreen() ? barButton('share', 'screen', '', a.toggleShare, { class: 'control wide-only' }) : null;
  const hand = has('hand') ? barButton('hand', 'hand', t('raiseHand'), a.toggleHand, { class: 'control wide-only' }) : null;

  const reactButton = !has('reaction') && !has('hand') ? null : barButton('react', 'smile', t('reactions'), () => {}, { 'aria-haspopup': 'true', 'aria-controls': 'reaction-menu' });
  const names = t('reactionNames').split('|');
  const reactionMenu = reactButton
    ? el(
        'div',
        { class: 'popover reactions', id: 'reaction-menu', role: 'group', 'aria-label': t('reactions') },
        has('hand') ? el('button', { type: 'button', class: 'narrow-only menu-item', id: 'menu-hand', onclick: a.toggleHand }, icon('hand'), el('span', { class: 'btn-label' }, t('raiseHand'))) : null,
        ...(has('reaction') ? REACTIONS.map((emoji, i) => el('button', { type: 'button', class: 'emoji', 'data-reaction': emoji, 'aria-label': names[i] ?? emoji, onclick: () => a.react(emoji) }, emoji)) : []),
      )
    : null;
  if (reactButton) popover(c, reactButton, reactionMenu);

  const chat = has('chat') ? barButton('chat', 'chat', t('chat'), () => a.togglePanel('chat'), { 'aria-controls': 'panel', 'aria-expanded': 'false' }) : null;
  // The count is a description, not part of the name: the button is always called "Chat".
  chat?.append(el('span', { class: 'count-badge', id: 'chat-unread', 'aria-hidden': 'true', hidden: true }));
  const unreadText = chat ? el('span', { class: 'visually-hidden', id: 'chat-unread-text' }) : null;
  const people = embed ? null : barButton('people-toggle', 'people', t('participants'), () => a.togglePanel('people'), { 'aria-controls': 'panel', 'aria-expanded': 'false' });
  const settings = barButton('settings', 'settings', t('settings'), a.openSettings, { class: 'control wide-only', 'aria-haspopup': 'dialog' });

  const more = barButton('more', 'more', t('more'), () => {}, { 'aria-haspopup': 'true', 'aria-controls': 'more-menu' });
  const hostItems = state.host && !c.options.waitingCall;
  const moreMenu = el(
    'div',
    { class: 'popover menu', id: 'more-menu', role: 'group', 'aria-label': t('more') },
    share ? el('button', { type: 'button', class: 'menu-item narrow-only', id: 'menu-share', onclick: a.toggleShare }, icon('screen'), el('span', { class: 'btn-label' }, t('share'))) : null,
    el('button', { type: 'button', class: 'menu-item narrow-only', id: 'menu-settings', onclick: a.openSettings }, icon('settings'), el('span', { class: 'btn-label' }, t('settings'))),
    el('button', { type: 'button', class: 'menu-item', id: 'view-toggle', onclick: a.toggleView }, icon('grid'), el('span', { class: 'btn-label' })),
    hostItems ? el('button', { type: 'button', class: 'menu-item', id: 'lock', onclick: a.toggleLock }, icon('lock'), el('span', { class: 'btn-label' })) : null,
    hostItems && chat ? el('button', { type: 'button', class: 'menu-item', id: 'chat-toggle', onclick: a.toggleChat }, icon('chat'), el('span', { class: 'btn-label' }, t(state.chatOff ? 'chatTurnOn' : 'chatTurnOff'))) : null,
    hostItems ? el('button', { type: 'button', class: 'menu-item danger', id: 'end-all', onclick: a.endForAll }, icon('end'), el('span', { class: 'btn-label' }, t('endForAll'))) : null,
  );
  popover(c, more, moreMenu);

  const leave = barButton('leave', 'leave', t('leave'), a.leave, { class: 'control leave' });
  return el(
    'nav',
    { class: 'controls', 'aria-label': t('callControls') },
    el('div', { class: 'group' }, mic, cam, share, hand, reactButton ? el('span', { class: 'anchor' }, reactButton, reactionMenu) : null),
    el('div', { class: 'group' }, chat, unreadText, people, settings, el('span', { class: 'anchor' }, more, moreMenu), leave),
  );
}

/** Labels and pressed states from what is real: the tracks this page holds and sends, not what was asked for. */
export function refreshControls(c) {
  const { state, t } = c;
  const now = announced(state);
  const set = (id, text, pressed) => {
    const b = document.getElementById(id);
    if (!b) return;
    if (b.querySelector('.btn-label')) setLabel(b, text);
    else b.textContent = text;
    b.setAttribute('aria-pressed', String(pressed));
  };
  set('mic', now.audio ? t('mute') : t('unmute'), !now.audio);
  set('cam', now.video ? t('cameraOff') : t('cameraOn'), !now.video);
  // The shortcut shows on hover too, as in the calls people know ("Mute (Ctrl+D)").
  for (const [id, key] of [['mic', 'd'], ['cam', 'e']]) {
    const b = document.getElementById(id);
    const label = b?.querySelector('.btn-label')?.textContent;
    if (b && label) b.title = `${label} (${shortcutLabel(key)})`;
  }
  set('share', state.screenTrack ? t('stopShare') : t('share'), Boolean(state.screenTrack));
  setLabel(document.getElementById('menu-share'), state.screenTrack ? t('stopShare') : t('share'));
  for (const id of ['mic', 'cam']) {
    const b = document.getElementById(id);
    const swap = b?.querySelector('.icon');
    const want = id === 'mic' ? (now.audio ? 'mic' : 'micOff') : now.video ? 'cam' : 'camOff';
    if (swap && !swap.classList.contains(`icon-${want}`)) swap.replaceWith(icon(want));
  }
  const hand = document.getElementById('hand');
  if (hand) {
    set('hand', c.ui.hand ? t('lowerHand') : t('raiseHand'), c.ui.hand);
    setLabel(document.getElementById('menu-hand'), c.ui.hand ? t('lowerHand') : t('raiseHand'));
  }
  setLabel(document.getElementById('view-toggle'), c.ui.view === 'speaker' ? t('gridView') : t('speakerView'));
  const self = c.tiles.get('self');
  if (self) {
    const showing = state.screenStream ?? state.stream;
    if (self.video.srcObject !== showing) self.video.srcObject = showing;
    self.node.classList.toggle('off', !state.screenTrack && !cameraTrack(state));
    // The camera is mirrored like a mirror; a shared screen must read the right way round.
    self.node.classList.toggle('sharing', Boolean(state.screenTrack));
  }
}

/** The unread count on the Chat button (its name stays "Chat"; the count is described). */
export function showUnread(c, n) {
  const badge = document.getElementById('chat-unread');
  const text = document.getElementById('chat-unread-text');
  if (!badge || !text) return;
  badge.hidden = n === 0;
  badge.textContent = n > 99 ? '99+' : String(n);
  text.textContent = n ? c.tf('unread', { n }) : '';
  const chat = document.getElementById('chat');
  if (n) chat?.setAttribute('aria-describedby', 'chat-unread-text');
  else chat?.removeAttribute('aria-describedby');
}

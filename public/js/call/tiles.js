// @module public/js/call/tiles — one tile per person in the call: their
// video (labelled with their name), their initials on a colour when the
// camera is off, a microphone icon when muted, a raised hand, the quality
// of the connection to them, how that connection is doing (connecting,
// reconnecting, can't reach them, with "Try again") and a pin button.
// Where a tile sits is layout.js's business; where its stream comes from
// (a mesh or an SFU) is not its business at all. A screen that arrives as
// a stream of its own (through the SFU: media-path.js) gets a tile of its
// own too, beside its sharer's camera, in the same state as its sharer's
// connection.
import { el } from '../lib/dom.js';
import { watchFirstFrame } from '../lib/first-frame.js';
import { colourOf, initials } from './avatar.js';
import { bars, icon } from './icons.js';

/** Levels of `quality.js` and their texts. */
const QUALITY_TEXT = ['qualityUnknown', 'qualityPoor', 'qualityFair', 'qualityGood'];

/** The tile of the screen that participant `id` shares as a stream of its own. */
export function screenTileId(id) {
  return `screen:${id}`;
}

/** The screen `id` shares arrived as a stream of its own, or went (`stream` null): its tile follows with the next refresh. */
export function showScreen(c, id, stream) {
  if (stream) c.screens.set(id, stream);
  else c.screens.delete(id);
  c.refresh();
}

/** The tile of `id` (the page's own: `self`; a screen's: `screenOf` its sharer), created on first use. */
export function ensureTile(c, id, { self = false, screenOf = null } = {}) {
  let tile = c.tiles.get(id);
  if (tile) return tile;
  const { t, tf } = c;
  const video = el('video', { autoplay: true, playsinline: true });
  if (self || screenOf) video.muted = true;
  const avatar = el('div', { class: 'avatar', 'aria-hidden': 'true' }, el('span', { class: 'initials' }));
  const name = el('span', { class: 'name' });
  const micOff = el('span', { class: 'mic-off', hidden: true }, icon('micOff'), el('span', { class: 'visually-hidden' }, t('micOff')));
  const hand = el('span', { class: 'hand-flag', hidden: true }, icon('hand'), el('span', { class: 'visually-hidden' }, t('handRaised')));
  const badges = el('span', { class: 'badges' });
  const caption = el('figcaption', {}, hand, name, micOff, badges);
  const quality = el('span', { class: 'quality', role: 'img', hidden: self || Boolean(screenOf) });
  const stateText = el('p', { class: 'state-text', id: `state-${id}` });
  // Named "Try again" like every such button; the state it is about ("Can't reach Ann — …") tells several apart.
  const retry = el('button', { type: 'button', class: 'small retry', hidden: true, 'aria-describedby': `state-${id}` }, t('retry'));
  const hint = el('p', { class: 'tip', hidden: true });
  const peerState = el('div', { class: 'peer-state', hidden: true }, stateText, retry, hint);
  const pin = el('button', { type: 'button', class: 'pin' }, icon('pin'));
  const reaction = el('div', { class: 'reaction', 'aria-hidden': 'true' });
  const node = el('figure', { class: `tile${self ? ' self' : ''}${screenOf ? ' screen-share' : ''}`, 'data-id': id, ...(self ? { id: 'tile-self' } : {}) }, video, avatar, peerState, reaction, caption, quality, pin);
  tile = { id, self, owner: screenOf, node, video, avatar, caption, name, micOff, hand, badges, quality, peerState, stateText, retry, hint, pin, reaction, level: -1, person: null };
  pin.addEventListener('click', () => c.actions.pin(c.ui.pinned === id ? null : id));
  retry.addEventListener('click', () => c.actions.retry(screenOf ?? id));
  c.tiles.set(id, tile);
  document.getElementById('tiles')?.append(node);
  if (!self && !screenOf) {
    watchFirstFrame(video, () => c.media.framesDecodedFrom?.(id) ?? Promise.resolve(1), (at) => {
      c.state.firstRemoteFrameAt ??= at;
    });
  }
  setQuality(c, tile, 0);
  return tile;
}

/** Brings a tile up to date with what is known of its person `p` ({id, name, audio, video, screen, host, hand}). */
export function updateTile(c, tile, p, { you = false } = {}) {
  const { t, tf } = c;
  const shown = tile.owner ? tf('screenOf', { name: p.name }) : p.name;
  const label = you ? `${p.name} (${t('you')})` : shown;
  if (tile.name.textContent !== label) {
    tile.name.textContent = label;
    tile.name.title = shown;
    tile.avatar.firstChild.textContent = initials(p.name);
    tile.avatar.style.setProperty('--avatar', colourOf(p.name));
    tile.video.setAttribute('aria-label', you ? t('yourVideo') : tile.owner ? shown : tf('videoOf', { name: p.name }));
  }
  tile.person = p;
  const cameraOff = !p.video && !p.screen;
  tile.node.classList.toggle('off', cameraOff);
  tile.node.classList.toggle('sharing', Boolean(p.screen));
  tile.node.classList.toggle('muted', !p.audio);
  tile.node.classList.toggle('hand', Boolean(p.hand));
  tile.micOff.hidden = Boolean(p.audio);
  tile.hand.hidden = !p.hand;
  const pinned = c.ui.pinned === tile.id;
  tile.pin.setAttribute('aria-label', tf(pinned ? 'unpin' : 'pin', { name: shown }));
  tile.pin.setAttribute('aria-pressed', String(pinned));
  tile.badges.replaceChildren(...(p.host ? [el('span', { class: 'badge host-badge' }, t('host'))] : []));
  renderPeerState(c, tile);
}

/** Shows the connection state of the tile's person (see call/index.js, `onPeerState`). */
export function renderPeerState(c, tile) {
  if (tile.self) return;
  const { t } = c;
  const s = c.peerStates.get(tile.owner ?? tile.id) ?? { state: 'connecting', attempt: 0 };
  const name = tile.person?.name ?? '';
  tile.node.dataset.peerState = s.state;
  tile.peerState.hidden = s.state === 'connected';
  tile.stateText.textContent = peerStateText(c, s, name);
  tile.retry.hidden = s.state !== 'failed';
  // The media source gives a hint once failure has repeated (lib/peer-health.js).
  const hint = s.state === 'failed' && s.hint ? (s.hint === 'turn' ? t('hintTurn') : t('hintNetwork')) : '';
  tile.hint.hidden = !hint;
  tile.hint.textContent = hint;
  if (s.hint && hint) tile.hint.dataset.hint = s.hint;
}

/** "Connecting…", "Reconnecting…", "Can't reach Ann — trying again", or nothing once connected. */
export function peerStateText(c, s, name) {
  if (s.state === 'connecting') return c.t('connecting');
  if (s.state === 'reconnecting') return c.t('reconnectingPeer');
  if (s.state === 'failed') return c.tf('cantReach', { name });
  return '';
}

/** The quality indicator of a tile: 0 measuring, 1 poor, 2 fair, 3 good. */
export function setQuality(c, tile, level) {
  if (tile.level === level) return;
  tile.level = level;
  tile.quality.replaceChildren(bars(level));
  tile.quality.setAttribute('aria-label', c.t(QUALITY_TEXT[level]));
  tile.quality.title = c.t(QUALITY_TEXT[level]);
  tile.node.dataset.quality = String(level);
}

export function removeTile(c, id) {
  const tile = c.tiles.get(id);
  if (!tile) return;
  tile.video.srcObject = null;
  tile.node.remove();
  c.tiles.delete(id);
}

/** Plays `stream` in the tile of `id`; a refused autoplay (sound without a gesture) plays muted and offers sound. */
export function attachStream(c, id, stream) {
  const tile = c.tiles.get(id) ?? ensureTile(c, id);
  // Once per stream: a media source reports it for each of its tracks.
  if (tile.video.srcObject === stream) return;
  tile.video.srcObject = stream;
  if (c.ui.speakerId && typeof tile.video.setSinkId === 'function') tile.video.setSinkId(c.ui.speakerId).catch(() => {});
  tile.video.play().catch((error) => {
    // Only a refused autoplay (sound without a gesture, as with skipPrejoin)
    // calls for muted playback; an AbortError (the source replaced meanwhile)
    // says nothing about sound and must not silence the participant.
    if (error?.name !== 'NotAllowedError') return;
    tile.video.muted = true;
    tile.video.play().catch(() => {});
    offerSound(c);
  });
}

function offerSound(c) {
  if (document.getElementById('enable-sound')) return;
  const button = el('button', { type: 'button', id: 'enable-sound', class: 'primary' }, c.t('enableSound'));
  button.addEventListener('click', () => {
    for (const tile of c.tiles.values()) {
      if (tile.self) continue;
      tile.video.muted = false;
      tile.video.play().catch(() => {});
    }
    button.remove();
  });
  document.querySelector('.call')?.prepend(button);
}

/** Floats a reaction over the tile of `id` for a few seconds. */
export function showReaction(c, id, emoji) {
  const tile = c.tiles.get(id);
  if (!tile) return;
  const bubble = el('span', {}, emoji);
  tile.reaction.append(bubble);
  setTimeout(() => bubble.remove(), 4000);
}

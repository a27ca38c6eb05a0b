// @module public/js/call/screen — the call screen: header, one tile per
// participant (own first), the participant list, the controls; remote
// streams from the mesh fill the tiles.
import { el } from '../lib/dom.js';
import { canShareScreen } from '../lib/media.js';
import { hostBadge, hostButtons, participantActions, refreshLock, renderKnocks } from './host.js';
import { cameraTrack } from './tracks.js';

function controlButton(id, label, onclick) {
  return el('button', { type: 'button', id, class: 'control', onclick }, label);
}

/** Replaces the page with the call; `actions` are what its buttons do. */
export function renderCall(c, { toggleMic, toggleCamera, toggleShare, leave }) {
  const { state, t, embed, settings } = c;
  state.phase = 'call';
  const selfVideo = el('video', { autoplay: true, playsinline: true, muted: true });
  selfVideo.muted = true;
  selfVideo.srcObject = state.stream;
  const selfTile = el('figure', { class: 'tile self', id: 'tile-self' }, selfVideo, el('figcaption', {}, `${state.name} (${t('you')})`, state.host ? hostBadge(c) : null));
  const grid = el('section', { class: 'tiles', id: 'tiles' }, selfTile);
  // On phones the list starts folded away; the videos need the room.
  const people = el('aside', { class: 'people', id: 'people', hidden: embed || matchMedia('(max-width: 640px)').matches }, el('h2', {}, t('participants')), el('ul', { id: 'people-list' }));
  const controls = el(
    'nav',
    { class: 'controls' },
    controlButton('mic', '', toggleMic),
    controlButton('cam', '', toggleCamera),
    canShareScreen() ? controlButton('share', '', toggleShare) : null,
    embed ? null : controlButton('people-toggle', t('participants'), () => (people.hidden = !people.hidden)),
    ...hostButtons(c),
    controlButton('leave', t('leave'), leave),
  );
  const header = embed
    ? null
    : el(
        'header',
        { class: 'bar' },
        el('span', { class: 'title' }, settings.title || t('meeting'), el('span', { class: 'badge locked-badge', id: 'locked-badge', hidden: true }, t('lockedBadge'))),
        el('span', { id: 'count', class: 'count' }),
      );
  // The host's knock list sits above the videos, so it is seen on a phone too (where the list is folded away).
  const knocks = el('section', { class: 'knocks', id: 'knocks', 'aria-labelledby': 'knocks-title', hidden: true });
  const hostNotice = el('p', { class: 'notice', id: 'host-notice', role: 'status' });
  const notice = el('p', { class: 'notice', id: 'notice', role: 'status' });
  c.root.replaceChildren(el('div', { class: 'call' }, header, knocks, el('div', { class: 'stage' }, grid, people), hostNotice, notice, controls));
  c.tiles.clear();
  refreshControls(c);
  refreshLock(c);
  renderKnocks(c);
  renderParticipants(c);
}

/** The buttons and the self view, after any change to what this page sends. */
export function refreshControls(c) {
  const { state, t } = c;
  const set = (id, text, pressed) => {
    const b = document.getElementById(id);
    if (!b) return;
    b.textContent = text;
    b.setAttribute('aria-pressed', String(pressed));
  };
  set('mic', state.audioOn ? t('mute') : t('unmute'), !state.audioOn);
  set('cam', state.videoOn ? t('cameraOff') : t('cameraOn'), !state.videoOn);
  set('share', state.screenTrack ? t('stopShare') : t('share'), Boolean(state.screenTrack));
  const self = document.querySelector('#tile-self video');
  if (self) {
    const showing = state.screenStream ?? state.stream;
    if (self.srcObject !== showing) self.srcObject = showing;
    const tile = document.getElementById('tile-self');
    tile.classList.toggle('off', !state.screenTrack && !cameraTrack(state));
    // The camera is mirrored like a mirror; a shared screen must read the right way round.
    tile.classList.toggle('sharing', Boolean(state.screenTrack));
  }
}

function flags(c, p) {
  const { t } = c;
  const out = [];
  if (!p.audio) out.push(t('muted'));
  if (!p.video && !p.screen) out.push(t('camOff'));
  if (p.screen) out.push(t('sharing'));
  return out.length ? ` · ${out.join(', ')}` : '';
}

/** The list, the count and the remote tiles' captions, from `state.participants`. */
export function renderParticipants(c) {
  const { state, t } = c;
  const list = document.getElementById('people-list');
  if (list) {
    list.replaceChildren(
      ...state.participants.map((p) =>
        el(
          'li',
          { 'data-id': p.id },
          el('span', { class: 'who' }, p.id === state.selfId ? `${p.name} (${t('you')})` : p.name, p.host ? hostBadge(c) : null, el('small', {}, flags(c, p))),
          participantActions(c, p),
        ),
      ),
    );
  }
  const count = document.getElementById('count');
  if (count) count.textContent = `${state.participants.length} · ${t('participants')}`;
  for (const p of state.participants) {
    const tile = c.tiles.get(p.id);
    if (!tile) continue;
    tile.caption.replaceChildren(p.name + flags(c, p), p.host ? hostBadge(c) : '');
    tile.node.classList.toggle('off', !p.video && !p.screen);
    tile.node.classList.toggle('sharing', Boolean(p.screen));
  }
  const notice = document.getElementById('notice');
  if (notice && !notice.dataset.sticky) notice.textContent = state.participants.length <= 1 ? t('alone') : '';
}

function ensureTile(c, id) {
  let tile = c.tiles.get(id);
  if (tile) return tile;
  const video = el('video', { autoplay: true, playsinline: true });
  const caption = el('figcaption', {});
  const node = el('figure', { class: 'tile', 'data-id': id }, video, caption);
  document.getElementById('tiles')?.append(node);
  tile = { node, video, caption };
  c.tiles.set(id, tile);
  if ('requestVideoFrameCallback' in video) {
    video.requestVideoFrameCallback(() => {
      c.state.firstRemoteFrameAt ??= performance.now();
    });
  }
  renderParticipants(c);
  return tile;
}

export function showRemote(c, id, stream) {
  const tile = ensureTile(c, id);
  // Once per stream: the mesh reports it for each of its tracks.
  if (tile.video.srcObject === stream) return;
  tile.video.srcObject = stream;
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
      tile.video.muted = false;
      tile.video.play().catch(() => {});
    }
    button.remove();
  });
  document.querySelector('.call')?.prepend(button);
}

export function removeTile(c, id) {
  c.tiles.get(id)?.node.remove();
  c.tiles.delete(id);
}

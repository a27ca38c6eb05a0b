// @module public/js/call/screen — the call screen: a header saying where
// you are (the organization, the title, the clinician), the stage with one
// tile per person, the side panel (participants or chat), notices, the
// control bar and a live region; `refresh` brings it in step with the
// participant list and this page's own media, `relayout` places the tiles.
import { el } from '../lib/dom.js';
import { announcer } from './announce.js';
import { buildControls, refreshControls } from './controls.js';
import { refreshLock, renderKnocks } from './host.js';
import { arrange, gridFor } from './layout.js';
import { buildPanel } from './panel.js';
import { problemHelp, wantedProblems } from './permission-help.js';
import { renderPeople } from './people.js';
import { makeMovable } from './pip.js';
import { activeSpeaker } from './speaking.js';
import { attachStream, ensureTile, removeTile, screenTileId, updateTile } from './tiles.js';
import { announced } from './tracks.js';

/** What the header says: the title, and the organization (and in a consultation, the clinician). */
function heading(c) {
  const { settings, t } = c;
  const context = [settings.organization, settings.hostName && !c.state.host ? settings.hostName : null].filter(Boolean).join(' · ');
  return el(
    'div',
    { class: 'where' },
    el('h1', { class: 'title', id: 'call-title' }, settings.title || t('meeting'), el('span', { class: 'badge locked-badge', id: 'locked-badge', hidden: true }, t('lockedBadge'))),
    context ? el('p', { class: 'context', id: 'call-context' }, context) : null,
  );
}

/** Replaces the page with the call. */
export function renderCall(c) {
  const { state, embed } = c;
  state.phase = 'call';
  c.tiles.clear();
  const header = embed ? null : el('header', { class: 'bar' }, heading(c), el('span', { id: 'count', class: 'people-count' }));
  // The host's knock list sits above the videos, so it is seen on a phone too.
  const knocks = el('section', { class: 'knocks', id: 'knocks', 'aria-labelledby': 'knocks-title', hidden: true });
  const tiles = el('section', { class: 'tiles', id: 'tiles', 'aria-label': c.t('videos') });
  const stage = el('div', { class: 'stage-area', id: 'stage' }, tiles);
  const notices = el(
    'div',
    { class: 'notices' },
    el('p', { class: 'call-notice', id: 'host-notice', role: 'status' }),
    el('p', { class: 'call-notice', id: 'notice', role: 'status' }),
    el('div', { class: 'media-notice', id: 'media-notice' }),
  );
  c.root.replaceChildren(el('div', { class: 'call', id: 'call' }, header, knocks, el('div', { class: 'main' }, stage, buildPanel(c)), notices, buildControls(c), announcer()));
  const self = ensureTile(c, 'self', { self: true });
  self.node.tabIndex = 0;
  makeMovable(c, self);
  c.resize?.disconnect();
  c.tilesBox = null;
  if (typeof ResizeObserver === 'function') {
    // The tiles' box is read here, after the browser's own layout, never forced by relayout: forcing the first
    // layout of a new call screen held the page's join (its offers, the next messages) for a tenth of a second.
    c.resize = new ResizeObserver(([entry]) => {
      const size = entry?.borderBoxSize?.[0];
      c.tilesBox = size ? { width: size.inlineSize, height: size.blockSize } : tiles.getBoundingClientRect();
      relayout(c);
    });
    c.resize.observe(tiles);
  }
  refreshLock(c);
  renderKnocks(c);
  refresh(c);
}

/** Tiles, list, count, notices and controls from `state.participants` and this page's media. */
export function refresh(c) {
  const { state, t } = c;
  if (state.phase !== 'call' || !document.getElementById('tiles')) return refreshControls(c);
  const present = new Set();
  for (const p of state.participants) {
    if (p.id === state.selfId) continue;
    present.add(p.id);
    const screen = sharedApart(c, p);
    // A screen that comes as a stream of its own has its own tile; the camera's stays a camera.
    updateTile(c, ensureTile(c, p.id), screen ? { ...p, screen: false } : p);
    if (!screen) continue;
    const id = screenTileId(p.id);
    present.add(id);
    updateTile(c, ensureTile(c, id, { screenOf: p.id }), { ...p, audio: true, video: true, screen: true, hand: false, host: false });
    attachStream(c, id, screen);
  }
  for (const id of [...c.tiles.keys()]) if (id !== 'self' && !present.has(id)) removeTile(c, id);
  const own = { id: 'self', name: state.name, ...announced(state), host: state.host, hand: c.ui.hand };
  updateTile(c, c.tiles.get('self'), own, { you: true });
  renderPeople(c);
  const count = document.getElementById('count');
  if (count) count.textContent = `${state.participants.length} · ${t('participants')}`;
  const notice = document.getElementById('notice');
  if (notice && !notice.dataset.sticky) notice.textContent = state.participants.length <= 1 ? t('alone') : '';
  showMediaProblems(c);
  refreshControls(c);
  relayout(c);
  return undefined;
}

/** The screen `p` shares as a stream of its own (through the SFU), while they say they share one. */
function sharedApart(c, p) {
  return p.screen ? c.screens.get(p.id) : undefined;
}

/** A device problem in the call (blocked, stopped, in use), with what to do. */
function showMediaProblems(c) {
  const box = document.getElementById('media-notice');
  if (!box) return;
  const problems = wantedProblems(c);
  const key = JSON.stringify(problems) + (c.ui.weakUplink ? 'weak' : '');
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const help = problemHelp(c, problems, { onRetry: () => c.actions.retryDevices(), onChoose: () => c.actions.openSettings() });
  box.replaceChildren(...(help ? [help] : []), ...(c.ui.weakUplink ? [el('p', { class: 'weak-uplink', id: 'weak-uplink', role: 'status' }, c.t('weakUplink'))] : []));
}

/** Places the tiles (layout.js) and asks the media source only for the video that is shown. */
export function relayout(c) {
  const container = document.getElementById('tiles');
  if (!container) return;
  const { state } = c;
  const narrow = matchMedia('(max-width: 640px)').matches;
  // With an SFU, its limit (welcome's videoSlots): it sends no more videos than that.
  const slots = c.videoSlots ?? 9;
  const people = state.participants.filter((p) => p.id !== state.selfId);
  // A screen with a tile of its own is what the layout presents; its sharer's camera is one more tile.
  const remotes = people.flatMap((p) => (sharedApart(c, p) ? [{ id: screenTileId(p.id), screen: true }, { id: p.id, screen: false }] : [{ id: p.id, screen: Boolean(p.screen) }]));
  const plan = arrange({ remotes, pinned: c.ui.pinned, speaker: activeSpeaker(c), mode: c.ui.view, maxVideos: narrow ? Math.min(4, slots) : slots });
  container.dataset.layout = plan.layout;
  plan.order.forEach((id, i) => {
    const tile = c.tiles.get(id);
    if (!tile) return;
    tile.node.style.order = String(i);
    tile.node.classList.toggle('on-stage', plan.stage === id || (plan.layout === 'solo' && id === 'self'));
    tile.node.classList.toggle('pip', plan.layout === 'pair' && id === 'self');
    tile.node.classList.toggle('in-strip', plan.layout === 'stage' && plan.stage !== id);
    // A screen's tile is sent whole wherever it sits (the SFU counts no slot for it).
    const wanted = id === 'self' || tile.owner ? 'high' : (plan.wanted[id] ?? 'low');
    tile.node.classList.toggle('no-video', wanted === 'off');
    if (id !== 'self' && !tile.owner && tile.wanted !== wanted) {
      tile.wanted = wanted;
      c.media.setWanted?.(id, wanted);
    }
  });
  // No box yet: the observer's first report, before the first paint, places the grid.
  const box = plan.layout !== 'grid' ? null : c.resize ? c.tilesBox : container.getBoundingClientRect();
  if (box) {
    const { cols, tileW, tileH } = gridFor(plan.order.length, box.width - 16, box.height - 16, narrow ? 4 / 3 : 16 / 9);
    container.style.setProperty('--cols', String(cols));
    container.style.setProperty('--tile-w', `${Math.max(120, tileW)}px`);
    container.style.setProperty('--tile-h', `${Math.max(90, tileH)}px`);
  }
  const view = document.getElementById('view-toggle');
  if (view) view.hidden = people.length < 2;
  // "More" only when it holds something on this screen (a 1:1 waiting-list call on a desktop may have nothing in it).
  const menu = document.getElementById('more-menu');
  const more = document.getElementById('more');
  if (menu && more) more.hidden = ![...menu.children].some((item) => !item.hidden && shownAt(item, narrow));
}

/**
 * Whether call.css shows `item` at this width: its narrow-only and wide-only classes, at the same 640 px. Read from
 * the classes rather than the computed style, which would force the style of a call screen just built.
 */
function shownAt(item, narrow) {
  return !(item.classList.contains(narrow ? 'wide-only' : 'narrow-only'));
}

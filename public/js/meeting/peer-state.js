// @module public/js/meeting/peer-state — each remote participant's
// connection as the call shows it (states from lib/peer-health.js through
// the mesh): words and a "Try again" button on their tile, a word in the
// participant list, and one hint for the call after repeated failure.
import { el } from '../lib/dom.js';
import { t, tf } from './state.js';

/** The last report per remote participant id: { state, attempt, hint? }. */
export const peerStates = new Map();

const TILE_TEXT = { connecting: 'peerConnecting', reconnecting: 'peerReconnecting', failed: 'peerFailed' };
const LIST_TEXT = { connecting: 'listConnecting', reconnecting: 'listReconnecting', failed: 'listFailed' };

/** Shows `report` on the tile `node` of participant `id` called `name`; `retry` is the button's action. */
export function showTileState(node, id, name, retry) {
  const report = peerStates.get(id);
  // Drawn again only when it changed, so a focused "Try again" keeps its focus.
  const drawn = JSON.stringify([report ?? null, name]);
  if (node.dataset.peerReport === drawn) return;
  node.dataset.peerReport = drawn;
  node.dataset.peerState = report?.state ?? '';
  node.querySelector('.peer-state')?.remove();
  if (!report || !TILE_TEXT[report.state]) return;
  const messageId = `peer-state-${id}`;
  const failed = report.state === 'failed';
  node.append(
    el(
      'div',
      { class: 'peer-state', 'data-state': report.state },
      el('p', { id: messageId, role: 'status' }, tf(TILE_TEXT[report.state], { name: name || '…' })),
      // Named "Try again" for everyone; the message it is about tells several apart.
      failed ? el('button', { type: 'button', class: 'primary small try-again', 'aria-describedby': messageId, onclick: retry }, t('peerTryAgain')) : null,
    ),
  );
}

/** The participant list's word for `id`'s connection ('' once connected). */
export function listState(id) {
  const key = LIST_TEXT[peerStates.get(id)?.state];
  return key ? t(key) : '';
}

/** The call's hint: the first failing connection's cause, shown once for all ('' when none has one). */
export function showHint(node) {
  if (!node) return;
  const hint = [...peerStates.values()].find((r) => r.state === 'failed' && r.hint)?.hint;
  const text = hint === 'turn' ? t('hintTurn') : hint === 'network' ? t('hintNetwork') : '';
  if (node.textContent !== text) node.textContent = text;
  node.hidden = !text;
  if (hint) node.dataset.hint = hint;
  else delete node.dataset.hint;
}

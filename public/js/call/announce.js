// @module public/js/call/announce — what screen readers are told of the
// call as it happens (joins and leaves, hands, reactions, messages): one
// polite live region, visually hidden. Each announcement is added as a
// line of its own (the last few are kept), so none replaces another unread.
import { el } from '../lib/dom.js';

/** The live region of the call screen. */
export function announcer() {
  return el('div', { class: 'visually-hidden', id: 'announcer', role: 'status', 'aria-live': 'polite' });
}

export function announce(c, text) {
  const region = document.getElementById('announcer');
  if (!region || !text) return;
  c.ui.announcements.push(text);
  if (c.ui.announcements.length > 50) c.ui.announcements.shift();
  region.append(el('p', {}, text));
  while (region.childElementCount > 5) region.firstElementChild.remove();
}

/** Arrivals and departures between two participant lists. */
export function announcePresence(c, before, after) {
  if (!before) return;
  const was = new Set(before.map((p) => p.id));
  const is = new Set(after.map((p) => p.id));
  for (const p of after) if (!was.has(p.id) && p.id !== c.state.selfId) announce(c, c.tf('joined', { name: p.name }));
  for (const p of before) if (!is.has(p.id) && p.id !== c.state.selfId) announce(c, c.tf('personLeft', { name: p.name }));
}

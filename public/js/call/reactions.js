// @module public/js/call/reactions — a raised hand and a few reactions,
// seen by everyone in the call and announced to screen readers. The hand
// stays up (it is part of the person, `hand` in the participant list) until
// lowered; a reaction floats over the sender's tile for a few seconds.
// Wire messages: docs/signalling.md, "Hands and reactions".
import { announce } from './announce.js';
import { REACTIONS } from '../shared/call-extras.js';
import { showReaction } from './tiles.js';

export { REACTIONS };

/** Raises or lowers this page's hand. */
export function setHand(c, raised) {
  c.ui.hand = raised;
  // While the page rejoins, the hand is sent with the welcome (connection.js).
  if (c.state.phase === 'call') c.state.signalling?.send({ type: 'hand', raised });
  c.refresh();
}

export function sendReaction(c, emoji) {
  if (!REACTIONS.includes(emoji) || c.state.phase !== 'call') return;
  c.state.signalling?.send({ type: 'reaction', emoji });
}

/** A reaction from participant `from` (the server relays the sender's own back too). */
export function onReaction(c, m) {
  const p = c.state.participants.find((x) => x.id === m.from);
  if (!p || !REACTIONS.includes(m.emoji)) return;
  showReaction(c, m.from === c.state.selfId ? 'self' : m.from, m.emoji);
  const names = c.t('reactionNames').split('|');
  announce(c, c.tf('reacted', { name: p.name, reaction: names[REACTIONS.indexOf(m.emoji)] ?? m.emoji }));
}

/** Hands raised or lowered between two participant lists, announced. */
export function announceHands(c, before, after) {
  const was = new Map(before.map((p) => [p.id, Boolean(p.hand)]));
  for (const p of after) {
    if (!was.has(p.id) || was.get(p.id) === Boolean(p.hand)) continue;
    announce(c, c.tf(p.hand ? 'raisedHand' : 'loweredHand', { name: p.name }));
  }
}

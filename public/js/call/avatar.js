// @module public/js/call/avatar — what stands in for a camera that is off:
// the person's initials on a colour of their own (the same colour on every
// page, from their name), each colour dark enough for white text (≥ 4.5:1).

const COLOURS = ['#1a5fb4', '#26734d', '#a51d2d', '#6a3d9a', '#8a4b00', '#0f6e75', '#9c2a73', '#4d5660'];

/** Up to two initials: the first letters of the first and the last word ("Ann Marie Lee" → "AL"). */
export function initials(name) {
  const words = String(name ?? '')
    .trim()
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0) return '?';
  const first = (word) => Array.from(word.replace(/^[^\p{L}\p{N}]+/u, ''))[0] ?? '';
  const letters = words.length === 1 ? first(words[0]) : first(words[0]) + first(words[words.length - 1]);
  return letters.toLocaleUpperCase();
}

/** A stable colour for `name`. */
export function colourOf(name) {
  let hash = 0;
  for (const ch of String(name ?? '')) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length];
}

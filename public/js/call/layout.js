// @module public/js/call/layout — where each tile goes. `arrange` decides
// from who is there and what they send, never from where their media comes
// from (a mesh or an SFU), so either can feed it:
//
// - alone: your own picture, large;
// - two people: the other fills the stage, your own picture is a small
//   picture-in-picture (movable on desktop, see pip.js);
// - a shared screen, a pinned person, or the speaker view: one person on
//   the stage, everyone else in a strip beside it (below it on phones). A
//   screen that arrives as a stream of its own (through an SFU) is one more
//   remote, `screen: true`, beside its sharer's camera (screen.js);
// - otherwise a grid sized to fill the screen.
//
// At most `maxVideos` tiles besides the stage get video; the others show
// their initials and are asked for nothing (`wanted`: high, low or off).

/**
 * `remotes`: [{id, screen}] in the order they came; `pinned`, `speaker`:
 * ids or null; `mode`: 'grid' or 'speaker'. Returns `{layout, stage, order, wanted}`:
 * layout is solo, pair, stage or grid; order lists every id (the page's own is 'self').
 */
export function arrange({ remotes, pinned = null, speaker = null, mode = 'grid', maxVideos = 9 }) {
  const ids = remotes.map((r) => r.id);
  if (ids.length === 0) return { layout: 'solo', stage: null, order: ['self'], wanted: {} };
  const known = (id) => id === 'self' || ids.includes(id);
  const sharer = remotes.find((r) => r.screen)?.id ?? null;
  let stage = known(pinned) ? pinned : sharer;
  if (!stage && mode === 'speaker' && ids.length > 1) stage = known(speaker) && speaker !== 'self' ? speaker : ids[0];
  const wanted = {};
  if (ids.length === 1 && (stage === null || stage === ids[0])) {
    wanted[ids[0]] = 'high';
    return { layout: 'pair', stage: ids[0], order: [ids[0], 'self'], wanted };
  }
  if (stage) {
    const rest = [...ids.filter((id) => id !== stage), 'self'].filter((id) => id !== stage);
    // The one speaking comes first in the strip, so they are in view.
    if (speaker && rest.includes(speaker)) rest.splice(rest.indexOf(speaker), 1), rest.unshift(speaker);
    if (stage !== 'self') wanted[stage] = 'high';
    let shown = 0;
    for (const id of rest) if (id !== 'self') wanted[id] = shown++ < maxVideos ? 'low' : 'off';
    return { layout: 'stage', stage, order: [stage, ...rest], wanted };
  }
  const order = [...ids, 'self'];
  let shown = 0;
  // The speaker keeps their video even beyond the limit.
  for (const id of ids) wanted[id] = shown++ < maxVideos || id === speaker ? (ids.length <= 2 ? 'high' : 'low') : 'off';
  return { layout: 'grid', stage: null, order, wanted };
}

/**
 * The grid for `n` tiles in a `width`×`height` box with `gap`: the columns
 * (and tile size) that cover the most of the box, each tile's shape kept
 * between portrait 3:4 and `aspect` wide (the video fills it, cropped).
 */
export function gridFor(n, width, height, aspect = 16 / 9, gap = 8) {
  let best = { cols: 1, rows: n, tileW: 0, tileH: 0 };
  for (let cols = 1; cols <= Math.max(1, n); cols++) {
    const rows = Math.ceil(n / cols);
    let w = (width - gap * (cols - 1)) / cols;
    let h = (height - gap * (rows - 1)) / rows;
    if (w / h > aspect) w = h * aspect;
    if (w / h < 3 / 4) h = (w * 4) / 3;
    if (w * h > best.tileW * best.tileH) best = { cols, rows, tileW: Math.floor(w), tileH: Math.floor(h) };
  }
  return best;
}

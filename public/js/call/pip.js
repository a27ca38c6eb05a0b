// @module public/js/call/pip — the own picture in a two-person call: a
// small picture in a corner of the other person's, movable on a desktop by
// dragging it (it settles in the nearest corner) or, focused, with the
// arrow keys. The corner is remembered for the call.

const CORNERS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'];

/** Makes the tile `tile` (the own one) movable; it is a picture-in-picture only while the layout says so. */
export function makeMovable(c, tile) {
  const node = tile.node;
  c.ui.corner ??= 'bottom-right';
  node.dataset.corner = c.ui.corner;
  let drag = null;
  node.addEventListener('pointerdown', (event) => {
    if (!node.classList.contains('pip') || event.button !== 0 || event.pointerType === 'touch' || event.target.closest('button')) return;
    drag = { x: event.clientX, y: event.clientY, id: event.pointerId };
    node.setPointerCapture(event.pointerId);
    node.classList.add('dragging');
  });
  node.addEventListener('pointermove', (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    node.style.setProperty('--drag-x', `${event.clientX - drag.x}px`);
    node.style.setProperty('--drag-y', `${event.clientY - drag.y}px`);
  });
  const drop = (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    drag = null;
    node.classList.remove('dragging');
    node.style.removeProperty('--drag-x');
    node.style.removeProperty('--drag-y');
    const box = node.parentElement.getBoundingClientRect();
    const x = event.clientX - box.left < box.width / 2 ? 'left' : 'right';
    const y = event.clientY - box.top < box.height / 2 ? 'top' : 'bottom';
    setCorner(c, node, `${y}-${x}`);
  };
  node.addEventListener('pointerup', drop);
  node.addEventListener('pointercancel', drop);
  node.addEventListener('keydown', (event) => {
    if (!node.classList.contains('pip') || event.target !== node) return;
    const [y, x] = c.ui.corner.split('-');
    const moves = { ArrowLeft: [y, 'left'], ArrowRight: [y, 'right'], ArrowUp: ['top', x], ArrowDown: ['bottom', x] };
    const to = moves[event.key];
    if (!to) return;
    event.preventDefault();
    setCorner(c, node, to.join('-'));
  });
}

function setCorner(c, node, corner) {
  if (!CORNERS.includes(corner)) return;
  c.ui.corner = corner;
  node.dataset.corner = corner;
}

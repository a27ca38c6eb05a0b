// @module public/js/console/view — a console's live parts from the
// server's view: the line (name, since when, in order, the device and
// network check each client's page reported; accept and decline on a board,
// remove on both), the clients being served and by whom ("taken by Dr X"), the
// members, and the member's own switches.
import { el } from '../lib/dom.js';

const $ = (id) => document.getElementById(id);

/** Draws a console's views with `texts` (console/texts.js); `render(view, act)` draws one. */
export function createConsoleView({ ct, clock, sinceText }) {
  /** Rows by entry id, reused across views so an open decline form keeps what was typed. */
  const rows = new Map();

  function waitingRow(entry, kind, act) {
    let row = rows.get(entry.id);
    if (!row) {
      const name = el('span', { class: 'name' });
      const since = el('small', { class: 'since' });
      const away = el('span', { class: 'badge off away', hidden: true }, ct('console.away'));
      const readiness = el('span', { class: 'readiness', 'data-readiness': '' });
      const parts = { name, since, away, readiness };
      const node = el('li', { id: `entry-${entry.id}`, 'data-id': entry.id }, el('div', { class: 'who' }, name, away, since, readiness));
      if (kind === 'board') {
        parts.accept = el('button', { type: 'button', class: 'small primary accept', onclick: () => act('accept', entry.id) }, ct('console.accept'));
        const message = el('input', { type: 'text', maxlength: '500', id: `decline-message-${entry.id}`, name: 'message' });
        const form = el(
          'form',
          { class: 'decline-form' },
          el('label', { for: `decline-message-${entry.id}` }, ct('console.declineMessage')),
          message,
          el('button', { type: 'submit', class: 'small danger' }, ct('console.declineSend')),
        );
        form.addEventListener('submit', (event) => {
          event.preventDefault();
          act('decline', entry.id, message.value.trim() || null);
        });
        parts.decline = el('details', { class: 'decline' }, el('summary', {}, ct('console.decline')), form);
      }
      // Any place can be removed, on a board or a queue: a flood, a test, a duplicate.
      parts.remove = el('button', { type: 'button', class: 'small remove', onclick: () => act('remove', entry.id, row.label) }, ct('console.remove'));
      node.append(el('div', { class: 'actions' }, ...[parts.accept, parts.decline, parts.remove].filter(Boolean)));
      row = { node, ...parts };
      rows.set(entry.id, row);
    }
    row.name.textContent = `${entry.position}. ${entry.name}`;
    row.label = entry.name;
    row.remove.setAttribute('aria-label', ct('console.removeLabel', { name: entry.name }));
    row.since.textContent = ct('console.since', { time: sinceText(entry.arrivedAt) });
    row.away.hidden = entry.connected;
    drawReadiness(row.readiness, entry.readiness);
    return row;
  }

  /** "Camera ✓ Microphone ✓ Network good": each part a badge, its state in words for screen readers too. */
  function drawReadiness(node, readiness) {
    const key = JSON.stringify(readiness ?? null);
    if (node.dataset.readiness === key) return;
    node.dataset.readiness = key;
    if (!readiness) {
      node.replaceChildren(el('span', { class: 'badge off', 'data-check': 'none' }, ct('console.readinessUnknown')));
      return;
    }
    // Only "works" is a sign (✓, named for screen readers); anything else is said in words,
    // so "switched off" (the client's choice) never reads like "not working".
    const device = (what, status) =>
      el(
        'span',
        { class: `badge ${status === 'ok' ? 'ok' : status === 'off' ? 'off' : 'bad'}`, 'data-check': what, 'data-status': status },
        ct(`console.check.${what}`),
        ' ',
        ...(status === 'ok'
          ? [el('span', { 'aria-hidden': 'true' }, '✓'), el('span', { class: 'visually-hidden' }, ` ${ct('console.check.ok')}`)]
          : [status === 'off' ? null : el('span', { 'aria-hidden': 'true' }, '✕ '), ct(`console.check.${status}`)]),
      );
    const network = readiness.network;
    node.replaceChildren(
      device('camera', readiness.camera),
      device('microphone', readiness.microphone),
      el(
        'span',
        { class: `badge ${network === 'good' ? 'ok' : network === 'fair' ? 'warn' : 'bad'}`, 'data-check': 'network', 'data-status': network },
        ct('console.check.network', { level: ct(`console.check.network.${network}`) }),
      ),
    );
  }

  /** Draws `view`; `act(type, entryId, message)` sends what a button asks for. */
  function renderView(view, act) {
    const { me, space } = view;
    const canTake = space.isActive && me.isActive && !me.current;
    $('console-inactive').hidden = space.isActive;

    const active = $('status-active');
    const auto = $('status-auto');
    active.checked = me.isActive;
    auto.checked = me.isAutoAccepting;
    active.disabled = false;
    auto.disabled = false;

    const ids = new Set(view.waiting.map((e) => e.id));
    for (const id of [...rows.keys()]) if (!ids.has(id)) rows.delete(id);
    const list = $('waiting-list');
    list.replaceChildren(
      ...view.waiting.map((entry) => {
        const row = waitingRow(entry, space.kind, act);
        if (row.accept) row.accept.disabled = !canTake;
        return row.node;
      }),
    );
    $('waiting-empty').hidden = view.waiting.length > 0;
    $('waiting-count').textContent = String(view.waiting.length);
    const takeNext = $('take-next');
    if (takeNext) takeNext.disabled = !canTake || view.waiting.length === 0;

    const servingList = $('serving-list');
    servingList.replaceChildren(
      ...view.serving.map((s) => {
        const by = s.servedBy === me.userId ? ct('console.you') : (s.servedByName ?? '?');
        const what = s.state === 'in_call' ? ct('console.inCallWith', { name: by }) : ct('console.reservedBy', { name: by });
        return el('li', { id: `serving-${s.id}`, 'data-state': s.state }, el('span', { class: 'name' }, s.name), ' ', el('small', {}, what));
      }),
    );
    $('serving-empty').hidden = view.serving.length > 0;

    $('member-list').replaceChildren(
      ...view.members.map((m) => {
        const badges = [el('span', { class: `badge ${m.online ? 'ok' : 'off'}` }, ct(m.online ? 'console.online' : 'console.offline'))];
        if (!m.isActive) badges.push(el('span', { class: 'badge off' }, ct('console.inactive')));
        if (m.isAutoAccepting) badges.push(el('span', { class: 'badge' }, ct('console.auto')));
        if (m.joinedCallAt) badges.push(el('span', { class: 'badge' }, ct('console.inCallSince', { time: clock(m.joinedCallAt) })));
        return el('li', { 'data-user': m.userId }, el('span', { class: 'name' }, m.fullName), ' ', ...badges);
      }),
    );
  }

  return renderView;
}

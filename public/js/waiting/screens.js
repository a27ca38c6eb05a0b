// @module public/js/waiting/screens — what a waiting client sees: the
// calm waiting screen (the place's name, their place in a queue's line, an
// estimate only when the server has one, "nobody is available" when no
// member is there, never also "someone will let you in shortly"; their own
// camera to fix while they wait, and the device and network check the
// members see) and the end screens (served, left, declined, closed), each
// with a way on that fits it.
import { checkList } from '../call/readiness.js';
import { el } from '../lib/dom.js';

/** The screens of the page `page`, whose `call` keeps the camera and microphone buttons current; `wt` its texts. */
export function createScreens(page, call, wt) {
  const { state, settings, embed, root } = page;
  /** The waiting screen while it is shown (built once; each view only changes its texts). */
  let screen = null;

  function build(onLeave) {
    state.phase = 'waiting';
    const preview = el('video', { autoplay: true, playsinline: true, muted: true, 'aria-label': wt('previewLabel') });
    preview.muted = true;
    // An autoplaying video on a stream without tracks (a client let in line
    // with camera and microphone off) would hold the page's load event
    // forever: the stream is shown once it has a track, and kept current.
    const showStream = () => {
      if (state.stream?.getTracks().length && preview.srcObject !== state.stream) preview.srcObject = state.stream;
      // No camera, no black box: the tile goes (the "Start camera" button says how things are).
      selfTile.classList.toggle('off', !state.stream?.getVideoTracks().some((t) => t.readyState === 'live'));
    };
    // The ids are the call's, so the call's own toggles keep them current.
    const selfTile = el('figure', { class: 'tile self', id: 'tile-self' }, preview, el('figcaption', {}, wt('previewLabel')));
    showStream();
    // The preview is in the page by the next event (below); once it is gone, it stops listening.
    const off = call.context.on('media', () => (preview.isConnected ? showStream() : off()));
    const parts = {
      title: el('h1', { id: 'waiting-title' }, settings.title || ''),
      context: settings.organization ? el('p', { class: 'context', id: 'waiting-context' }, settings.organization) : null,
      status: el('p', { class: 'status', id: 'waiting-status' }, wt('connecting')),
      estimate: el('p', { class: 'detail', id: 'waiting-estimate', hidden: true }),
      nobody: el('div', { class: 'nobody', id: 'nobody', role: 'status', hidden: true }),
      notice: el('p', { class: 'detail', id: 'notice', role: 'status' }),
    };
    const node = el(
      'section',
      { class: 'waiting', id: 'waiting', 'aria-live': 'polite' },
      embed ? null : parts.title,
      embed ? null : parts.context,
      parts.status,
      parts.estimate,
      parts.nobody,
      selfTile,
      el(
        'div',
        { class: 'row' },
        el('button', { type: 'button', id: 'mic', class: 'control', onclick: call.toggleMic }),
        el('button', { type: 'button', id: 'cam', class: 'control', onclick: call.toggleCamera }),
      ),
      // Leaving stays in view at 1280×800 with "nobody is available" shown: above the check, not below it.
      el('button', { type: 'button', id: 'leave-line', class: 'danger', onclick: onLeave }, wt('leaveLine')),
      checkList(call.context, { recheck: true }),
      parts.notice,
    );
    root.replaceChildren(node);
    call.refreshControls();
    screen = { node, ...parts };
  }

  /** Shows (or brings up to date) the waiting screen for `view`; null: still connecting. */
  function showWaiting(view, onLeave) {
    if (!screen || !screen.node.isConnected) build(onLeave);
    screen.notice.textContent = '';
    if (!view) return;
    if (view.space?.name) screen.title.textContent = view.space.name;
    screen.node.dataset.state = view.state;
    if (view.state === 'reserved' || view.state === 'in_call') {
      screen.status.textContent = wt('reserved');
    } else if (view.space.kind === 'queue' && view.position) {
      screen.status.textContent = view.position === 1 ? `${wt('position', { n: 1 })} ${wt('positionFirst')}` : wt('position', { n: view.position });
    } else {
      // "Someone will let you in shortly" only while someone is there to do it; otherwise the box below says how things are.
      screen.status.textContent = view.available ? `${wt('waitingBoard')} ${wt('waitingBoardDetail')}` : `${wt('waitingBoard')} ${wt('keepPage')}`;
    }
    screen.node.dataset.position = view.position ?? '';
    screen.estimate.hidden = view.estimateMinutes === null || view.estimateMinutes === undefined;
    screen.estimate.textContent = screen.estimate.hidden ? '' : wt('estimate', { n: view.estimateMinutes });
    screen.nobody.hidden = view.available;
    screen.nobody.replaceChildren(
      ...(view.available
        ? []
        : [el('h2', {}, wt('nobodyTitle')), view.space.closingMessage ? el('p', { class: 'closing' }, view.space.closingMessage) : null, el('p', {}, wt('nobodyDetail'))].filter(Boolean)),
    );
  }

  /** The connection dropped; the place is kept while the page comes back. */
  function showDropped() {
    if (screen?.node.isConnected) screen.notice.textContent = wt('reconnecting');
  }

  /**
   * One of the end screens: `served` (the call ended), `left`, `declined`
   * (with the member's message), `closed` (the place's closing message, or
   * the default), `notFound`. `again`: a way back into the line.
   */
  function showEnd(kind, view) {
    state.phase = 'ended';
    screen = null;
    const titles = { served: wt('servedTitle'), left: wt('leftTitle'), declined: wt('declinedTitle'), closed: wt('closedTitle'), notFound: wt('notFound'), full: wt('fullTitle') };
    const body = [el('h1', {}, titles[kind] ?? titles.closed)];
    const place = view?.space?.name || settings.title;
    if (kind === 'served') body.push(el('p', {}, view?.servedByName ? wt('servedWith', { name: view.servedByName }) : wt('servedDetail')));
    if (kind === 'declined' && view?.message) body.push(el('p', { class: 'message', id: 'declined-message' }, view.message));
    if (kind === 'full') body.push(el('p', { id: 'full-message' }, wt('fullDetail')));
    if (kind === 'closed') body.push(el('p', { id: 'closing-message' }, view?.space?.closingMessage || wt('closedDefault')));
    if (kind === 'left') {
      // Left by mistake: back in line is the way on.
      body.push(el('button', { type: 'button', class: 'primary', id: 'wait-again', onclick: () => location.reload() }, wt('waitAgain')));
    } else if (kind === 'served' || kind === 'declined') {
      // After a consultation nobody wants to queue again by reflex: it is done, and there is only a quiet way back.
      body.push(el('p', { class: 'detail' }, wt('closePage')));
      body.push(el('p', { class: 'detail' }, el('a', { href: location.pathname + (page.params.get('lang') ? `?lang=${encodeURIComponent(page.params.get('lang'))}` : ''), id: 'wait-again' }, place ? wt('needAgainAt', { name: place }) : wt('needAgain'))));
    } else if (kind === 'closed') {
      body.push(el('button', { type: 'button', class: 'primary', id: 'try-again', onclick: () => location.reload() }, wt('tryAgainLater')));
    }
    root.replaceChildren(el('section', { class: 'plain', id: 'finished', 'data-kind': kind }, ...body));
  }

  return { showWaiting, showDropped, showEnd };
}

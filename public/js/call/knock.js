// @module public/js/call/knock — the knock screen: the meeting is locked
// (a consultation waiting for its clinician, or locked by the host), or this
// participant was removed earlier; they wait calmly, with their own camera
// to check, until the host lets them in (the server then sends `welcome`
// and the call replaces this screen) or turns them away.
import { el } from '../lib/dom.js';
import { leave } from './end.js';
import { toggleCamera, toggleMic } from './local-media.js';
import { refreshControls } from './controls.js';

export function showKnock(c, wasRemoved) {
  const { state, t, embed, settings } = c;
  state.phase = 'knocking';
  const preview = el('video', { autoplay: true, playsinline: true, muted: true, 'aria-label': t('camera') });
  preview.muted = true;
  preview.srcObject = state.stream;
  const selfTile = el('figure', { class: 'tile self', id: 'tile-self' }, preview, el('figcaption', {}, state.name));
  const status = wasRemoved ? t('knockRemoved') : settings.consultation ? t('knockConsultation') : t('knockMeeting');
  c.root.replaceChildren(
    el(
      'section',
      { class: 'waiting knock', id: 'knock', 'aria-live': 'polite', 'data-removed': String(Boolean(wasRemoved)) },
      embed ? null : el('h1', { id: 'knock-title' }, t('knockTitle')),
      el('p', { class: 'status', id: 'knock-status' }, status),
      el('p', { class: 'detail' }, t('knockCalm')),
      selfTile,
      el(
        'div',
        { class: 'row' },
        el('button', { type: 'button', id: 'mic', class: 'control', onclick: () => toggleMic(c) }),
        el('button', { type: 'button', id: 'cam', class: 'control', onclick: () => toggleCamera(c) }),
      ),
      el('button', { type: 'button', id: 'leave-knock', class: 'danger', onclick: () => leave(c) }, t('leave')),
    ),
  );
  refreshControls(c);
}

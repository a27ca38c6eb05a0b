// @module public/js/call/prejoin — the screen before the call: preview,
// microphone and camera toggles, device choice, the name (remembered in
// localStorage), then Join.
import { el } from '../lib/dom.js';
import { listDevices } from '../lib/media.js';
import { NAME_KEY } from '../lib/page-state.js';
import { writeStored } from '../lib/storage.js';
import { acquire } from './local-media.js';
import { audioTrack, cameraTrack } from './tracks.js';

/**
 * Replaces the page with the pre-join screen; `onJoin` runs once a valid
 * name is submitted. `message`: a problem to show. `labels`: the heading
 * and the button, for pages that lead somewhere else than a meeting.
 */
export async function showPrejoin(c, onJoin, message, labels = {}) {
  const { state, t, settings } = c;
  state.phase = 'prejoin';
  const preview = el('video', { class: 'preview', autoplay: true, playsinline: true, muted: true });
  preview.muted = true;
  const error = el('p', { class: 'error', role: 'alert' }, message ?? '');
  const name = el('input', { id: 'name', name: 'name', maxlength: '64', autocomplete: 'name', placeholder: t('namePlaceholder'), value: state.name });
  const cameraSelect = el('select', { id: 'camera', 'aria-label': t('camera') });
  const micSelect = el('select', { id: 'microphone', 'aria-label': t('microphone') });
  const micButton = el('button', { type: 'button', class: 'toggle', id: 'prejoin-mic' });
  const camButton = el('button', { type: 'button', class: 'toggle', id: 'prejoin-cam' });
  const join = el('button', { type: 'submit', class: 'primary', id: 'join' }, labels.submit ?? t('join'));

  const refreshButtons = () => {
    micButton.textContent = state.audioOn ? t('mute') : t('unmute');
    micButton.setAttribute('aria-pressed', String(!state.audioOn));
    camButton.textContent = state.videoOn ? t('cameraOff') : t('cameraOn');
    camButton.setAttribute('aria-pressed', String(!state.videoOn));
  };
  const refreshPreview = () => {
    preview.srcObject = state.stream;
    preview.classList.toggle('off', !cameraTrack(state));
  };
  const refreshDevices = async () => {
    const { cameras, microphones } = await listDevices();
    const fill = (select, devices, current, label) => {
      select.replaceChildren(...devices.map((d, i) => el('option', { value: d.deviceId, selected: d.deviceId === current }, d.label || `${label} ${i + 1}`)));
      select.disabled = devices.length === 0;
    };
    fill(cameraSelect, cameras, cameraTrack(state)?.getSettings().deviceId, t('camera'));
    fill(micSelect, microphones, audioTrack(state)?.getSettings().deviceId, t('microphone'));
  };
  const reacquire = async () => {
    const problem = await acquire(c);
    error.textContent = problem ?? '';
    refreshButtons();
    refreshPreview();
    await refreshDevices();
  };

  micButton.addEventListener('click', async () => {
    state.audioOn = !state.audioOn;
    const mic = audioTrack(state);
    if (mic) mic.enabled = state.audioOn;
    refreshButtons();
    // Unmuting without a microphone asks for one again (it may have been refused).
    if (!mic && state.audioOn) await reacquire();
  });
  camButton.addEventListener('click', async () => {
    state.videoOn = !state.videoOn;
    refreshButtons();
    await reacquire();
  });
  cameraSelect.addEventListener('change', async () => {
    state.videoDevice = cameraSelect.value;
    await reacquire();
  });
  micSelect.addEventListener('change', async () => {
    state.audioDevice = micSelect.value;
    await reacquire();
  });

  const form = el(
    'form',
    { class: 'prejoin', id: 'prejoin' },
    el('h1', {}, labels.heading ?? (settings.title || t('joinTitle'))),
    labels.intro ? el('p', { class: 'intro' }, labels.intro) : null,
    settings.host ? el('p', { class: 'intro host-note', id: 'host-note' }, el('span', { class: 'badge host-badge' }, t('host')), ' ', t('youAreHost')) : null,
    preview,
    el('div', { class: 'row' }, micButton, camButton),
    el('label', { for: 'name' }, t('yourName')),
    name,
    el('label', { for: 'camera' }, t('camera')),
    cameraSelect,
    el('label', { for: 'microphone' }, t('microphone')),
    micSelect,
    error,
    join,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = name.value.trim().replace(/\s+/g, ' ');
    if (!value) {
      error.textContent = t('nameRequired');
      name.focus();
      return;
    }
    state.name = value.slice(0, 64);
    writeStored(NAME_KEY, state.name);
    void onJoin();
  });
  c.root.replaceChildren(form);
  refreshButtons();
  await reacquire();
}

// @module public/js/call/prejoin — the screen before the call: where you
// are going (the title, the organization, the clinician), your own picture
// (your initials when the camera is off) with the microphone and camera
// toggles and a level meter, your name (remembered in this browser, filled
// in for a signed-in member, focused), what to do about a blocked or
// missing device, Join, and then the devices (camera, microphone, speaker
// with a test tone) and the device and network check.
import { el } from '../lib/dom.js';
import { NAME_KEY } from '../lib/page-state.js';
import { writeStored } from '../lib/storage.js';
import { colourOf, initials } from './avatar.js';
import { deviceSelects, playTestTone } from './devices.js';
import { icon } from './icons.js';
import { acquire, toggleCamera, toggleMic } from './local-media.js';
import { problemHelp, wantedProblems } from './permission-help.js';
import { checkList, checkNetwork } from './readiness.js';
import { micMeter } from './settings.js';
import { announced, cameraTrack } from './tracks.js';

function toggleButton(id, onclick) {
  return el('button', { type: 'button', class: 'toggle', id, onclick }, el('span', { class: 'btn-label' }));
}

/**
 * Replaces the page with the pre-join screen; `onJoin` runs once a valid
 * name is submitted. `message`: a problem to show. `labels`: the heading,
 * an introduction and the button, for pages that lead somewhere else than
 * a meeting (a waiting list).
 */
export async function showPrejoin(c, onJoin, message, labels = {}) {
  const { state, t, settings } = c;
  state.phase = 'prejoin';
  const preview = el('video', { class: 'preview', autoplay: true, playsinline: true, muted: true, 'aria-label': t('yourCamera') });
  preview.muted = true;
  const avatar = el('div', { class: 'avatar', 'aria-hidden': 'true' }, el('span', { class: 'initials' }));
  const micButton = toggleButton('prejoin-mic', () => toggleMic(c));
  const camButton = toggleButton('prejoin-cam', () => toggleCamera(c));
  const { meter, start } = micMeter(c, 'mic-level', () => state.phase === 'prejoin');
  const error = el('p', { class: 'error', id: 'prejoin-error', role: 'alert' }, message ?? '');
  const name = el('input', { id: 'name', name: 'name', maxlength: '64', autocomplete: 'name', placeholder: t('namePlaceholder'), value: state.name, required: true });
  const help = el('div', { class: 'help-slot' });
  const join = el('button', { type: 'submit', class: 'primary', id: 'join' }, labels.submit ?? t('join'));
  const camera = el('select', { id: 'camera', name: 'camera' });
  const microphone = el('select', { id: 'microphone', name: 'microphone' });
  const speaker = el('select', { id: 'speaker', name: 'speaker' });
  const test = el('button', { type: 'button', class: 'small', id: 'test-speaker', onclick: () => playTestTone(speaker.value) }, icon('speaker'), ` ${t('testSpeaker')}`);
  const narrow = matchMedia('(max-width: 640px)').matches;
  const devices = el(
    'details',
    { class: 'devices', id: 'devices', open: !narrow },
    el('summary', {}, t('deviceChoice')),
    el('label', { for: 'camera' }, t('camera')),
    camera,
    el('label', { for: 'microphone' }, t('microphone')),
    microphone,
    el('label', { for: 'speaker' }, t('speaker')),
    el('div', { class: 'row' }, speaker, test),
  );
  const context = [settings.organization, settings.hostName && !settings.host ? settings.hostName : null].filter(Boolean).join(' · ');

  const refresh = () => {
    if (!form.isConnected) return false;
    const now = announced(state);
    micButton.querySelector('.btn-label').textContent = now.audio ? t('mute') : t('unmute');
    micButton.setAttribute('aria-pressed', String(!now.audio));
    camButton.querySelector('.btn-label').textContent = now.video ? t('cameraOff') : t('cameraOn');
    camButton.setAttribute('aria-pressed', String(!now.video));
    micButton.prepend(icon(now.audio ? 'mic' : 'micOff'));
    camButton.prepend(icon(now.video ? 'cam' : 'camOff'));
    for (const b of [micButton, camButton]) b.querySelectorAll('.icon').forEach((i, n) => n > 0 && i.remove());
    // A stream without a picture is never shown: a <video> waiting for its first frame holds up the page's load event for good.
    const showing = cameraTrack(state) ? state.stream : null;
    if (preview.srcObject !== showing) preview.srcObject = showing;
    box.classList.toggle('off', !cameraTrack(state));
    const who = name.value.trim() || state.name;
    avatar.firstChild.replaceChildren(who ? initials(who) : icon('person'));
    avatar.style.setProperty('--avatar', colourOf(who));
    const problems = problemHelp(c, wantedProblems(c), {
      onRetry: () => acquire(c),
      onWithout: (without) => {
        if (without.audio) state.audioOn = false;
        if (without.video) state.videoOn = false;
        form.requestSubmit();
      },
    });
    help.replaceChildren(...(problems ? [problems] : []));
    return true;
  };

  const box = el('div', { class: 'preview-box' }, preview, avatar, el('div', { class: 'preview-controls' }, micButton, camButton));
  const form = el(
    'form',
    { class: 'prejoin', id: 'prejoin', novalidate: true },
    el(
      'div',
      { class: 'intro-block' },
      el('h1', {}, labels.heading ?? (settings.title || t('joinTitle'))),
      context ? el('p', { class: 'context', id: 'prejoin-context' }, context) : null,
      labels.intro ? el('p', { class: 'intro' }, labels.intro) : null,
      settings.host ? el('p', { class: 'intro host-note', id: 'host-note' }, el('span', { class: 'badge host-badge' }, t('host')), ' ', t('youAreHost')) : null,
    ),
    el('div', { class: 'camera-block' }, box, el('div', { class: 'meter-row' }, icon('mic'), meter)),
    el('div', { class: 'join-block' }, el('label', { for: 'name' }, t('yourName')), name, help, error, join),
    el('div', { class: 'more-block' }, devices, checkList(c)),
  );
  name.addEventListener('input', () => refresh());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = name.value.trim().replace(/\s+/g, ' ');
    if (!value) {
      error.textContent = t('nameRequired');
      name.setAttribute('aria-invalid', 'true');
      name.focus();
      return;
    }
    name.removeAttribute('aria-invalid');
    state.name = value.slice(0, 64);
    writeStored(NAME_KEY, state.name);
    void onJoin();
  });
  c.root.replaceChildren(form);
  name.focus();
  const offs = ['media', 'problem'].map((e) =>
    c.on(e, () => {
      if (!refresh()) for (const off of offs) off();
    }),
  );
  const refreshDevices = deviceSelects(c, { camera, microphone, speaker });
  refresh();
  start();
  void checkNetwork(c);
  await acquire(c);
  await refreshDevices();
}

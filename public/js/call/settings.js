// @module public/js/call/settings — the "Settings" dialog of the call:
// "Camera", "Microphone" and "Speaker" switch at once, without leaving or
// rejoining the call (devices.js); a meter shows the microphone works, a
// button tests the speaker; and the keyboard shortcuts are listed.
import { el } from '../lib/dom.js';
import { createLevelMeter } from '../lib/level-meter.js';
import { canChooseSpeaker } from '../lib/media.js';
import { deviceSelects, playTestTone } from './devices.js';
import { icon } from './icons.js';
import { SHORTCUTS, shortcutLabel } from './shortcuts.js';
import { audioTrack } from './tracks.js';

/** A meter element kept in step with this page's microphone while `isOpen()`. */
export function micMeter(c, id, isOpen) {
  const meter = el('meter', { id, min: '0', max: '1', low: '0.25', high: '0.8', optimum: '0.5', value: '0', 'aria-label': c.t('micLevel') });
  let running = null;
  let track = null;
  const tick = () => {
    if (!isOpen() || !meter.isConnected) {
      running?.stop();
      running = null;
      track = null;
      return;
    }
    const now = audioTrack(c.state);
    if (now !== track) {
      running?.stop();
      track = now;
      running = now ? createLevelMeter(now) : null;
    }
    meter.value = running && now?.enabled ? running.level() : 0;
    requestAnimationFrame(tick);
  };
  return { meter, start: () => requestAnimationFrame(tick) };
}

export function openSettings(c) {
  const { t } = c;
  document.getElementById('settings-dialog')?.remove();
  const select = (id, label) => [el('label', { for: id }, label), el('select', { id, name: id })];
  const [cameraLabel, camera] = select('set-camera', t('camera'));
  const [micLabel, microphone] = select('set-microphone', t('microphone'));
  const [speakerLabel, speaker] = select('set-speaker', t('speaker'));
  const dialog = el('dialog', { class: 'settings', id: 'settings-dialog', 'aria-labelledby': 'settings-title' });
  const { meter, start } = micMeter(c, 'set-mic-level', () => dialog.open);
  const test = el('button', { type: 'button', id: 'set-test-speaker', class: 'small', onclick: () => playTestTone(speaker.value) }, icon('speaker'), ` ${t('testSpeaker')}`);
  dialog.append(
    el('div', { class: 'dialog-head' }, el('h2', { id: 'settings-title' }, t('settings')), el('button', { type: 'button', class: 'icon-button', id: 'settings-close', 'aria-label': t('close'), onclick: () => dialog.close() }, icon('close'))),
    el('div', { class: 'setting' }, cameraLabel, camera),
    el('div', { class: 'setting' }, micLabel, microphone, meter),
    el('div', { class: 'setting' }, speakerLabel, speaker, canChooseSpeaker() ? test : el('p', { class: 'tip' }, t('noSpeakerChoice'))),
    el('h3', {}, t('shortcuts')),
    el('dl', { class: 'shortcuts', id: 'shortcut-list' }, ...SHORTCUTS.flatMap(([key, , text]) => [el('dt', {}, el('kbd', {}, shortcutLabel(key))), el('dd', {}, t(text))])),
  );
  dialog.addEventListener('close', () => {
    dialog.remove();
    document.getElementById('settings')?.focus();
  });
  document.body.append(dialog);
  const refresh = deviceSelects(c, { camera, microphone, speaker });
  dialog.showModal();
  void refresh().then(() => camera.focus());
  start();
  return dialog;
}

// @module public/js/call/devices — choosing the camera, microphone and
// speaker: the choices are remembered per browser (localStorage), a camera
// or microphone switches during the call with replaceTrack (the others see
// and hear the new one without anyone renegotiating), a speaker with
// setSinkId on every remote video. Devices plugged in and permissions
// granted later are noticed here (local-media.js then sends what was missing).
import { el } from '../lib/dom.js';
import { canChooseSpeaker, listDevices } from '../lib/media.js';
import { readStored, writeStored } from '../lib/storage.js';
import { addTrack, retryMissing } from './local-media.js';
import { audioTrack, cameraTrack } from './tracks.js';

const KEY = (kind) => `foyer.device.${kind}`;

/** The device chosen last in this browser for `kind` (videoinput, audioinput, audiooutput), or undefined. */
export function rememberedDevice(kind) {
  return readStored(KEY(kind)) || undefined;
}

function remember(kind, deviceId) {
  writeStored(KEY(kind), deviceId ?? '');
}

/** Switches the camera (`video`) or microphone (`audio`) to `deviceId`, in or out of a call. */
export async function switchDevice(c, kind, deviceId) {
  const { state } = c;
  remember(kind === 'audio' ? 'audioinput' : 'videoinput', deviceId);
  if (kind === 'audio') state.audioDevice = deviceId;
  else state.videoDevice = deviceId;
  const current = kind === 'audio' ? audioTrack(state) : cameraTrack(state);
  const wished = kind === 'audio' ? state.audioOn : state.videoOn;
  if (!current && !wished) return true;
  if (current?.getSettings().deviceId === deviceId) return true;
  return addTrack(c, kind, { deviceId, exact: true });
}

/** Plays every remote video's sound on `deviceId` ('' is the system's default). */
export async function switchSpeaker(c, deviceId) {
  remember('audiooutput', deviceId);
  c.ui.speakerId = deviceId || null;
  for (const tile of c.tiles.values()) {
    if (tile.self || typeof tile.video.setSinkId !== 'function') continue;
    await tile.video.setSinkId(deviceId || '').catch(() => {});
  }
}

/** Fills `select` with `devices`, `current` selected; disabled when there is nothing to choose. */
function fill(c, select, devices, current, fallbackLabel) {
  select.replaceChildren(...devices.map((d, i) => el('option', { value: d.deviceId, selected: d.deviceId === current }, d.label || `${fallbackLabel} ${i + 1}`)));
  select.disabled = devices.length === 0;
}

/**
 * Keeps the three selects (`camera`, `microphone`, `speaker`; any may be
 * null) filled with the devices there are and switching on change.
 * Returns `refresh()`.
 */
export function deviceSelects(c, { camera, microphone, speaker }) {
  const { t, state } = c;
  const refresh = async () => {
    const { cameras, microphones, speakers } = await listDevices();
    if (camera) fill(c, camera, cameras, cameraTrack(state)?.getSettings().deviceId ?? state.videoDevice ?? rememberedDevice('videoinput'), t('camera'));
    if (microphone) fill(c, microphone, microphones, audioTrack(state)?.getSettings().deviceId ?? state.audioDevice ?? rememberedDevice('audioinput'), t('microphone'));
    if (speaker) {
      if (!canChooseSpeaker()) {
        speaker.disabled = true;
        speaker.replaceChildren(el('option', { value: '' }, t('systemDefault')));
      } else {
        const choices = speakers.length ? speakers : [{ deviceId: '', label: t('systemDefault') }];
        fill(c, speaker, choices, c.ui.speakerId ?? rememberedDevice('audiooutput') ?? 'default', t('speaker'));
        speaker.disabled = false;
      }
    }
  };
  camera?.addEventListener('change', async () => {
    await switchDevice(c, 'video', camera.value);
    await refresh();
  });
  microphone?.addEventListener('change', async () => {
    await switchDevice(c, 'audio', microphone.value);
    await refresh();
  });
  speaker?.addEventListener('change', () => switchSpeaker(c, speaker.value));
  // Kept current while the selects are on the page; a dialog closed or a screen replaced stops listening.
  const anyShown = () => [camera, microphone, speaker].some((s) => s?.isConnected);
  const offs = ['devices', 'media'].map((event) =>
    c.on(event, () => {
      if (anyShown()) return void refresh();
      for (const off of offs) off();
    }),
  );
  return refresh;
}

/** Listens, once per call, for devices coming and going and for permissions changing. */
export function watchDevices(c) {
  navigator.mediaDevices?.addEventListener?.('devicechange', () => {
    c.emit('devices');
    void retryMissing(c);
  });
  for (const name of ['camera', 'microphone']) {
    navigator.permissions
      ?.query({ name })
      .then((status) => {
        status.addEventListener('change', () => {
          if (status.state === 'granted') void retryMissing(c, { blocked: true });
        });
      })
      .catch(() => {
        // This browser does not report camera or microphone permissions.
      });
  }
}

/** A short tone on `deviceId` (or the default), for the speaker test. */
export async function playTestTone(deviceId) {
  const audio = new AudioContext();
  const destination = audio.createMediaStreamDestination();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  const now = audio.currentTime;
  osc.frequency.setValueAtTime(523, now);
  osc.frequency.setValueAtTime(659, now + 0.25);
  osc.frequency.setValueAtTime(784, now + 0.5);
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(0.3, now + 0.03);
  gain.gain.setValueAtTime(0.3, now + 0.7);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.9);
  osc.connect(gain).connect(destination);
  const player = new Audio();
  player.srcObject = destination.stream;
  if (deviceId && typeof player.setSinkId === 'function') await player.setSinkId(deviceId).catch(() => {});
  osc.start(now);
  osc.stop(now + 0.95);
  await player.play().catch(() => {});
  setTimeout(() => {
    player.srcObject = null;
    void audio.close();
  }, 1200);
}

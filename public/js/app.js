// @module public/js/app — the meeting page: pre-join screen, then the call.
// Settings come from the server (JSON block in the page); preferences from the
// URL: displayName, audio=off, video=off, skipPrejoin=true, lang, embed=true.
import { pickLang, translator } from './i18n.js';
import { canShareScreen, getLocalMedia, getScreen, listDevices } from './media.js';
import { Mesh } from './mesh.js';
import { Signalling } from './signalling.js';

const settings = JSON.parse(document.getElementById('foyer-settings').textContent);
const params = new URLSearchParams(location.search);
const lang = pickLang(params.get('lang'));
const t = translator(lang);
const embed = params.get('embed') === 'true';
const NAME_KEY = 'foyer.displayName';
// docs/signalling.md: only these closes mean "come back"; every other one is a
// refusal that the same page would only run into again.
const RECONNECT_CODES = new Set([1001, 1006, 4503]);
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15000;

document.documentElement.lang = lang;
if (embed) document.body.classList.add('embed');

const state = {
  phase: 'prejoin',
  name: (params.get('displayName') || safeStorage('get') || '').trim().slice(0, 64),
  audioOn: params.get('audio') !== 'off',
  videoOn: params.get('video') !== 'off',
  audioDevice: undefined,
  videoDevice: undefined,
  stream: new MediaStream(),
  screenTrack: null,
  // One stream for the self view while sharing: a new one per refresh restarts the <video> (flicker).
  screenStream: null,
  selfId: null,
  participants: [],
  signalling: null,
  leaving: false,
  firstRemoteFrameAt: null,
  retryDelay: RETRY_FIRST_MS,
  retryTimer: null,
  closes: [],
  retryDelays: [],
};

const root = document.getElementById('app');
const tiles = new Map();
let queue = Promise.resolve();

const mesh = new Mesh({
  iceServers: settings.iceServers,
  send: (m) => state.signalling?.send(m),
  onStream: (id, stream) => showRemote(id, stream),
  onGone: (id) => removeTile(id),
});

// Test and diagnostics hook (read-only views of the call).
window.foyer = {
  phase: () => state.phase,
  selfId: () => state.selfId,
  participants: () => state.participants.map((p) => p.name),
  framesDecoded: () => mesh.framesDecoded(),
  stats: () => mesh.stats(),
  firstRemoteFrameAt: () => state.firstRemoteFrameAt,
  media: () => announced(),
  closes: () => [...state.closes],
  retryDelays: () => [...state.retryDelays],
  localStreamId: () => state.stream.id,
};

function safeStorage(op, value) {
  try {
    if (op === 'get') return localStorage.getItem(NAME_KEY);
    localStorage.setItem(NAME_KEY, value);
  } catch {
    // storage may be blocked in third-party iframes
  }
  return null;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    else if (value === true) node.setAttribute(key, '');
    else if (value !== false && value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function audioTrack() {
  return state.stream.getAudioTracks()[0] ?? null;
}
function cameraTrack() {
  return state.stream.getVideoTracks()[0] ?? null;
}

/** What others are told: only what is really sent, never "camera on" over a black tile. */
function announced() {
  return {
    audio: state.audioOn && Boolean(audioTrack()),
    video: state.videoOn && Boolean(cameraTrack()),
    screen: Boolean(state.screenTrack),
  };
}

/** A device unplugged or a permission revoked mid-call ends its track: stop announcing it. */
function watchEnded(track) {
  track.addEventListener('ended', () => {
    if (!state.stream.getTracks().includes(track)) return;
    state.stream.removeTrack(track);
    if (track.kind === 'audio') {
      state.audioOn = false;
      mesh.replaceAudio(null);
    } else {
      state.videoOn = false;
      if (!state.screenTrack) mesh.replaceVideo(null);
    }
    refreshControls();
    sendMedia();
  });
}

async function acquire() {
  for (const track of state.stream.getTracks()) track.stop();
  try {
    state.stream = await getLocalMedia({
      audio: true,
      video: state.videoOn,
      audioDeviceId: state.audioDevice,
      videoDeviceId: state.videoDevice,
    });
  } catch (error) {
    state.stream = new MediaStream();
    state.audioOn = false;
    state.videoOn = false;
    return `${t('deviceError')}${error?.name ?? error}`;
  }
  const mic = audioTrack();
  if (mic) mic.enabled = state.audioOn;
  // A refused or missing device turns its toggle off, so the buttons offer to
  // retry and the join does not promise what nobody will receive.
  if (!mic) state.audioOn = false;
  if (!cameraTrack()) state.videoOn = false;
  for (const track of state.stream.getTracks()) watchEnded(track);
  if (!mic && !cameraTrack()) return t('noDevices');
  return null;
}

// ---- Pre-join ----------------------------------------------------------

async function showPrejoin(message) {
  state.phase = 'prejoin';
  const preview = el('video', { class: 'preview', autoplay: true, playsinline: true, muted: true });
  preview.muted = true;
  const error = el('p', { class: 'error', role: 'alert' }, message ?? '');
  const name = el('input', { id: 'name', name: 'name', maxlength: '64', autocomplete: 'name', placeholder: t('namePlaceholder'), value: state.name });
  const cameraSelect = el('select', { id: 'camera', 'aria-label': t('camera') });
  const micSelect = el('select', { id: 'microphone', 'aria-label': t('microphone') });
  const micButton = el('button', { type: 'button', class: 'toggle', id: 'prejoin-mic' });
  const camButton = el('button', { type: 'button', class: 'toggle', id: 'prejoin-cam' });
  const join = el('button', { type: 'submit', class: 'primary', id: 'join' }, t('join'));

  const refreshButtons = () => {
    micButton.textContent = state.audioOn ? t('mute') : t('unmute');
    micButton.setAttribute('aria-pressed', String(!state.audioOn));
    camButton.textContent = state.videoOn ? t('cameraOff') : t('cameraOn');
    camButton.setAttribute('aria-pressed', String(!state.videoOn));
  };
  const refreshPreview = () => {
    preview.srcObject = state.stream;
    preview.classList.toggle('off', !cameraTrack());
  };
  const refreshDevices = async () => {
    const { cameras, microphones } = await listDevices();
    const fill = (select, devices, current, label) => {
      select.replaceChildren(...devices.map((d, i) => el('option', { value: d.deviceId, selected: d.deviceId === current }, d.label || `${label} ${i + 1}`)));
      select.disabled = devices.length === 0;
    };
    fill(cameraSelect, cameras, cameraTrack()?.getSettings().deviceId, t('camera'));
    fill(micSelect, microphones, audioTrack()?.getSettings().deviceId, t('microphone'));
  };
  const reacquire = async () => {
    const problem = await acquire();
    error.textContent = problem ?? '';
    refreshButtons();
    refreshPreview();
    await refreshDevices();
  };

  micButton.addEventListener('click', async () => {
    state.audioOn = !state.audioOn;
    const mic = audioTrack();
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
    el('h1', {}, settings.title || t('joinTitle')),
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
    safeStorage('set', state.name);
    void startCall();
  });
  root.replaceChildren(form);
  refreshButtons();
  await reacquire();
}

// ---- The call ----------------------------------------------------------

function controlButton(id, label, onclick) {
  return el('button', { type: 'button', id, class: 'control', onclick }, label);
}

function renderCall() {
  state.phase = 'call';
  const selfVideo = el('video', { autoplay: true, playsinline: true, muted: true });
  selfVideo.muted = true;
  selfVideo.srcObject = state.stream;
  const selfTile = el('figure', { class: 'tile self', id: 'tile-self' }, selfVideo, el('figcaption', {}, `${state.name} (${t('you')})`));
  const grid = el('section', { class: 'tiles', id: 'tiles' }, selfTile);
  // On phones the list starts folded away; the videos need the room.
  const people = el('aside', { class: 'people', id: 'people', hidden: embed || matchMedia('(max-width: 640px)').matches }, el('h2', {}, t('participants')), el('ul', { id: 'people-list' }));
  const controls = el(
    'nav',
    { class: 'controls' },
    controlButton('mic', '', toggleMic),
    controlButton('cam', '', toggleCamera),
    canShareScreen() ? controlButton('share', '', toggleShare) : null,
    embed ? null : controlButton('people-toggle', t('participants'), () => (people.hidden = !people.hidden)),
    controlButton('leave', t('leave'), leave),
  );
  const header = embed ? null : el('header', { class: 'bar' }, el('span', { class: 'title' }, settings.title || t('meeting')), el('span', { id: 'count', class: 'count' }));
  const notice = el('p', { class: 'notice', id: 'notice', role: 'status' });
  root.replaceChildren(el('div', { class: 'call' }, header, el('div', { class: 'stage' }, grid, people), notice, controls));
  tiles.clear();
  refreshControls();
  renderParticipants();
}

function refreshControls() {
  const set = (id, text, pressed) => {
    const b = document.getElementById(id);
    if (!b) return;
    b.textContent = text;
    b.setAttribute('aria-pressed', String(pressed));
  };
  set('mic', state.audioOn ? t('mute') : t('unmute'), !state.audioOn);
  set('cam', state.videoOn ? t('cameraOff') : t('cameraOn'), !state.videoOn);
  set('share', state.screenTrack ? t('stopShare') : t('share'), Boolean(state.screenTrack));
  const self = document.querySelector('#tile-self video');
  if (self) {
    const showing = state.screenStream ?? state.stream;
    if (self.srcObject !== showing) self.srcObject = showing;
    const tile = document.getElementById('tile-self');
    tile.classList.toggle('off', !state.screenTrack && !cameraTrack());
    // The camera is mirrored like a mirror; a shared screen must read the right way round.
    tile.classList.toggle('sharing', Boolean(state.screenTrack));
  }
}

function flags(p) {
  const out = [];
  if (!p.audio) out.push(t('muted'));
  if (!p.video && !p.screen) out.push(t('camOff'));
  if (p.screen) out.push(t('sharing'));
  return out.length ? ` · ${out.join(', ')}` : '';
}

function renderParticipants() {
  const list = document.getElementById('people-list');
  if (list) {
    list.replaceChildren(
      ...state.participants.map((p) => el('li', { 'data-id': p.id }, p.id === state.selfId ? `${p.name} (${t('you')})` : p.name, el('small', {}, flags(p)))),
    );
  }
  const count = document.getElementById('count');
  if (count) count.textContent = `${state.participants.length} · ${t('participants')}`;
  for (const p of state.participants) {
    const tile = tiles.get(p.id);
    if (!tile) continue;
    tile.caption.textContent = p.name + flags(p);
    tile.node.classList.toggle('off', !p.video && !p.screen);
    tile.node.classList.toggle('sharing', Boolean(p.screen));
  }
  const notice = document.getElementById('notice');
  if (notice && !notice.dataset.sticky) notice.textContent = state.participants.length <= 1 ? t('alone') : '';
}

function ensureTile(id) {
  let tile = tiles.get(id);
  if (tile) return tile;
  const video = el('video', { autoplay: true, playsinline: true });
  const caption = el('figcaption', {});
  const node = el('figure', { class: 'tile', 'data-id': id }, video, caption);
  document.getElementById('tiles')?.append(node);
  tile = { node, video, caption };
  tiles.set(id, tile);
  if ('requestVideoFrameCallback' in video) {
    video.requestVideoFrameCallback(() => {
      state.firstRemoteFrameAt ??= performance.now();
    });
  }
  renderParticipants();
  return tile;
}

function showRemote(id, stream) {
  const tile = ensureTile(id);
  // Once per stream: the mesh reports it for each of its tracks.
  if (tile.video.srcObject === stream) return;
  tile.video.srcObject = stream;
  tile.video.play().catch((error) => {
    // Only a refused autoplay (sound without a gesture, as with skipPrejoin)
    // calls for muted playback; an AbortError (the source replaced meanwhile)
    // says nothing about sound and must not silence the participant.
    if (error?.name !== 'NotAllowedError') return;
    tile.video.muted = true;
    tile.video.play().catch(() => {});
    offerSound();
  });
}

function offerSound() {
  if (document.getElementById('enable-sound')) return;
  const button = el('button', { type: 'button', id: 'enable-sound', class: 'primary' }, t('enableSound'));
  button.addEventListener('click', () => {
    for (const tile of tiles.values()) {
      tile.video.muted = false;
      tile.video.play().catch(() => {});
    }
    button.remove();
  });
  document.querySelector('.call')?.prepend(button);
}

function removeTile(id) {
  tiles.get(id)?.node.remove();
  tiles.delete(id);
}

function sendMedia() {
  state.signalling?.send({ type: 'media', ...announced() });
}

async function toggleMic() {
  state.audioOn = !state.audioOn;
  let mic = audioTrack();
  if (!mic && state.audioOn) {
    try {
      const s = await getLocalMedia({ audio: true, video: false, audioDeviceId: state.audioDevice });
      mic = s.getAudioTracks()[0];
      state.stream.addTrack(mic);
      watchEnded(mic);
      mesh.replaceAudio(mic);
    } catch {
      state.audioOn = false;
    }
  }
  if (mic) mic.enabled = state.audioOn;
  refreshControls();
  sendMedia();
}

async function toggleCamera() {
  state.videoOn = !state.videoOn;
  const current = cameraTrack();
  if (!state.videoOn && current) {
    // Stopped, not just disabled, so the camera light goes off.
    current.stop();
    state.stream.removeTrack(current);
    if (!state.screenTrack) mesh.replaceVideo(null);
  } else if (state.videoOn && !current) {
    try {
      const s = await getLocalMedia({ audio: false, video: true, videoDeviceId: state.videoDevice });
      const track = s.getVideoTracks()[0];
      state.stream.addTrack(track);
      watchEnded(track);
      if (!state.screenTrack) mesh.replaceVideo(track);
    } catch {
      state.videoOn = false;
    }
  }
  refreshControls();
  sendMedia();
}

async function toggleShare() {
  if (state.screenTrack) return stopShare();
  try {
    state.screenTrack = await getScreen();
  } catch {
    return;
  }
  state.screenStream = new MediaStream([state.screenTrack]);
  state.screenTrack.addEventListener('ended', stopShare);
  mesh.replaceVideo(state.screenTrack);
  refreshControls();
  sendMedia();
}

function stopShare() {
  if (!state.screenTrack) return;
  state.screenTrack.stop();
  state.screenTrack = null;
  state.screenStream = null;
  mesh.replaceVideo(cameraTrack());
  refreshControls();
  sendMedia();
}

async function startCall() {
  // One connection at a time: a Join clicked again while a retry is pending, or while joining, replaces it.
  clearTimeout(state.retryTimer);
  state.retryTimer = null;
  const previous = state.signalling;
  state.signalling = null;
  previous?.close();
  state.phase = 'joining';
  state.leaving = false;
  // A rejoin while sharing keeps sending the screen, not the camera behind it.
  mesh.setLocalTracks(state.stream, audioTrack(), state.screenTrack ?? cameraTrack());
  const signalling = new Signalling(settings.wsPath, {
    onMessage: (m) => {
      if (state.signalling !== signalling) return;
      queue = queue.then(() => state.signalling === signalling && onMessage(m)).catch((e) => console.warn('foyer:', e));
    },
    onClose: (code) => {
      // Queued behind the messages that came before it, so an "error" or
      // "ended" explaining the close is handled first.
      queue = queue.then(() => state.signalling === signalling && onClose(code)).catch((e) => console.warn('foyer:', e));
    },
  });
  state.signalling = signalling;
  try {
    await signalling.opened;
  } catch {
    return;
  }
  const { audio, video } = announced();
  signalling.send({ type: 'join', ...settings.target, name: state.name, audio, video });
}

async function onMessage(m) {
  switch (m.type) {
    case 'welcome':
      state.selfId = m.you.id;
      state.retryDelay = RETRY_FIRST_MS;
      mesh.setSelf(m.you.id);
      renderCall();
      // "join" has no screen flag: a rejoin while sharing says so right after.
      if (state.screenTrack) sendMedia();
      return onParticipants(m.participants);
    case 'participants':
      return onParticipants(m.participants);
    case 'offer':
    case 'answer':
    case 'ice':
      return mesh.handle(m);
    case 'ended':
      return finish('ended');
    case 'error':
      if (m.code === 'bad_name') return showPrejoin(m.message);
      if (m.code === 'not_found') return finish('notFound');
      if (m.code === 'closed' || m.code === 'deleted') return finish('ended');
      if (m.code === 'inactive' || m.code === 'waiting_list') return finish('notJoinable');
      return undefined;
    default:
      return undefined;
  }
}

function onParticipants(participants) {
  state.participants = participants;
  mesh.sync(participants);
  renderParticipants();
}

/** Diagnostics lists (window.foyer) that a long outage must not grow without end. */
function remember(list, value) {
  list.push(value);
  if (list.length > 100) list.shift();
}

function onClose(code) {
  remember(state.closes, code);
  if (state.leaving || state.phase === 'ended' || state.phase === 'left' || state.phase === 'failed') return;
  if (code === 4410) return finish('ended');
  if (code === 4404) return finish('notFound');
  if (code === 4403) return finish('notJoinable');
  if (code === 4400 && state.phase === 'prejoin') return; // bad_name: the pre-join screen shows why
  if (!RECONNECT_CODES.has(code)) return finish('failed', code);
  // Dropped (network, server restart, instance reaped): reconnect as a new
  // participant, backing off so that a server that is down is not hammered.
  mesh.closeAll();
  state.signalling = null;
  const notice = document.getElementById('notice');
  if (notice) {
    notice.textContent = t('reconnecting');
    notice.dataset.sticky = '1';
  }
  const delay = state.retryDelay;
  state.retryDelay = Math.min(delay * 2, RETRY_MAX_MS);
  // ±20 %: after a restart, a whole meeting's worth of pages should not return in the same instant.
  const wait = Math.round(delay * (0.8 + Math.random() * 0.4));
  remember(state.retryDelays, wait);
  state.retryTimer = setTimeout(retry, wait);
}

function retry() {
  clearTimeout(state.retryTimer);
  state.retryTimer = null;
  const notice = document.getElementById('notice');
  if (notice) delete notice.dataset.sticky;
  void startCall();
}

// Back online: no point waiting out the backoff.
window.addEventListener('online', () => {
  if (state.retryTimer) retry();
});

function stopMedia() {
  for (const track of state.stream.getTracks()) track.stop();
  state.screenTrack?.stop();
  state.screenTrack = null;
  state.screenStream = null;
}

/** The end screen. `failed`: the server refused this connection for good (`code`); nothing retries. */
function finish(kind, code) {
  state.phase = kind === 'left' || kind === 'failed' ? kind : 'ended';
  state.leaving = true;
  clearTimeout(state.retryTimer);
  state.retryTimer = null;
  state.signalling?.close();
  state.signalling = null;
  mesh.closeAll();
  stopMedia();
  state.participants = [];
  const messages = { left: t('left'), ended: t('ended'), notFound: t('notFound'), notJoinable: t('notJoinable'), failed: t('failed') };
  const body = [el('h1', {}, messages[kind])];
  if (kind === 'failed') body.push(el('p', { class: 'detail' }, `${t('failedCode')} ${code}`));
  if (kind === 'left' || kind === 'failed') {
    body.push(el('button', { type: 'button', class: 'primary', id: 'rejoin', onclick: () => location.reload() }, kind === 'left' ? t('rejoin') : t('tryAgain')));
  }
  root.replaceChildren(el('section', { class: 'plain', id: 'finished', 'data-kind': kind, 'data-code': code }, ...body));
}

function leave() {
  state.leaving = true;
  state.signalling?.send({ type: 'leave' });
  finish('left');
}

window.addEventListener('pagehide', () => {
  if (state.signalling) state.signalling.send({ type: 'leave' });
});

// ---- Start -------------------------------------------------------------

if (params.get('skipPrejoin') === 'true' && state.name) {
  void (async () => {
    const problem = await acquire();
    if (problem) console.warn('foyer:', problem);
    await startCall();
  })();
} else {
  void showPrejoin();
}

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
  selfId: null,
  participants: [],
  signalling: null,
  leaving: false,
  firstRemoteFrameAt: null,
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
  firstRemoteFrameAt: () => state.firstRemoteFrameAt,
  media: () => ({ audio: state.audioOn, video: state.videoOn, screen: Boolean(state.screenTrack) }),
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
    return `${t('deviceError')}${error?.name ?? error}`;
  }
  const mic = audioTrack();
  if (mic) mic.enabled = state.audioOn;
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
    refreshPreview();
    await refreshDevices();
  };

  micButton.addEventListener('click', () => {
    state.audioOn = !state.audioOn;
    const mic = audioTrack();
    if (mic) mic.enabled = state.audioOn;
    refreshButtons();
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
    const showing = state.screenTrack ? new MediaStream([state.screenTrack]) : state.stream;
    if (self.srcObject !== showing) self.srcObject = showing;
    document.getElementById('tile-self').classList.toggle('off', !state.screenTrack && !cameraTrack());
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
  if (tile.video.srcObject !== stream) tile.video.srcObject = stream;
  tile.video.play().catch(() => {
    // Autoplay with sound needs a gesture (skipPrejoin): play muted, offer sound.
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
  state.signalling?.send({ type: 'media', audio: state.audioOn, video: state.videoOn, screen: Boolean(state.screenTrack) });
}

async function toggleMic() {
  state.audioOn = !state.audioOn;
  let mic = audioTrack();
  if (!mic && state.audioOn) {
    try {
      const s = await getLocalMedia({ audio: true, video: false, audioDeviceId: state.audioDevice });
      mic = s.getAudioTracks()[0];
      state.stream.addTrack(mic);
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
  state.screenTrack.addEventListener('ended', stopShare);
  mesh.replaceVideo(state.screenTrack);
  refreshControls();
  sendMedia();
}

function stopShare() {
  if (!state.screenTrack) return;
  state.screenTrack.stop();
  state.screenTrack = null;
  mesh.replaceVideo(cameraTrack());
  refreshControls();
  sendMedia();
}

async function startCall() {
  state.phase = 'joining';
  state.leaving = false;
  mesh.setLocalTracks(state.stream, audioTrack(), cameraTrack());
  const signalling = new Signalling(settings.wsPath, {
    onMessage: (m) => {
      if (state.signalling !== signalling) return;
      queue = queue.then(() => onMessage(m)).catch((e) => console.warn('foyer:', e));
    },
    onClose: (code) => {
      if (state.signalling === signalling) onClose(code);
    },
  });
  state.signalling = signalling;
  try {
    await signalling.opened;
  } catch {
    return;
  }
  signalling.send({ type: 'join', ...settings.target, name: state.name, audio: state.audioOn, video: state.videoOn });
}

async function onMessage(m) {
  switch (m.type) {
    case 'welcome':
      state.selfId = m.you.id;
      mesh.setSelf(m.you.id);
      renderCall();
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

function onClose(code) {
  if (state.leaving || state.phase === 'ended' || state.phase === 'left') return;
  if (code === 4410) return finish('ended');
  if (code === 4404) return finish('notFound');
  if (code === 4403) return finish('notJoinable');
  if (code === 4400 && state.phase === 'prejoin') return;
  // Dropped (network, server restart, instance reaped): reconnect as a new participant.
  mesh.closeAll();
  state.signalling = null;
  const notice = document.getElementById('notice');
  if (notice) {
    notice.textContent = t('reconnecting');
    notice.dataset.sticky = '1';
  }
  setTimeout(() => {
    if (notice) delete notice.dataset.sticky;
    void startCall();
  }, 1500);
}

function stopMedia() {
  for (const track of state.stream.getTracks()) track.stop();
  state.screenTrack?.stop();
  state.screenTrack = null;
}

function finish(kind) {
  state.phase = kind === 'left' ? 'left' : 'ended';
  state.leaving = true;
  state.signalling?.close();
  state.signalling = null;
  mesh.closeAll();
  stopMedia();
  state.participants = [];
  const messages = { left: t('left'), ended: t('ended'), notFound: t('notFound'), notJoinable: t('notJoinable') };
  const body = [el('h1', {}, messages[kind])];
  if (kind === 'left') body.push(el('button', { type: 'button', class: 'primary', id: 'rejoin', onclick: () => location.reload() }, t('rejoin')));
  root.replaceChildren(el('section', { class: 'plain', id: 'finished', 'data-kind': kind }, ...body));
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

// @module public/js/call/local-media — what this page sends: acquiring
// camera and microphone, the mute, camera and share toggles, devices that
// go away mid-call, and telling the others (a `media` message) after each change.
import { getLocalMedia, getScreen } from '../lib/media.js';
import { refreshControls } from './screen.js';
import { announced, audioTrack, cameraTrack } from './tracks.js';

export function sendMedia(c) {
  c.state.signalling?.send({ type: 'media', ...announced(c.state) });
}

/** A device unplugged or a permission revoked mid-call ends its track: stop announcing it. */
function watchEnded(c, track) {
  const { state, mesh } = c;
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
    refreshControls(c);
    sendMedia(c);
  });
}

/** (Re)acquires camera and microphone as the toggles and device choices say; returns a problem to show, or null. */
export async function acquire(c) {
  const { state, mesh, t } = c;
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
  const mic = audioTrack(state);
  if (mic) mic.enabled = state.audioOn;
  // A refused or missing device turns its toggle off, so the buttons offer to
  // retry and the join does not promise what nobody will receive.
  if (!mic) state.audioOn = false;
  if (!cameraTrack(state)) state.videoOn = false;
  for (const track of state.stream.getTracks()) watchEnded(c, track);
  // A join sent while this was running must not go on sending the tracks just stopped.
  mesh.setLocalTracks(state.stream, mic ?? null, state.screenTrack ?? cameraTrack(state));
  if (!mic && !cameraTrack(state)) return t('noDevices');
  return null;
}

export async function toggleMic(c) {
  const { state, mesh } = c;
  state.audioOn = !state.audioOn;
  let mic = audioTrack(state);
  if (!mic && state.audioOn) {
    try {
      const s = await getLocalMedia({ audio: true, video: false, audioDeviceId: state.audioDevice });
      mic = s.getAudioTracks()[0];
      state.stream.addTrack(mic);
      watchEnded(c, mic);
      mesh.replaceAudio(mic);
    } catch {
      state.audioOn = false;
    }
  }
  if (mic) mic.enabled = state.audioOn;
  refreshControls(c);
  sendMedia(c);
}

export async function toggleCamera(c) {
  const { state, mesh } = c;
  state.videoOn = !state.videoOn;
  const current = cameraTrack(state);
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
      watchEnded(c, track);
      if (!state.screenTrack) mesh.replaceVideo(track);
    } catch {
      state.videoOn = false;
    }
  }
  refreshControls(c);
  sendMedia(c);
}

export async function toggleShare(c) {
  const { state, mesh } = c;
  if (state.screenTrack) return stopShare(c);
  try {
    state.screenTrack = await getScreen();
  } catch {
    return;
  }
  state.screenStream = new MediaStream([state.screenTrack]);
  state.screenTrack.addEventListener('ended', () => stopShare(c));
  mesh.replaceVideo(state.screenTrack);
  refreshControls(c);
  sendMedia(c);
}

function stopShare(c) {
  const { state, mesh } = c;
  if (!state.screenTrack) return;
  state.screenTrack.stop();
  state.screenTrack = null;
  state.screenStream = null;
  mesh.replaceVideo(cameraTrack(state));
  refreshControls(c);
  sendMedia(c);
}

/** Everything off (the camera light too), for good: the page is ending. */
export function stopMedia(c) {
  const { state } = c;
  for (const track of state.stream.getTracks()) track.stop();
  state.screenTrack?.stop();
  state.screenTrack = null;
  state.screenStream = null;
}

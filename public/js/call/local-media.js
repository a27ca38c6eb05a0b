// @module public/js/call/local-media — what this page sends. The wish
// (`state.audioOn`, `state.videoOn`: what the person asked for) and the
// reality (the tracks this page holds) are kept apart: buttons, the own
// tile and what the others are told always follow the reality, and a
// wished-for device that arrives late (a permission granted after Join, a
// slow camera, a device plugged in) is sent the moment it is there.
// A track that ends (unplugged, permission revoked) is shown as such, with
// a way to choose another; devices switch with replaceTrack, without
// renegotiating (devices.js).
import { getLocalMedia, getScreen } from '../lib/media.js';
import { rememberedDevice } from './devices.js';
import { announced, audioTrack, cameraTrack, sentTracks } from './tracks.js';

/** What went wrong with a device, from the browser's error: never shown by its raw name. */
export function problemOf(error) {
  switch (error?.name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError':
      return 'blocked';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'missing';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'inUse';
    case 'NotSupportedError':
      return 'unsupported';
    default:
      return 'failed';
  }
}

/** Tells the others what is really sent, once the call is on (a knock or a pending join takes no `media`). */
export function sendMedia(c) {
  if (c.state.phase !== 'call') return;
  c.state.signalling?.send({ type: 'media', ...announced(c.state) });
}

/** After any change of tracks: the media source sends them, the others are told, the screen shows it. */
export function tracksChanged(c) {
  const { state } = c;
  c.media.setLocalTracks(...sentTracks(state));
  sendMedia(c);
  c.refresh();
  c.emit('media');
}

function setProblem(c, kind, problem) {
  c.problems[kind] = problem;
  c.emit('problem');
}

/** A device unplugged or a permission revoked ends its track: shown as ended, with a way to choose another. */
function watchEnded(c, track) {
  track.addEventListener('ended', () => {
    const { state } = c;
    if (!state.stream.getTracks().includes(track)) return;
    state.stream.removeTrack(track);
    setProblem(c, track.kind === 'audio' ? 'audio' : 'video', 'ended');
    tracksChanged(c);
  });
}

function deviceIdFor(c, kind) {
  const { state } = c;
  return kind === 'audio' ? (state.audioDevice ?? rememberedDevice('audioinput')) : (state.videoDevice ?? rememberedDevice('videoinput'));
}

/**
 * (Re)acquires camera and microphone as the wishes and device choices say.
 * Returns the problems ({audio, video}: null, or blocked, missing, inUse,
 * unsupported, failed). A newer call supersedes one still running, whose
 * tracks are then dropped.
 */
export async function acquire(c) {
  const { state } = c;
  const seq = ++c.acquireSeq;
  c.acquiring = true;
  // Stopped first: a phone cannot open its camera twice.
  for (const track of state.stream.getTracks()) track.stop();
  const askedVideo = state.videoOn;
  const { stream, errors } = await getLocalMedia({ audio: true, video: askedVideo, audioDeviceId: deviceIdFor(c, 'audio'), videoDeviceId: deviceIdFor(c, 'video') });
  if (seq !== c.acquireSeq) {
    for (const track of stream.getTracks()) track.stop();
    return { ...c.problems };
  }
  c.acquiring = false;
  // Tracks another step added meanwhile (a toggle) give way to these.
  for (const track of state.stream.getTracks()) if (!stream.getTracks().includes(track)) track.stop();
  state.stream = stream;
  const mic = audioTrack(state);
  if (mic) mic.enabled = state.audioOn;
  c.problems.audio = errors.audio ? problemOf(errors.audio) : null;
  c.problems.video = errors.video ? problemOf(errors.video) : null;
  for (const track of stream.getTracks()) watchEnded(c, track);
  // A camera wished for while this ran (toggled on meanwhile) is still to get.
  if (state.videoOn && !askedVideo && !cameraTrack(state)) await addTrack(c, 'video');
  c.emit('problem');
  tracksChanged(c);
  return { ...c.problems };
}

/** Gets one device (`audio` or `video`) and sends it; false when it could not be had (the problem is kept). */
export async function addTrack(c, kind, { deviceId = deviceIdFor(c, kind), exact = false } = {}) {
  const { state } = c;
  const { stream, errors } = await getLocalMedia({ audio: kind === 'audio', video: kind === 'video', [kind === 'audio' ? 'audioDeviceId' : 'videoDeviceId']: deviceId, exact });
  const track = stream.getTracks()[0];
  if (!track) {
    setProblem(c, kind, problemOf(errors[kind]));
    return false;
  }
  const wished = kind === 'audio' ? state.audioOn : state.videoOn;
  const old = kind === 'audio' ? audioTrack(state) : cameraTrack(state);
  // A muted microphone is switched too (and stays muted); a camera turned off
  // again while it was opening, or anything a full acquire supersedes, is not.
  if (c.acquiring || (!wished && !(kind === 'audio' && old))) {
    track.stop();
    return false;
  }
  if (old) {
    old.stop();
    state.stream.removeTrack(old);
  }
  if (kind === 'audio') track.enabled = state.audioOn;
  state.stream.addTrack(track);
  watchEnded(c, track);
  setProblem(c, kind, null);
  tracksChanged(c);
  return true;
}

/** Microphone on or off, from what is real: without a microphone, "on" opens one. */
export async function toggleMic(c) {
  const { state } = c;
  const mic = audioTrack(state);
  if (announced(state).audio) {
    state.audioOn = false;
    mic.enabled = false;
  } else {
    state.audioOn = true;
    if (mic) mic.enabled = true;
    else if (!c.acquiring) await addTrack(c, 'audio');
  }
  tracksChanged(c);
}

/** Camera on or off; off stops it (the camera light goes out). */
export async function toggleCamera(c) {
  const { state } = c;
  const camera = cameraTrack(state);
  if (announced(state).video) {
    state.videoOn = false;
    camera.stop();
    state.stream.removeTrack(camera);
  } else {
    state.videoOn = true;
    if (!camera && !c.acquiring) await addTrack(c, 'video');
  }
  tracksChanged(c);
}

/** Wished-for devices that are not there are tried again (a device plugged in, a permission granted later). */
export async function retryMissing(c, { blocked = false } = {}) {
  const { state } = c;
  if (c.acquiring || state.phase === 'ended' || state.phase === 'left' || state.phase === 'failed') return;
  for (const kind of ['audio', 'video']) {
    const wished = kind === 'audio' ? state.audioOn : state.videoOn;
    const has = kind === 'audio' ? audioTrack(state) : cameraTrack(state);
    const problem = c.problems[kind];
    // A refusal is asked again only when the permission changed, never on its own.
    if (wished && !has && problem && (problem !== 'blocked' || blocked)) await addTrack(c, kind);
  }
}

export async function toggleShare(c) {
  const { state } = c;
  if (state.screenTrack) return stopShare(c);
  try {
    state.screenTrack = await getScreen();
  } catch {
    return undefined;
  }
  state.screenStream = new MediaStream([state.screenTrack]);
  state.screenTrack.addEventListener('ended', () => stopShare(c));
  tracksChanged(c);
  return undefined;
}

function stopShare(c) {
  const { state } = c;
  if (!state.screenTrack) return;
  state.screenTrack.stop();
  state.screenTrack = null;
  state.screenStream = null;
  tracksChanged(c);
}

/** Everything off (the camera light too), for good: the page is ending. */
export function stopMedia(c) {
  const { state } = c;
  c.acquireSeq += 1;
  c.acquiring = false;
  for (const track of state.stream.getTracks()) track.stop();
  state.screenTrack?.stop();
  state.screenTrack = null;
  state.screenStream = null;
}

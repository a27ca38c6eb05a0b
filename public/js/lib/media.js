// @module public/js/lib/media — camera, microphone and speakers: acquiring
// (each on its own when one of them fails), device lists, screen capture.

/** What the camera is asked for: the device, and a size and rate a call needs (less is sent when the call grows). */
function videoConstraints(deviceId, exact) {
  return { ...(deviceId ? { deviceId: exact ? { exact: deviceId } : { ideal: deviceId } } : {}), width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 24 } };
}

function audioConstraints(deviceId, exact) {
  return deviceId ? { deviceId: exact ? { exact: deviceId } : { ideal: deviceId } } : true;
}

/**
 * Camera and/or microphone. Returns `{ stream, errors }`: the tracks that
 * could be had, and for each kind that could not, the browser's error
 * (`errors.audio`, `errors.video`). A remembered device is only preferred
 * (`exact: false`); one chosen now must be that device.
 */
export async function getLocalMedia({ audio, video, audioDeviceId, videoDeviceId, exact = false }) {
  const constraints = {
    audio: audio ? audioConstraints(audioDeviceId, exact) : false,
    video: video ? videoConstraints(videoDeviceId, exact) : false,
  };
  const errors = {};
  if (!constraints.audio && !constraints.video) return { stream: new MediaStream(), errors };
  if (!navigator.mediaDevices?.getUserMedia) {
    const error = new DOMException('No media devices here', 'NotSupportedError');
    if (audio) errors.audio = error;
    if (video) errors.video = error;
    return { stream: new MediaStream(), errors };
  }
  try {
    return { stream: await navigator.mediaDevices.getUserMedia(constraints), errors };
  } catch (error) {
    if (!(audio && video)) {
      errors[audio ? 'audio' : 'video'] = error;
      return { stream: new MediaStream(), errors };
    }
  }
  // One of the two may be missing or refused: each alone tells which.
  const [a, v] = await Promise.allSettled([
    navigator.mediaDevices.getUserMedia({ audio: constraints.audio }),
    navigator.mediaDevices.getUserMedia({ video: constraints.video }),
  ]);
  if (a.status === 'rejected') errors.audio = a.reason;
  if (v.status === 'rejected') errors.video = v.reason;
  const tracks = [a, v].flatMap((r) => (r.status === 'fulfilled' ? r.value.getTracks() : []));
  return { stream: new MediaStream(tracks), errors };
}

export async function listDevices() {
  if (!navigator.mediaDevices?.enumerateDevices) return { cameras: [], microphones: [], speakers: [] };
  const devices = await navigator.mediaDevices.enumerateDevices();
  return {
    cameras: devices.filter((d) => d.kind === 'videoinput' && d.deviceId),
    microphones: devices.filter((d) => d.kind === 'audioinput' && d.deviceId),
    speakers: devices.filter((d) => d.kind === 'audiooutput' && d.deviceId),
  };
}

/** Whether this browser lets a page choose where sound plays (Chrome, Edge, Firefox; not Safari). */
export function canChooseSpeaker() {
  return typeof HTMLMediaElement !== 'undefined' && 'setSinkId' in HTMLMediaElement.prototype;
}

export async function getScreen() {
  const stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
  return stream.getVideoTracks()[0];
}

export function canShareScreen() {
  return Boolean(navigator.mediaDevices?.getDisplayMedia);
}

// @module public/js/lib/media — camera and microphone: acquiring, device lists, screen capture.

export async function getLocalMedia({ audio, video, audioDeviceId, videoDeviceId }) {
  const constraints = {
    audio: audio ? (audioDeviceId ? { deviceId: { exact: audioDeviceId } } : true) : false,
    video: video
      ? { ...(videoDeviceId ? { deviceId: { exact: videoDeviceId } } : {}), width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 24 } }
      : false,
  };
  if (!constraints.audio && !constraints.video) return new MediaStream();
  try {
    return await navigator.mediaDevices.getUserMedia(constraints);
  } catch (error) {
    // One of the two may be missing or refused: try each alone before giving up.
    if (audio && video) {
      const results = await Promise.allSettled([
        navigator.mediaDevices.getUserMedia({ audio: constraints.audio }),
        navigator.mediaDevices.getUserMedia({ video: constraints.video }),
      ]);
      const tracks = results.flatMap((r) => (r.status === 'fulfilled' ? r.value.getTracks() : []));
      if (tracks.length) return new MediaStream(tracks);
    }
    throw error;
  }
}

export async function listDevices() {
  if (!navigator.mediaDevices?.enumerateDevices) return { cameras: [], microphones: [] };
  const devices = await navigator.mediaDevices.enumerateDevices();
  return {
    cameras: devices.filter((d) => d.kind === 'videoinput'),
    microphones: devices.filter((d) => d.kind === 'audioinput'),
  };
}

export async function getScreen() {
  const stream = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
  return stream.getVideoTracks()[0];
}

export function canShareScreen() {
  return Boolean(navigator.mediaDevices?.getDisplayMedia);
}

// @module public/js/call/tracks — what a page's local media really is, read
// from its state: the tracks it holds, and what it tells the others.

export function audioTrack(state) {
  return state.stream.getAudioTracks()[0] ?? null;
}

export function cameraTrack(state) {
  return state.stream.getVideoTracks()[0] ?? null;
}

/**
 * What the media source is given: the stream, microphone, camera and the
 * shared screen (null when none). The mesh sends the screen in the
 * camera's place, the SFU beside it (media-path.js).
 */
export function sentTracks(state) {
  return [state.stream, audioTrack(state), cameraTrack(state), state.screenTrack ?? null];
}

/** What others are told: only what is really sent, never "camera on" over a black tile. */
export function announced(state) {
  return {
    audio: state.audioOn && Boolean(audioTrack(state)),
    video: state.videoOn && Boolean(cameraTrack(state)),
    screen: Boolean(state.screenTrack),
  };
}

/** Diagnostics lists (window.foyer) that a long outage must not grow without end. */
export function remember(list, value) {
  list.push(value);
  if (list.length > 100) list.shift();
}

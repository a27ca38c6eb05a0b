// @module public/js/meeting/embed — connects the call of any page (meeting,
// waiting, console) to the embedding page through lib/embed-bridge.js:
// what each command does in this call, and whether it may now.
import { createEmbedBridge } from '../lib/embed-bridge.js';
import { leave } from './end.js';
import { toggleCamera, toggleMic, toggleShare } from './local-media.js';
import { settings, state } from './state.js';

const send = (message) => state.signalling?.send(message);

/** Starts the page's bridge (`page`: meeting, waiting or console) and keeps it in `state.bridge` for the call to report to. */
export function startEmbedBridge(page, context = {}) {
  const bridge = createEmbedBridge({ allowedParents: settings.allowedParents ?? [], page, context });
  state.bridge = bridge;
  bridge.setActions({
    state: () => ({ inCall: state.phase === 'call', host: state.host }),
    mute: async () => {
      if (state.audioOn) await toggleMic();
    },
    unmute: async () => {
      if (!state.audioOn) await toggleMic();
      return state.audioOn ? null : 'no_microphone';
    },
    start_camera: async () => {
      if (!state.videoOn) await toggleCamera();
      return state.videoOn ? null : 'no_camera';
    },
    stop_camera: async () => {
      if (state.videoOn) await toggleCamera();
    },
    // Browsers let a page capture the screen only in answer to a person's gesture: the SDK delegates the parent's click where the browser can.
    start_screen_share: async () => {
      if (!state.screenTrack) await toggleShare();
      return state.screenTrack ? null : 'screen_share_refused';
    },
    stop_screen_share: async () => {
      if (state.screenTrack) await toggleShare();
    },
    leave: () => leave(),
    lock: () => send({ type: 'lock' }),
    unlock: () => send({ type: 'unlock' }),
    end: () => send({ type: 'end' }),
  });
  return bridge;
}

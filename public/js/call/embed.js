// @module public/js/call/embed — connects a page's call (meeting, waiting
// client, console) to the page that embeds it, through lib/embed-bridge.js:
// the call's server messages and its end go to the bridge, and the
// bridge's commands run the call's own actions (the functions its buttons
// use), each only when it makes sense now.

import { createEmbedBridge } from '../lib/embed-bridge.js';

const send = (call, message) => call.state.signalling?.send(message);

/**
 * Starts the bridge of a page (`kind`: meeting, waiting or console) over
 * its `call` (call/index.js); `context`: the ids the page's events carry.
 * Returns the bridge, for what the page itself learns (a waiting client's
 * place, a console's line: `bridge.observe({ type, view })`).
 */
export function embedCall(page, call, kind, context = {}) {
  const bridge = createEmbedBridge({ allowedParents: page.settings.allowedParents ?? [], page: kind, context });
  if (!bridge.active) return bridge;
  const { state } = call;
  call.context.on('message', (m) => bridge.observe(m));
  call.context.on('finished', (ending, code) => bridge.finished(ending, code === undefined ? {} : { code }));
  const audioOn = () => call.announced().audio;
  const videoOn = () => call.announced().video;
  bridge.setActions({
    state: () => ({ inCall: state.phase === 'call', host: state.host && !call.context.options.waitingCall }),
    mute: async () => {
      if (audioOn()) await call.toggleMic();
    },
    unmute: async () => {
      if (!audioOn()) await call.toggleMic();
      return audioOn() ? null : 'no_microphone';
    },
    start_camera: async () => {
      if (!videoOn()) await call.toggleCamera();
      return videoOn() ? null : 'no_camera';
    },
    stop_camera: async () => {
      if (videoOn()) await call.toggleCamera();
    },
    // Browsers let a page capture the screen only in answer to a person's gesture: the SDK delegates the parent's click where the browser can.
    start_screen_share: async () => {
      if (!state.screenTrack) await call.toggleShare();
      return state.screenTrack ? null : 'screen_share_refused';
    },
    stop_screen_share: async () => {
      if (state.screenTrack) await call.toggleShare();
    },
    leave: () => call.leave(),
    // Sent as the host's buttons send them, without the confirmation a person gets: the parent asked on purpose.
    lock: () => send(call, { type: 'lock' }),
    unlock: () => send(call, { type: 'unlock' }),
    end: () => send(call, { type: 'end' }),
  });
  return bridge;
}

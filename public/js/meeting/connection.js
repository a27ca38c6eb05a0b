// @module public/js/meeting/connection — the meeting's signalling
// connection: joining, the server's messages, and what each close of the
// socket means (docs/signalling.md): come back, an end screen, or a refusal.
import { Signalling } from '../lib/signalling.js';
import { CloseCode, RECONNECT_CODES } from '../shared/close-codes.js';
import { mesh, renderCall, renderParticipants } from './call.js';
import { finish, leave } from './end.js';
import { sendMedia, toggleCamera, toggleMic, toggleShare } from './local-media.js';
import { showPrejoin } from './prejoin.js';
import { cancelReconnect, reconnectLater, resetBackoff } from './reconnect.js';
import { announced, audioTrack, cameraTrack, remember, settings, state } from './state.js';

const callActions = { toggleMic, toggleCamera, toggleShare, leave };

/** Messages and closes are handled one at a time, in the order they came. */
let queue = Promise.resolve();

/** Connects and joins as `state.name`, sending what `state` says is on. */
export async function startCall() {
  // One connection at a time: a Join clicked again while a retry is pending, or while joining, replaces it.
  cancelReconnect();
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
      resetBackoff();
      mesh.setSelf(m.you.id);
      renderCall(callActions);
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
      if (m.code === 'bad_name') return showPrejoin(startCall, m.message);
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
  remember(state.closes, code);
  if (state.leaving || state.phase === 'ended' || state.phase === 'left' || state.phase === 'failed') return;
  if (code === CloseCode.gone) return finish('ended');
  if (code === CloseCode.notFound) return finish('notFound');
  if (code === CloseCode.notJoinable) return finish('notJoinable');
  if (code === CloseCode.badMessage && state.phase === 'prejoin') return; // bad_name: the pre-join screen shows why
  if (!RECONNECT_CODES.includes(code)) return finish('failed', code);
  // Rejoined as a new participant: the old peer connections are of no use.
  mesh.closeAll();
  state.signalling = null;
  reconnectLater(startCall);
}

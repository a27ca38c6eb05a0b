// @module public/js/meeting/connection — the meeting's signalling
// connection: joining, the server's messages, and what each close of the
// socket means (docs/signalling.md): come back, an end screen, or a refusal.
import { Signalling } from '../lib/signalling.js';
import { CloseCode, RECONNECT_CODES } from '../shared/close-codes.js';
import { mesh, renderCall, renderParticipants } from './call.js';
import { finish, leave } from './end.js';
import { announce, refreshLock, renderKnocks, showMuteRequest } from './host.js';
import { showKnock } from './knock.js';
import { sendMedia, toggleCamera, toggleMic, toggleShare } from './local-media.js';
import { showPrejoin } from './prejoin.js';
import { cancelReconnect, reconnectLater, resetBackoff } from './reconnect.js';
import { announced, audioTrack, cameraTrack, remember, settings, state, t } from './state.js';

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
  state.bridge?.observe(m);
  switch (m.type) {
    case 'knocking':
      resetBackoff();
      return showKnock(m.wasRemoved);
    case 'welcome':
      state.selfId = m.you.id;
      state.host = m.host === true;
      state.locked = m.locked === true;
      state.knocks = [];
      resetBackoff();
      mesh.setSelf(m.you.id);
      // What is sent is what the page has now: the devices may have changed
      // since the join was sent (a pre-join still acquiring, a long knock).
      mesh.setLocalTracks(state.stream, audioTrack(), state.screenTrack ?? cameraTrack());
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
    case 'knocks': {
      const previous = state.knocks;
      state.knocks = m.knocks;
      return renderKnocks(previous);
    }
    case 'lock':
      state.locked = m.locked;
      announce(state.host ? (m.locked ? t('lockedNotice') : '') : '');
      return refreshLock();
    case 'mute_requested':
      return showMuteRequest(toggleMic);
    case 'ended':
      return finish(m.by === 'host' ? 'endedByHost' : 'ended');
    case 'error':
      if (m.code === 'bad_name') return showPrejoin(startCall, m.message);
      if (m.code === 'removed') return finish('removed');
      if (m.code === 'turned_away') return finish('turnedAway');
      // A host action the server did not carry out (the knocker left, the participant was gone).
      if (['forbidden', 'not_found', 'validation_failed'].includes(m.code) && state.phase === 'call') return announce(t('refused') + m.message);
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
  if (code === CloseCode.removed) return finish('removed');
  if (code === CloseCode.turnedAway) return finish('turnedAway');
  if (code === CloseCode.notFound) return finish('notFound');
  if (code === CloseCode.notJoinable) return finish('notJoinable');
  if (code === CloseCode.badMessage && state.phase === 'prejoin') return; // bad_name: the pre-join screen shows why
  if (!RECONNECT_CODES.includes(code)) return finish('failed', code);
  // Rejoined as a new participant: the old peer connections are of no use.
  mesh.closeAll();
  state.signalling = null;
  reconnectLater(startCall);
}

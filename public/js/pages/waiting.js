// @module public/js/pages/waiting — a client's page at a queue or a board
// with a waiting list: the name and device check of the meeting page, then
// the waiting screen, then, once a member takes them, the meeting page's
// call with that member (the same camera, nothing asked again), and a
// closing screen. Its own parts are in public/js/waiting/.
import { mesh } from '../meeting/call.js';
import { startCall } from '../meeting/connection.js';
import { setEndScreen } from '../meeting/end.js';
import { acquire, stopMedia } from '../meeting/local-media.js';
import { showPrejoin } from '../meeting/prejoin.js';
import { startEmbedBridge } from '../meeting/embed.js';
import { embed, lang, params, settings, state } from '../meeting/state.js';
import { CloseCode } from '../shared/close-codes.js';
import { finishLine, forgetPlace, holdsPlace, leaveLine, openLine } from '../waiting/line.js';
import { showDropped, showEnd, showWaiting } from '../waiting/screens.js';
import { wt } from '../waiting/texts.js';

document.documentElement.lang = lang;
if (embed) document.body.classList.add('embed');

const FINAL = new Set(['served', 'left', 'declined', 'closed']);
/** The last view the server sent, and the call this page is in (its meeting id), if any. */
let lastView = null;
let callMeeting = null;
let over = false;

// Test and diagnostics hook (read-only).
window.foyer = {
  phase: () => state.phase,
  view: () => lastView,
  participants: () => state.participants.map((p) => p.name),
  framesDecoded: () => mesh.framesDecoded(),
  stats: () => mesh.stats(),
  /** The first remote video frame of the call (performance.now() time), as on the meeting page. */
  firstRemoteFrameAt: () => state.firstRemoteFrameAt,
};

function end(kind, view) {
  if (over) return;
  over = true;
  clearTimeout(outcomeTimer);
  finishLine();
  if (callMeeting) {
    // The call's own end runs through finish() below; make sure it is torn down.
    state.leaving = true;
    state.signalling?.close();
    state.signalling = null;
    mesh.closeAll();
  }
  stopMedia();
  // A call's end was told by the call itself; a wait that ended without one is told here.
  if (kind === 'declined' || kind === 'closed') state.bridge?.finished(kind, view?.message ? { message: view.message } : {});
  showEnd(kind, view);
}

/** How long to wait for the line to say how a call that ended from the other side ended. */
const OUTCOME_WAIT_MS = 3000;
let outcomeTimer = null;

// The call ends: the client's closing screen, not the meeting's. Hung up by
// the client, it is over; ended from the other side, the line says whether
// they were served or handed back to the front (their member vanished).
setEndScreen((kind) => {
  if (kind !== 'left' && kind !== 'ended') return false;
  callMeeting = null;
  if (kind === 'left') end('served', lastView);
  else if (lastView?.state === 'waiting') void backInLine(lastView);
  else outcomeTimer ??= setTimeout(() => end('served', lastView), OUTCOME_WAIT_MS);
  return true;
});

/** Handed back to the line after a call that did not happen: the camera again (the call stopped it), then the waiting screen. */
async function backInLine(view) {
  clearTimeout(outcomeTimer);
  outcomeTimer = null;
  const problem = await acquire();
  if (problem) console.warn('foyer:', problem);
  if (!over && lastView === view) showWaiting(view, leave);
}

function enterCall(view) {
  callMeeting = view.meetingId;
  settings.target = { meetingId: view.meetingId };
  settings.title = view.servedByName ?? view.space.name;
  void startCall();
}

/** Taken back into the line (the member never came): the call that was being set up is dropped, the camera stays. */
function leaveCall() {
  callMeeting = null;
  state.leaving = true;
  const signalling = state.signalling;
  state.signalling = null;
  signalling?.close();
  mesh.closeAll();
  state.participants = [];
}

function onView(view) {
  lastView = view;
  state.bridge?.observe({ type: 'waiting', view });
  if (over) return;
  if (FINAL.has(view.state)) return end(view.state, view);
  if ((view.state === 'reserved' || view.state === 'in_call') && view.meetingId) {
    if (callMeeting !== view.meetingId) {
      if (callMeeting) leaveCall();
      enterCall(view);
    }
    return;
  }
  if (callMeeting) leaveCall();
  if (outcomeTimer) return void backInLine(view);
  // The board dropped its waiting list: its link now enters the meeting directly, and so does this client.
  if (view.space.hasWaitingList === false) {
    leaveLine();
    return location.reload();
  }
  showWaiting(view, leave);
}

function onRefused(code, error) {
  if (error?.code === 'bad_name') {
    forgetPlace();
    return void showPrejoin(beginWaiting, error.message, prejoinLabels());
  }
  // The board lost its waiting list meanwhile: its link now enters it directly.
  if (error?.code === 'no_waiting_list') return location.reload();
  over = true;
  stopMedia();
  if (code === CloseCode.notFound || code === CloseCode.gone) return showEnd('notFound');
  return showEnd('closed', lastView ?? { space: { closingMessage: settings.waiting.closingMessage ?? null } });
}

function leave() {
  leaveLine();
  over = true;
  stopMedia();
  state.bridge?.finished('left');
  showEnd('left');
}

function beginWaiting() {
  showWaiting(null, leave);
  openLine({ onView, onRefused, onDrop: showDropped });
}

function prejoinLabels() {
  return { heading: settings.title || wt('enterTitle'), intro: wt('enterIntro'), submit: wt('enterLine') };
}

startEmbedBridge('waiting', { slug: settings.waiting.slug });

// A reload (or a return within the grace period) takes the held place back without asking again.
if ((holdsPlace() || params.get('skipPrejoin') === 'true') && state.name) {
  void (async () => {
    const problem = await acquire();
    if (problem) console.warn('foyer:', problem);
    beginWaiting();
  })();
} else {
  void showPrejoin(beginWaiting, undefined, prejoinLabels());
}

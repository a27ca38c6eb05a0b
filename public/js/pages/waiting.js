// @module public/js/pages/waiting — a client's page at a queue or a board
// with a waiting list: the name and device check of the call, then the
// waiting screen, then, once a member takes them, the call with that
// member (the same camera, nothing asked again), and a closing screen.
// Its own parts are in public/js/waiting/. This is the page's entry: it
// creates the page's state, its call and its place in line.
import { embedCall } from '../call/embed.js';
import { createCall } from '../call/index.js';
import { checkNetwork, followReadiness, readinessOf, settledReadiness } from '../call/readiness.js';
import { createPageState } from '../lib/page-state.js';
import { CloseCode } from '../shared/close-codes.js';
import { meetingTexts } from '../shared/strings/meeting.js';
import { meetingHostTexts } from '../shared/strings/meeting-host.js';
import { callTexts } from '../shared/strings/call.js';
import { permissionTexts } from '../shared/strings/permissions.js';
import { createWaitingEntry } from '../waiting/entry.js';
import { createScreens } from '../waiting/screens.js';
import { waitingTranslator } from '../waiting/texts.js';

const page = createPageState({ texts: [meetingTexts, meetingHostTexts, callTexts, permissionTexts] });
const { state, settings, params } = page;
const wt = waitingTranslator(page.lang);
document.documentElement.lang = page.lang;
if (page.embed) document.body.classList.add('embed');

const FINAL = new Set(['served', 'left', 'declined', 'closed']);
/** How long to wait for the line to say how a call that ended from the other side ended. */
const OUTCOME_WAIT_MS = 3000;
/** The last view the server sent, and the call this page is in (its meeting id), if any. */
let lastView = null;
let callMeeting = null;
let over = false;
let outcomeTimer = null;

// The call ends: the client's closing screen, not the meeting's. Hung up by
// the client, it is over; ended from the other side, the line says whether
// they were served or handed back to the front (their member vanished).
const call = createCall(page, {
  waitingCall: true,
  onEnd(kind) {
    if (kind !== 'left' && kind !== 'ended') return false;
    callMeeting = null;
    if (kind === 'left') end('served', lastView);
    else if (lastView?.state === 'waiting') void backInLine(lastView);
    else outcomeTimer ??= setTimeout(() => end('served', lastView), OUTCOME_WAIT_MS);
    return true;
  },
});
const screens = createScreens(page, call, wt);
const bridge = embedCall(page, call, 'waiting', { slug: settings.waiting.slug });
const entry = createWaitingEntry(page, { onView, onRefused, onDrop: () => screens.showDropped(), readiness: () => readinessOf(call.context) });
let unfollow = null;

// Test and diagnostics hook (read-only).
window.foyer = {
  phase: () => state.phase,
  view: () => lastView,
  readiness: () => readinessOf(call.context),
  participants: () => state.participants.map((p) => p.name),
  /** Camera, microphone and screen as the call announces them, as on the meeting page. */
  media: () => call.announced(),
  framesDecoded: () => call.framesDecoded(),
  stats: () => call.stats(),
  peerStates: () => call.peerStates(),
  /** The first remote video frame of the call (performance.now() time), as on the meeting page. */
  firstRemoteFrameAt: () => state.firstRemoteFrameAt,
};

function end(kind, view) {
  if (over) return;
  over = true;
  unfollow?.();
  clearTimeout(outcomeTimer);
  entry.finish();
  if (callMeeting) {
    // The call's own end runs through onEnd above; make sure it is torn down.
    call.drop();
  }
  call.stopMedia();
  // A call's end was told by the call itself; a wait that ended without one is told here.
  if (kind === 'declined' || kind === 'closed') bridge.finished(kind, view?.message ? { message: view.message } : {});
  screens.showEnd(kind, view);
}

/** Handed back to the line after a call that did not happen: the camera again (the call stopped it), then the waiting screen. */
async function backInLine(view) {
  clearTimeout(outcomeTimer);
  outcomeTimer = null;
  // Only devices the client wanted: one let in line with both off (a bare skipPrejoin link) opens none.
  if (state.audioOn || state.videoOn) {
    const problem = await call.acquire();
    if (problem) console.warn('foyer:', problem);
  }
  if (!over && lastView === view) screens.showWaiting(view, leave);
}

function enterCall(view) {
  callMeeting = view.meetingId;
  settings.target = { meetingId: view.meetingId };
  // The call's page names the place and, beside the organization, the clinician.
  settings.title = view.space.name;
  settings.hostName = view.servedByName;
  void call.join();
}

/** Taken back into the line (the member never came): the call that was being set up is dropped, the camera stays. */
function leaveCall() {
  callMeeting = null;
  call.drop();
}

function onView(view) {
  lastView = view;
  bridge.observe({ type: 'waiting', view });
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
    entry.leave();
    return location.reload();
  }
  screens.showWaiting(view, leave);
}

function onRefused(code, error) {
  if (error?.code === 'bad_name') {
    entry.forget();
    return void call.showPrejoin(beginWaiting, error.message, prejoinLabels());
  }
  // The board lost its waiting list meanwhile: its link now enters it directly.
  if (error?.code === 'no_waiting_list') return location.reload();
  over = true;
  call.stopMedia();
  if (code === CloseCode.notFound || code === CloseCode.gone) return screens.showEnd('notFound');
  if (error?.code === 'too_many_waiting' || error?.code === 'line_full') return screens.showEnd('full');
  return screens.showEnd('closed', lastView ?? { space: { closingMessage: settings.waiting.closingMessage ?? null } });
}

function leave() {
  unfollow?.();
  entry.leave();
  over = true;
  call.stopMedia();
  bridge.finished('left');
  screens.showEnd('left');
}

/**
 * In line, with the device and network check: its result (once it had its
 * chance, a few seconds at most) goes with `wait`, and again whenever it
 * changes while the client waits (not during the call, where the member
 * sees and hears them anyway).
 */
async function beginWaiting() {
  screens.showWaiting(null, leave);
  // The pre-join screen ran it already; a page that skipped it (a reload in line) runs it now.
  if (call.context.readiness.rtt === undefined && !call.context.readiness.running) void checkNetwork(call.context);
  const initial = await settledReadiness(call.context);
  if (over) return;
  unfollow?.();
  unfollow = followReadiness(call.context, (readiness) => lastView?.state === 'waiting' && entry.report(readiness), initial);
  entry.open();
}

function prejoinLabels() {
  return { heading: settings.title || wt('enterTitle'), intro: wt('enterIntro'), submit: wt('enterLine') };
}

// A reload (or a return within the grace period) takes the held place back without asking again.
// A bare skipPrejoin link is one anyone can write (another organization on
// this host too): it puts the client in line without a click, but with
// camera and microphone off, no device opened, and so again after a reload;
// the client turns them on with a click. (Boards and queues have no stored
// parameters that could allow more, as a meeting's do.)
const skipPrejoin = params.get('skipPrejoin') === 'true';
if ((entry.holdsPlace() || skipPrejoin) && state.name) {
  void (async () => {
    if (skipPrejoin) {
      state.audioOn = false;
      state.videoOn = false;
    } else {
      const problem = await call.acquire();
      if (problem) console.warn('foyer:', problem);
    }
    beginWaiting();
  })();
} else {
  void call.showPrejoin(beginWaiting, undefined, prejoinLabels());
}

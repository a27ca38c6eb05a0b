// @module public/js/pages/console — a member's console of one board or
// queue (rendered by src/web/views/dashboard/console.eta): the live line,
// accept/decline or take next, the member's own switches, alerts for
// arrivals in the background, and the call with the client they take.
// Its parts are in public/js/console/.
import { mesh } from '../meeting/call.js';
import { startEmbedBridge } from '../meeting/embed.js';
import { settings, state } from '../meeting/state.js';
import { arrived, askToNotify, notifyPermission, unlockSoundOnGesture } from '../console/alerts.js';
import { callMeeting, dropCall, joinCall } from '../console/call.js';
import { ConsoleSocket } from '../console/socket.js';
import { CloseCode } from '../shared/close-codes.js';
import { ct } from '../console/texts.js';
import { renderView } from '../console/view.js';

const $ = (id) => document.getElementById(id);
const page = $('console');
let lastView = null;
let seen = null;
let errorTimer = null;

// Test and diagnostics hook (read-only).
window.foyer = {
  view: () => lastView,
  phase: () => state.phase,
  inCall: () => callMeeting(),
  participants: () => state.participants.map((p) => p.name),
  framesDecoded: () => mesh.framesDecoded(),
  stats: () => mesh.stats(),
  /** The first remote video frame of the call (performance.now() time), as on the meeting page. */
  firstRemoteFrameAt: () => state.firstRemoteFrameAt,
};

function act(type, entryId, message) {
  if (type === 'accept') socket.send({ type: 'accept', entryId });
  else if (type === 'decline') socket.send({ type: 'decline', entryId, message: message ?? null });
}

function showError(text) {
  const box = $('console-error');
  box.textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => (box.textContent = ''), 8000);
}

function onView(view) {
  lastView = view;
  state.bridge?.observe({ type: 'console', view });
  page.dataset.state = 'open';
  $('console-connection').textContent = '';
  // Arrivals since the last view (none on the first: those were there before the page).
  const ids = view.waiting.map((e) => e.id);
  if (seen) arrived(view.waiting.filter((e) => !seen.has(e.id)).map((e) => e.name));
  seen = new Set(ids);
  renderView(view, act);
  const current = view.me.current;
  if (current?.meetingId && (current.state === 'reserved' || current.state === 'in_call')) void joinCall(current, settings.console.memberName);
  else if (callMeeting()) dropCall();
}

const socket = new ConsoleSocket(settings, {
  onView,
  onError: (error) => showError(error.code === 'nobody_waiting' ? ct('error.nobody_waiting') : ct('error.generic', { message: error.message })),
  onDrop: () => {
    page.dataset.state = 'reconnecting';
    $('console-connection').textContent = ct('console.reconnecting');
  },
  onFinal: (code, error) => {
    page.dataset.state = 'closed';
    const reason = error?.message ?? (code === CloseCode.gone ? 'gone' : String(code));
    $('console-connection').textContent = ct('console.closed', { reason });
    for (const id of ['status-active', 'status-auto', 'take-next']) if ($(id)) $(id).disabled = true;
  },
});

$('status-active').addEventListener('change', (event) => socket.send({ type: 'status', isActive: event.target.checked }));
$('status-auto').addEventListener('change', (event) => socket.send({ type: 'status', isAutoAccepting: event.target.checked }));
$('take-next')?.addEventListener('click', () => socket.send({ type: 'take_next' }));

function showNotifyState(permission) {
  const hint = $('notify-state');
  hint.hidden = permission === 'default';
  hint.textContent = permission === 'granted' ? ct('console.notifyOn') : permission === 'denied' ? ct('console.notifyBlocked') : '';
  $('notify').hidden = permission !== 'default';
}
$('notify').addEventListener('click', async () => showNotifyState(await askToNotify()));
showNotifyState(notifyPermission());

// "Waiting since" ages while nobody changes the line.
setInterval(() => lastView && renderView(lastView, act), 30_000);

unlockSoundOnGesture();
startEmbedBridge('console', { spaceId: settings.console.spaceId });
socket.connect();

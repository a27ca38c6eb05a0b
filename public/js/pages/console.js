// @module public/js/pages/console — a member's console of one board or
// queue (rendered by src/web/views/dashboard/console.eta): the live line,
// accept/decline or take next, the member's own switches, alerts for
// arrivals in the background, and the call with the client they take.
// Its parts are in public/js/console/. This is the page's entry: it
// creates the page's state, its console socket and its call.
import { embedCall } from '../call/embed.js';
import { askToNotify, createAlerts, notifyPermission } from '../console/alerts.js';
import { createConsoleCall } from '../console/call.js';
import { ConsoleSocket } from '../console/socket.js';
import { consoleTexts } from '../console/texts.js';
import { createConsoleView } from '../console/view.js';
import { createPageState } from '../lib/page-state.js';
import { CloseCode } from '../shared/close-codes.js';
import { meetingTexts } from '../shared/strings/meeting.js';
import { meetingHostTexts } from '../shared/strings/meeting-host.js';
import { callTexts } from '../shared/strings/call.js';
import { permissionTexts } from '../shared/strings/permissions.js';

const $ = (id) => document.getElementById(id);
// The call's texts in the language the server rendered the page in.
const page = createPageState({ texts: [meetingTexts, meetingHostTexts, callTexts, permissionTexts] });
const { settings, state } = page;
const texts = consoleTexts(document.documentElement.lang || page.lang);
const { ct } = texts;
const renderView = createConsoleView(texts);
const alerts = createAlerts(ct);
const consoleCall = createConsoleCall(page);
const { call } = consoleCall;
const bridge = embedCall(page, call, 'console', { spaceId: settings.console.spaceId });
const box = $('console');
let lastView = null;
let seen = null;
let errorTimer = null;

// Test and diagnostics hook (read-only).
window.foyer = {
  view: () => lastView,
  phase: () => state.phase,
  inCall: () => consoleCall.callMeeting(),
  participants: () => state.participants.map((p) => p.name),
  framesDecoded: () => call.framesDecoded(),
  stats: () => call.stats(),
  peerStates: () => call.peerStates(),
  /** The first remote video frame of the call (performance.now() time), as on the meeting page. */
  firstRemoteFrameAt: () => state.firstRemoteFrameAt,
};

function act(type, entryId, message) {
  if (type === 'accept') socket.send({ type: 'accept', entryId });
  else if (type === 'decline') socket.send({ type: 'decline', entryId, message: message ?? null });
  else if (type === 'remove' && window.confirm(ct('console.removeConfirm', { name: message }))) socket.send({ type: 'remove_client', entryId });
}

function showError(text) {
  const line = $('console-error');
  line.textContent = text;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => (line.textContent = ''), 8000);
}

function onView(view) {
  lastView = view;
  bridge.observe({ type: 'console', view });
  box.dataset.state = 'open';
  $('console-connection').textContent = '';
  // Arrivals since the last view (none on the first: those were there before the page).
  const ids = view.waiting.map((e) => e.id);
  if (seen) alerts.arrived(view.waiting.filter((e) => !seen.has(e.id)).map((e) => e.name));
  seen = new Set(ids);
  renderView(view, act);
  const current = view.me.current;
  if (current?.meetingId && (current.state === 'reserved' || current.state === 'in_call')) void consoleCall.joinCall(current, settings.console.memberName);
  else if (consoleCall.callMeeting()) consoleCall.dropCall();
}

const socket = new ConsoleSocket(settings, {
  onView,
  onError: (error) => {
    // Said in the page's language by the close that follows (onFinal).
    if (error.code === 'signed_out') return;
    showError(error.code === 'nobody_waiting' ? ct('error.nobody_waiting') : ct('error.generic', { message: error.message }));
  },
  onDrop: () => {
    box.dataset.state = 'reconnecting';
    $('console-connection').textContent = ct('console.reconnecting');
  },
  onFinal: (code, error) => {
    box.dataset.state = 'closed';
    for (const id of ['status-active', 'status-auto', 'take-next']) if ($(id)) $(id).disabled = true;
    const line = $('console-connection');
    if (code === CloseCode.signedOut) {
      // Signed out (here or elsewhere), the password set, or no longer a member: sign in again.
      const link = document.createElement('a');
      link.href = `/dashboard/sign-in?next=${encodeURIComponent(location.pathname)}`;
      link.textContent = ct('console.signInAgain');
      line.replaceChildren(ct('console.signedOut') + ' ', link);
      return;
    }
    const reason = error?.message ?? (code === CloseCode.gone ? 'gone' : String(code));
    line.textContent = ct('console.closed', { reason });
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

alerts.unlockSoundOnGesture();
socket.connect();

// @module public/js/pages/meeting — the meeting page (the shell rendered
// for /meetings/:id and /:slug): the pre-join screen, then the call. The
// call component is public/js/call/, the helpers any page uses public/js/lib/.
// This is the page's entry: it creates the page's state and its call.
import { embedCall } from '../call/embed.js';
import { createCall } from '../call/index.js';
import { createPageState } from '../lib/page-state.js';
import { meetingTexts } from '../shared/strings/meeting.js';
import { meetingHostTexts } from '../shared/strings/meeting-host.js';
import { callTexts } from '../shared/strings/call.js';
import { permissionTexts } from '../shared/strings/permissions.js';

/** How long a page that joins with its devices (skipPrejoin) waits for them before it joins. */
const DEVICES_WAIT_MS = 400;

const page = createPageState({ texts: [meetingTexts, meetingHostTexts, callTexts, permissionTexts] });
const { state, params } = page;
document.documentElement.lang = page.lang;
if (page.embed) document.body.classList.add('embed');
const call = createCall(page);
const target = page.settings.target;
embedCall(page, call, 'meeting', 'meetingId' in target ? { meetingId: target.meetingId } : { slug: target.slug });

// Test and diagnostics hook (read-only views of the call).
window.foyer = {
  phase: () => state.phase,
  selfId: () => state.selfId,
  participants: () => state.participants.map((p) => p.name),
  framesDecoded: () => call.framesDecoded(),
  stats: () => call.stats(),
  peerStates: () => call.peerStates(),
  mediaPath: () => call.mediaPath(),
  sfuPairs: () => call.context.media.sfuPairs(),
  firstRemoteFrameAt: () => state.firstRemoteFrameAt,
  media: () => call.announced(),
  closes: () => [...state.closes],
  retryDelays: () => [...state.retryDelays],
  localStreamId: () => state.stream.id,
  host: () => state.host,
  locked: () => state.locked,
  knocks: () => state.knocks.map((k) => k.name),
  hosts: () => state.participants.filter((p) => p.host).map((p) => p.name),
  /** What the live region said (joins, leaves, hands, reactions, messages), oldest first. */
  announcements: () => call.announcements(),
  /** Names of those whose hand is raised. */
  hands: () => state.participants.filter((p) => p.hand).map((p) => p.name),
};

window.addEventListener('pagehide', () => {
  if (state.signalling) state.signalling.send({ type: 'leave' });
});

if (params.get('skipPrejoin') === 'true' && state.name) {
  void (async () => {
    if (!page.settings.joinWithMedia) {
      // Anyone can write this link (another organization on this host too):
      // without a click it never turns on a camera or microphone. Only the
      // meeting's own stored parameters may (see joinWithMedia).
      state.audioOn = false;
      state.videoOn = false;
      return call.join();
    }
    // The join waits for the devices a moment only: its `media` (and an embedding page's `joined`) should say the
    // camera and microphone are on, which the devices that answer in time are; a camera slower than that (one still
    // starting up, a permission prompt) is sent and announced once it answers, as any late camera is.
    const acquired = call.acquire().then((problems) => (problems.audio || problems.video) && console.warn('foyer:', problems));
    await Promise.race([acquired.catch(() => {}), new Promise((resolve) => setTimeout(resolve, DEVICES_WAIT_MS))]);
    await call.join();
    await acquired;
  })();
} else {
  void call.showPrejoin(call.join);
}

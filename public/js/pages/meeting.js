// @module public/js/pages/meeting — the meeting page (the shell rendered
// for /meetings/:id and /:slug): the pre-join screen, then the call. Its
// parts are in public/js/meeting/, the helpers any page uses in public/js/lib/.
import { mesh } from '../meeting/call.js';
import { startCall } from '../meeting/connection.js';
import { acquire } from '../meeting/local-media.js';
import { showPrejoin } from '../meeting/prejoin.js';
import { reconnectWhenOnline } from '../meeting/reconnect.js';
import { startEmbedBridge } from '../meeting/embed.js';
import { announced, embed, lang, params, settings, state } from '../meeting/state.js';

document.documentElement.lang = lang;
if (embed) document.body.classList.add('embed');

// Test and diagnostics hook (read-only views of the call).
window.foyer = {
  phase: () => state.phase,
  selfId: () => state.selfId,
  participants: () => state.participants.map((p) => p.name),
  framesDecoded: () => mesh.framesDecoded(),
  stats: () => mesh.stats(),
  firstRemoteFrameAt: () => state.firstRemoteFrameAt,
  media: () => announced(),
  closes: () => [...state.closes],
  retryDelays: () => [...state.retryDelays],
  localStreamId: () => state.stream.id,
  host: () => state.host,
  locked: () => state.locked,
  knocks: () => state.knocks.map((k) => k.name),
  hosts: () => state.participants.filter((p) => p.host).map((p) => p.name),
};

startEmbedBridge('meeting', 'meetingId' in settings.target ? { meetingId: settings.target.meetingId } : { slug: settings.target.slug });
reconnectWhenOnline(startCall);

window.addEventListener('pagehide', () => {
  if (state.signalling) state.signalling.send({ type: 'leave' });
});

if (params.get('skipPrejoin') === 'true' && state.name) {
  void (async () => {
    const problem = await acquire();
    if (problem) console.warn('foyer:', problem);
    await startCall();
  })();
} else {
  void showPrejoin(startCall);
}

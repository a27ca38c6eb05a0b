// @module public/js/console/call — the member's call with the client they
// took, on the console page itself: the meeting page's call (its modules
// in public/js/meeting/, drawn into the console's #app), joined with the
// member's session so the server knows the call started.
import { setEndScreen } from '../meeting/end.js';
import { startCall } from '../meeting/connection.js';
import { mesh } from '../meeting/call.js';
import { acquire, stopMedia } from '../meeting/local-media.js';
import { root, settings, state } from '../meeting/state.js';

let meetingId = null;

/** The call ended (either side hung up, or it was closed): the console shows the line again. */
setEndScreen(() => {
  meetingId = null;
  state.firstRemoteFrameAt = null;
  root.hidden = true;
  root.replaceChildren();
  return true;
});

export function callMeeting() {
  return meetingId;
}

/** Joins the private call `current.meetingId` with the client, once. */
export async function joinCall(current, memberName) {
  if (meetingId === current.meetingId) return;
  if (meetingId) dropCall();
  meetingId = current.meetingId;
  settings.target = { meetingId };
  settings.title = current.clientName;
  state.name = memberName;
  root.hidden = false;
  const problem = await acquire();
  if (problem) console.warn('foyer:', problem);
  if (meetingId !== current.meetingId) return;
  await startCall();
  root.scrollIntoView({ block: 'start', behavior: 'smooth' });
}

/** The client is no longer this member's (handed back, gone): the call that was being set up is dropped. */
export function dropCall() {
  if (!meetingId) return;
  meetingId = null;
  // Each call's first frame is its own (the page may hold many calls).
  state.firstRemoteFrameAt = null;
  state.leaving = true;
  const signalling = state.signalling;
  state.signalling = null;
  signalling?.close();
  mesh.closeAll();
  stopMedia();
  state.participants = [];
  root.hidden = true;
  root.replaceChildren();
}

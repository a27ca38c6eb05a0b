// @module public/js/console/call — the member's call with the client they
// took, on the console page itself: the call component (public/js/call/),
// drawn into the console's #app, joined with the member's session so the
// server knows the call started.
import { createCall } from '../call/index.js';

/** The console's call, drawn into `page.root`. */
export function createConsoleCall(page) {
  const { settings, state, root } = page;
  let meetingId = null;

  /** The call ended (either side hung up, or it was closed): the console shows the line again. */
  const call = createCall(page, {
    waitingCall: true,
    onEnd() {
      meetingId = null;
      state.firstRemoteFrameAt = null;
      root.hidden = true;
      root.replaceChildren();
      return true;
    },
  });

  /** The client is no longer this member's (handed back, gone): the call that was being set up is dropped. */
  function dropCall() {
    if (!meetingId) return;
    meetingId = null;
    // Each call's first frame is its own (the page may hold many calls).
    state.firstRemoteFrameAt = null;
    call.drop();
    call.stopMedia();
    root.hidden = true;
    root.replaceChildren();
  }

  return {
    call,
    callMeeting: () => meetingId,
    dropCall,
    /** Joins the private call `current.meetingId` with the client, once. */
    async joinCall(current, memberName) {
      if (meetingId === current.meetingId) return;
      if (meetingId) dropCall();
      meetingId = current.meetingId;
      settings.target = { meetingId };
      settings.title = current.clientName;
      state.name = memberName;
      root.hidden = false;
      const problem = await call.acquire();
      if (problem) console.warn('foyer:', problem);
      if (meetingId !== current.meetingId) return;
      await call.join();
      root.scrollIntoView({ block: 'start', behavior: 'smooth' });
    },
  };
}

// @module public/js/call — the call component: one per page, used by every
// page with a call (a meeting or room, a board's or queue's client, a
// member's console). `createCall(page)` builds it over a page's state
// (lib/page-state.js) and returns what it can do as plain functions, so a
// button, a keyboard shortcut or an embedding page can call them alike.
// Nothing here runs on import: the page entry creates the call.
import { Mesh } from '../lib/mesh.js';
import { connect } from './connection.js';
import { finish, leave } from './end.js';
import { acquire, stopMedia, toggleCamera, toggleMic, toggleShare } from './local-media.js';
import { showPrejoin } from './prejoin.js';
import { newBackoff, reconnectWhenOnline } from './reconnect.js';
import { refreshControls, removeTile, showRemote } from './screen.js';
import { announced } from './tracks.js';

/**
 * `onEnd(kind, code)`: a page that uses the call for its own purpose (the
 * waiting page, a member's console) draws its own end; it is called after
 * everything is torn down, and returning false leaves the meeting's end screen.
 */
export function createCall(page, { onEnd = null } = {}) {
  const c = {
    ...page,
    tiles: new Map(),
    /** Messages and closes are handled one at a time, in the order they came. */
    queue: Promise.resolve(),
    backoff: newBackoff(),
    onEnd,
    mesh: null,
  };
  c.mesh = new Mesh({
    iceServers: page.settings.iceServers,
    send: (m) => c.state.signalling?.send(m),
    onStream: (id, stream) => showRemote(c, id, stream),
    onGone: (id) => removeTile(c, id),
  });
  const join = () => connect(c);
  reconnectWhenOnline(c, join);

  const { state } = page;
  return {
    state,
    /** Connects and joins `page.settings.target` as `state.name`. */
    join,
    leave: () => leave(c),
    /** Ends the call from this side without a leave (the page moves on). */
    drop() {
      state.leaving = true;
      const signalling = state.signalling;
      state.signalling = null;
      signalling?.close();
      c.mesh.closeAll();
      state.participants = [];
    },
    finish: (kind, code) => finish(c, kind, code),
    toggleMic: () => toggleMic(c),
    toggleCamera: () => toggleCamera(c),
    toggleShare: () => toggleShare(c),
    acquire: () => acquire(c),
    stopMedia: () => stopMedia(c),
    refreshControls: () => refreshControls(c),
    showPrejoin: (onJoin, message, labels) => showPrejoin(c, onJoin, message, labels),
    /** Read-only views for tests and diagnostics (window.foyer). */
    framesDecoded: () => c.mesh.framesDecoded(),
    stats: () => c.mesh.stats(),
    announced: () => announced(state),
  };
}

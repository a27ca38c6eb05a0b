// @module public/js/lib/embed-bridge — what a Foyer page inside an iframe
// tells the page around it, and what it takes from it (docs/embedding.md).
//
// Events are `{ source: "foyer", type, ... }` with the ids the REST API and
// webhooks use (participantId, meetingId), derived from the server's
// signalling messages the page hands to `observe` and from how its call
// ended (`finished`). Commands are `{ source: "foyer-parent", command,
// requestId }`; each is answered with `command_done` or an `error` event
// naming the command and why it was refused.
//
// Only the origins the organization allowed (the page's settings, the same
// list as its CSP frame-ancestors) ever hear from the page or are listened
// to: every message is addressed to a named origin, never to "*", and a
// message from any other window or origin is ignored without an answer
// (answering would tell it something). Without an allowed origin, or when
// not in a frame, the bridge does nothing at all.
import { COMMAND_SOURCE, COMMANDS, EVENT_SOURCE, HOST_COMMANDS } from '../shared/embed-protocol.js';

const MAX_REQUEST_ID = 64;

function originOf(url) {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

/** How each end of the page's call is told: `finished(kind)` → an event. */
const ENDINGS = {
  ended: 'closed',
  endedByHost: 'ended_by_host',
  removed: 'removed',
  turnedAway: 'turned_away',
  notFound: 'not_found',
  notJoinable: 'not_joinable',
  failed: 'connection_failed',
};

/**
 * `allowedParents`: the exact origins allowed; `page`: 'meeting',
 * 'waiting' or 'console'; `context`: ids every event carries (meetingId,
 * slug, spaceId). Returns the bridge; it starts listening at once and
 * posts `ready`.
 * @param {{ allowedParents?: readonly string[], page: string, context?: Record<string, unknown>, win?: any }} options
 */
export function createEmbedBridge({ allowedParents = [], page, context = {}, win = window }) {
  const parent = win.parent;
  const allowed = new Set(allowedParents);
  // Chromium names the parent's origin for sure: a parent it names that is not allowed hears nothing at all.
  const ancestor = win.location.ancestorOrigins?.[0];
  const active = Boolean(parent) && parent !== win && allowed.size > 0 && (!ancestor || allowed.has(ancestor));
  // Elsewhere the referrer names it (the parent's default referrer policy sends its origin).
  const named = ancestor ?? originOf(win.document.referrer);
  /** The parent's origin once known; until then every allowed origin is tried (the browser delivers only to the real one). */
  let parentOrigin = named && allowed.has(named) ? named : null;
  const ids = { ...context };
  let actions = null;
  let self = null;
  let waitingToEnter = false;
  let participants = new Map();
  let waitingIds = '';
  let lastWaitingPosition;
  let endedReason = null;

  function post(type, fields = {}) {
    if (!active) return;
    const message = { source: EVENT_SOURCE, type, ...ids, ...fields };
    for (const origin of parentOrigin ? [parentOrigin] : allowed) {
      try {
        parent.postMessage(message, origin);
      } catch {
        // A parent that navigated away: nothing to tell.
      }
    }
  }

  function mediaOf(p) {
    return { audio: Boolean(p.audio), video: Boolean(p.video), screen: Boolean(p.screen) };
  }

  function syncParticipants(list) {
    const next = new Map(list.map((p) => [p.id, p]));
    for (const [id, p] of participants) if (!next.has(id) && id !== self?.id) post('participant_left', { participantId: id, displayName: p.name });
    for (const p of list) {
      const before = participants.get(p.id);
      if (!before) {
        if (p.id !== self?.id) post('participant_joined', { participantId: p.id, displayName: p.name, host: Boolean(p.host), ...mediaOf(p) });
      } else if (JSON.stringify(mediaOf(before)) !== JSON.stringify(mediaOf(p))) {
        post('media_changed', { participantId: p.id, self: p.id === self?.id, ...mediaOf(p) });
      }
    }
    participants = next;
  }

  function syncWaiting(entries) {
    const key = entries.map((e) => e.id).join(',');
    if (key === waitingIds) return;
    waitingIds = key;
    post('waiting_changed', { waiting: entries });
  }

  /** A signalling message from the server (or the waiting line's and console's views, as `{ type: 'waiting' | 'console', view }`). */
  function observe(m) {
    switch (m?.type) {
      case 'welcome':
        if (waitingToEnter) post('admitted', {});
        waitingToEnter = false;
        endedReason = null;
        self = { id: m.you.id, name: m.you.name };
        post('joined', { participantId: m.you.id, displayName: m.you.name, host: m.host === true, locked: m.locked === true, ...mediaOf(m.you) });
        participants = new Map([...participants].filter(([id]) => m.participants.some((p) => p.id === id)));
        return syncParticipants(m.participants);
      case 'participants':
        return syncParticipants(m.participants);
      case 'knocking':
        waitingToEnter = true;
        return post('knocking', {});
      case 'knocks':
        return syncWaiting(m.knocks.map((k) => ({ id: k.id, displayName: k.name, since: k.arrivedAt })));
      case 'lock':
        return post(m.locked ? 'locked' : 'unlocked', {});
      case 'chat':
        if (typeof m.text !== 'string') return undefined;
        return post('chat_message', { participantId: m.from, displayName: m.name, text: m.text, self: m.from === self?.id });
      case 'ended':
        endedReason = m.by === 'host' ? 'ended_by_host' : m.reason;
        return undefined;
      case 'error':
        return post('error', { code: m.code, message: m.message });
      case 'waiting': {
        const view = m.view;
        if (view.meetingId) ids.meetingId = view.meetingId;
        if (view.state !== 'waiting') return undefined;
        waitingToEnter = true;
        if (view.position === lastWaitingPosition) return undefined;
        lastWaitingPosition = view.position;
        return post('knocking', { position: view.position, estimateMinutes: view.estimateMinutes });
      }
      case 'console':
        ids.spaceId = m.view.space.id;
        // The call with the client the member took is a meeting of its own, named like any other.
        if (m.view.me.current?.meetingId) ids.meetingId = m.view.me.current.meetingId;
        return syncWaiting(m.view.waiting.map((e) => ({ id: e.id, displayName: e.name, since: e.arrivedAt })));
      default:
        return undefined;
    }
  }

  /** The page's call is over: `kind` as the page's end screens name it (left, ended, endedByHost, removed, …). */
  function finished(kind, detail = {}) {
    const participantId = self?.id;
    self = null;
    participants = new Map();
    if (kind === 'left') return post('left', { participantId });
    return post('ended', { participantId, reason: kind === 'ended' ? (endedReason ?? 'closed') : (ENDINGS[kind] ?? kind), ...detail });
  }

  async function run(command, requestId) {
    const answer = (fields) => post(fields.code ? 'error' : 'command_done', { command, ...(requestId ? { requestId } : {}), ...fields });
    if (command === 'hello') {
      post('ready', { page });
      return answer({});
    }
    if (!COMMANDS.includes(command) && !HOST_COMMANDS.includes(command)) return answer({ code: 'unknown_command', message: `There is no command "${command}".` });
    const now = actions?.state() ?? { inCall: false, host: false };
    if (!now.inCall || !actions?.[command]) return answer({ code: 'not_in_call', message: 'This page is not in a call now.' });
    if (HOST_COMMANDS.includes(command) && !now.host) return answer({ code: 'not_allowed', message: 'Only the host of this meeting may do this.' });
    try {
      const problem = await actions[command]();
      return answer(problem ? { code: problem, message: `"${command}" could not be carried out (${problem}).` } : {});
    } catch (error) {
      return answer({ code: 'failed', message: String(error?.message ?? error) });
    }
  }

  function onMessage(event) {
    if (!active || event.source !== parent || !allowed.has(event.origin)) return;
    const data = event.data;
    if (!data || typeof data !== 'object' || data.source !== COMMAND_SOURCE || typeof data.command !== 'string') return;
    // The parent has shown who it is: from now on, only it is addressed.
    parentOrigin = event.origin;
    const requestId = typeof data.requestId === 'string' && data.requestId.length <= MAX_REQUEST_ID ? data.requestId : undefined;
    void run(data.command, requestId);
  }

  if (active) win.addEventListener('message', onMessage);
  post('ready', { page });

  return {
    active,
    observe,
    finished,
    /** What the commands do, and `state()`: `{ inCall, host }` now. Each action may return a problem code. */
    setActions(table) {
      actions = table;
    },
    /** The page's own ids changed (the call's meeting of a waiting client or a console). */
    setContext(fields) {
      Object.assign(ids, fields);
    },
    stop() {
      win.removeEventListener('message', onMessage);
    },
  };
}

// @module public/js/call/connection — the call's signalling connection:
// joining, the server's messages, and what each close of the socket means
// (docs/signalling.md): come back, an end screen, or a refusal.
import { Signalling } from '../lib/signalling.js';
import { CloseCode, RECONNECT_CODES } from '../shared/close-codes.js';
import { announce as say, announcePresence } from './announce.js';
import { onChat, onChatRefused, onChatState, showChatState } from './chat.js';
import { finish } from './end.js';
import { announce, refreshLock, renderKnocks, showMuteRequest } from './host.js';
import { showKnock } from './knock.js';
import { sendMedia, toggleMic } from './local-media.js';
import { showPrejoin } from './prejoin.js';
import { announceHands, onReaction } from './reactions.js';
import { cancelReconnect, reconnectLater, resetBackoff } from './reconnect.js';
import { refresh, renderCall } from './screen.js';
import { announced, remember, sentTracks } from './tracks.js';

/** Connects and joins as `state.name`, sending what `state` says is on. */
export async function connect(c) {
  const { state, settings } = c;
  // One connection at a time: a Join clicked again while a retry is pending, or while joining, replaces it.
  cancelReconnect(c);
  const previous = state.signalling;
  state.signalling = null;
  previous?.close();
  state.phase = 'joining';
  state.leaving = false;
  // A rejoin while sharing keeps sending the screen.
  c.media.setLocalTracks(...sentTracks(state));
  const signalling = new Signalling(settings.wsPath, {
    onMessage: (m) => {
      if (state.signalling !== signalling) return;
      c.queue = c.queue.then(() => state.signalling === signalling && onMessage(c, m)).catch((e) => console.warn('foyer:', e));
    },
    onClose: (code) => {
      // Queued behind the messages that came before it, so an "error" or
      // "ended" explaining the close is handled first.
      c.queue = c.queue.then(() => state.signalling === signalling && onClose(c, code)).catch((e) => console.warn('foyer:', e));
    },
  });
  state.signalling = signalling;
  try {
    await signalling.opened;
  } catch {
    return;
  }
  const { audio, video } = announced(state);
  c.joinedWith = { audio, video, screen: false };
  // A member's link carries their pass to this meeting (`?pass=`): the server lets them in as that member.
  const pass = c.params.get('pass');
  // Back after a dropped socket: the resume token makes this page the same participant again, so the others keep their connections to it.
  const resume = c.returning ? c.resumeToken : null;
  signalling.send({ type: 'join', ...settings.target, name: state.name, audio, video, ...(pass ? { pass } : {}), ...(resume ? { resume } : {}) });
}

function onWelcome(c, m) {
  const { state } = c;
  state.selfId = m.you.id;
  state.host = m.host === true;
  state.locked = m.locked === true;
  state.chatOff = m.chatOff === true;
  state.knocks = [];
  // Good once, for the next drop; only in memory (a reload leaves, and joins anew).
  c.resumeToken = typeof m.resume === 'string' ? m.resume : null;
  c.resumed = m.resumed === true;
  // Rejoined as a new participant (the resume was refused or too late): the
  // others drop the connections to the old one, so these cannot be kept. A
  // resumed participant keeps its id, and them: media.sync below drops only
  // those to people who left meanwhile.
  if (c.media.selfId && c.media.selfId !== m.you.id) {
    c.media.closeAll();
    c.peerStates.clear();
    c.formerSelfId = c.media.selfId;
  }
  resetBackoff(c);
  c.media.setSelf(m.you.id);
  // What is sent is what the page has now: the devices may have changed
  // since the join was sent (a camera that answered late, a long knock).
  c.media.setLocalTracks(...sentTracks(state));
  state.participants = m.participants;
  // What this server relays besides media (chat, hands, reactions): the page offers only that.
  c.features = new Set(Array.isArray(m.features) ? m.features : []);
  c.videoSlots = Number.isInteger(m.videoSlots) && m.videoSlots > 0 ? m.videoSlots : undefined;
  // Connections first: the offers are made while the call screen is built
  // (building it first held every offer back by a tenth of a second or more).
  // A place already on the SFU: straight there, no mesh offers to everyone first.
  // Before the SFU client is made: a new one says every want itself.
  c.media.sayWantsAgain();
  if (m.sfu === true) c.media.joinSfu();
  c.media.sync(m.participants);
  renderCall(c);
  showChatState(c);
  c.emit('call');
  // `join` said what was there then; whatever changed since (a late camera, a shared screen) is said now.
  // A resumed participant's state is what the server kept from before the drop, not what this join said.
  const held = m.resumed ? { audio: Boolean(m.you.audio), video: Boolean(m.you.video), screen: Boolean(m.you.screen) } : c.joinedWith;
  if (JSON.stringify(announced(state)) !== JSON.stringify(held)) sendMedia(c);
  // A raised hand survives a reconnect.
  if (c.ui.hand && c.features.has('hand')) state.signalling?.send({ type: 'hand', raised: true });
  onParticipants(c, m.participants, null);
  if (c.returning) sayWhoIsBack(c);
  c.returning = false;
}

async function onMessage(c, m) {
  const { state, t } = c;
  // Before anything changes: what listens (an embedding page's bridge) hears the message as it came.
  c.emit('message', m);
  switch (m.type) {
    case 'knocking':
      resetBackoff(c);
      // Back at the door (the meeting was locked meanwhile): no media until let in.
      c.media.closeAll();
      c.returning = false;
      return showKnock(c, m.wasRemoved);
    case 'welcome':
      return onWelcome(c, m);
    case 'participants':
      return onParticipants(c, m.participants, state.participants);
    case 'offer':
    case 'answer':
    case 'ice':
    case 'sfu':
      return c.media.handle(m);
    case 'chat':
      return onChat(c, m);
    case 'reaction':
      return onReaction(c, m);
    case 'knocks': {
      const previous = state.knocks;
      state.knocks = m.knocks;
      return renderKnocks(c, previous);
    }
    case 'lock':
      state.locked = m.locked;
      announce(state.host ? (m.locked ? t('lockedNotice') : '') : '');
      return refreshLock(c);
    case 'host':
      // The member's sign-in ended (signed out, removed): still in the call, without the host's controls.
      if (m.host !== false || !state.host) return undefined;
      state.host = false;
      state.knocks = [];
      for (const id of ['lock', 'end-all']) document.getElementById(id)?.remove();
      renderKnocks(c, []);
      refresh(c);
      return announce(t('noLongerHost'));
    case 'mute_requested':
      return showMuteRequest(c, () => toggleMic(c));
    case 'chat_state':
      return onChatState(c, m.off === true);
    case 'hand_lowered':
      c.ui.hand = false;
      refresh(c);
      return say(c, t('handLoweredByHost'));
    case 'ended':
      return finish(c, m.by === 'host' ? 'endedByHost' : 'ended');
    case 'error':
      // The server could not take this participant back (too late, or spent): it joins the page anew, and its welcome follows.
      if (m.code === 'resume_refused') return void (c.resumeToken = null);
      if (m.code === 'bad_name') return showPrejoin(c, () => connect(c), m.message);
      if (m.code === 'removed') return finish(c, 'removed');
      if (m.code === 'turned_away') return finish(c, 'turnedAway');
      // A chat message or reaction refused (too long, too many): said beside the message box; the call goes on.
      if (m.about === 'chat') return onChatRefused(c, m.code);
      if (m.about === 'reaction') return m.code === 'slow_down' ? say(c, t('reactionSlowDown')) : undefined;
      // A host action the server did not carry out (the knocker left, the participant was gone).
      if (['forbidden', 'not_found', 'validation_failed'].includes(m.code) && state.phase === 'call') return announce(t('refused') + m.message);
      if (m.code === 'not_found') return finish(c, 'notFound');
      if (m.code === 'closed' || m.code === 'deleted') return finish(c, 'ended');
      if (m.code === 'inactive' || m.code === 'waiting_list') return finish(c, 'notJoinable');
      return undefined;
    default:
      return undefined;
  }
}

function onParticipants(c, participants, before) {
  c.state.participants = participants;
  // The server's word on this page's own hand (a second tab of the same person cannot raise it).
  const self = participants.find((p) => p.id === c.state.selfId);
  if (self && 'hand' in self) c.ui.hand = Boolean(self.hand);
  c.media.sync(participants);
  if (before) {
    announcePresence(c, before, participants);
    announceHands(c, before, participants);
  }
  refresh(c);
  c.backNotice?.();
}

function onClose(c, code) {
  const { state } = c;
  remember(state.closes, code);
  if (state.leaving || state.phase === 'ended' || state.phase === 'left' || state.phase === 'failed') return;
  if (code === CloseCode.gone) return finish(c, 'ended');
  if (code === CloseCode.removed) return finish(c, 'removed');
  if (code === CloseCode.turnedAway) return finish(c, 'turnedAway');
  if (code === CloseCode.notFound) return finish(c, 'notFound');
  if (code === CloseCode.notJoinable) return finish(c, 'notJoinable');
  if (code === CloseCode.badMessage && state.phase === 'prejoin') return; // bad_name: the pre-join screen shows why
  if (!RECONNECT_CODES.includes(code)) return finish(c, 'failed', code);
  // The peer connections do not need the socket: they go on carrying media
  // while the page rejoins (until the others hear that this participant left).
  state.signalling = null;
  // Said on every failed attempt too (phase "joining" then): the call is still there until a rejoin.
  c.returning ||= state.phase === 'call';
  reconnectLater(c, () => connect(c), c.returning && state.participants.length > 1 ? c.t('signallingLost') : c.t('reconnecting'));
}

const BACK_NOTICE_MS = 10_000;

/** After a rejoin: who is there now, for a while, and as the list changes meanwhile. */
function sayWhoIsBack(c) {
  const notice = document.getElementById('notice');
  if (!notice) return;
  const show = () => {
    if (!notice.isConnected || notice.dataset.back !== '1') return;
    // Not this page's former self, which the server may list until it has seen the old socket close.
    const others = c.state.participants.filter((p) => p.id !== c.state.selfId && p.id !== c.formerSelfId).map((p) => p.name);
    notice.textContent = others.length ? c.tf('backWith', { names: [...new Set(others)].join(', ') }) : c.t('backAlone');
  };
  notice.dataset.sticky = '1';
  notice.dataset.back = '1';
  show();
  c.backNotice = show;
  setTimeout(() => {
    if (c.backNotice !== show) return;
    c.backNotice = null;
    delete notice.dataset.sticky;
    delete notice.dataset.back;
    refresh(c);
  }, BACK_NOTICE_MS);
}

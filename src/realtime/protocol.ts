/**
 * @module realtime/protocol
 * The signalling protocol's messages (docs/signalling.md is the prose
 * version) and the parser for what clients send. The parser is strict on
 * shape, size and text (no control characters, no lone surrogates, in any
 * field of any type) and rebuilds every message from known fields, so
 * nothing a client adds is ever relayed to anyone else, and nothing
 * malformed reaches the domain.
 */

import { parseReadiness, type Readiness } from '../domain/waiting/types.ts';
import type { IceServer } from './ice.ts';
import type { ClientView, ConsoleView } from '../domain/waiting/views.ts';

/** Largest WebSocket message accepted; `ws` closes the socket with 1009 beyond it. */
export const MAX_MESSAGE_BYTES = 64 * 1024;
export const MAX_SDP_CHARS = 60_000;
export const MAX_CANDIDATE_CHARS = 2_048;
export const MAX_ID_CHARS = 64;

/** Close codes of the signalling socket, shared with the browser pages (which act on them). */
export { CloseCode } from '../../public/js/shared/close-codes.js';

export interface IceCandidate {
  candidate: string;
  sdpMid: string | null;
  sdpMLineIndex: number | null;
  usernameFragment: string | null;
}

export type ClientMessage =
  | { type: 'join'; target: { meetingId: string } | { slug: string }; name: string; audio: boolean; video: boolean; pass: string | null; resume: string | null }
  | { type: 'offer'; to: string; sdp: string }
  /** To `sfu`, an answer names the subscription (the `session` of the offer it answers): one to a subscription replaced since is dropped. */
  | { type: 'answer'; to: string; sdp: string; session?: string }
  /**
   * To `sfu`, a candidate names the connection it belongs to (`session`): the publishing connection's offer's
   * o= session, or the subscription's name.
   */
  | { type: 'ice'; to: string; candidate: IceCandidate | null; session?: string }
  | { type: 'media'; audio: boolean; video: boolean; screen: boolean }
  | { type: 'ping' }
  | { type: 'leave' }
  | { type: 'wait'; slug: string; name: string; token: string | null; readiness: Readiness | null }
  | { type: 'readiness'; readiness: Readiness }
  | { type: 'here' }
  | { type: 'console'; kind: 'board' | 'queue'; spaceId: string }
  | { type: 'accept'; entryId: string }
  | { type: 'decline'; entryId: string; message: string | null }
  | { type: 'take_next' }
  | { type: 'remove_client'; entryId: string }
  | { type: 'status'; isActive: boolean | undefined; isAutoAccepting: boolean | undefined }
  | { type: 'end' }
  | { type: 'remove'; participantId: string }
  | { type: 'ask_mute'; participantId: string }
  | { type: 'lower_hand'; participantId: string }
  | { type: 'set_chat'; off: boolean }
  | { type: 'lock' }
  | { type: 'unlock' }
  | { type: 'admit'; knockId: string }
  | { type: 'turn_away'; knockId: string }
  | { type: 'chat'; text: string }
  | { type: 'hand'; raised: boolean }
  | { type: 'reaction'; emoji: string }
  /** Through the SFU: how much of `from`'s video this page wants (its tile's size, or none beyond the video slots). */
  | { type: 'sfu_want'; from: string; video: VideoWant };

export type VideoWant = 'high' | 'low' | 'off';

export interface ParticipantView {
  id: string;
  name: string;
  audio: boolean;
  video: boolean;
  screen: boolean;
  /** The meeting's host: everyone sees them as the host. */
  host: boolean;
  /** Their hand is raised (kept by the instances, never stored). */
  hand: boolean;
  /** `reconnecting`: their socket dropped and they may come back (the grace period); their media may still flow. */
  state: 'connected' | 'reconnecting';
}

/** A chat message as everyone in the place receives it (the sender too). */
export interface ChatMessage {
  type: 'chat';
  /** The sender's participant id. */
  from: string;
  /** The sender's display name when they sent it. */
  name: string;
  text: string;
  /** When the server relayed it (ISO 8601). */
  at: string;
}

/** A reaction as everyone in the place receives it (the sender too). */
export interface ReactionMessage {
  type: 'reaction';
  from: string;
  emoji: string;
}

/** Someone knocking, as their meeting's host sees them. */
export interface KnockView {
  id: string;
  name: string;
  arrivedAt: string;
  /** They had been removed from this meeting earlier. */
  wasRemoved: boolean;
}

export type ServerMessage =
  | {
      type: 'welcome';
      you: ParticipantView;
      place: { kind: 'meeting' | 'room'; title: string | null };
      participants: ParticipantView[];
      /** You are the meeting's host. */
      host: boolean;
      /** Arrivals knock (always false in a room). */
      locked: boolean;
      /** The host turned the chat off: chat messages are refused (always false in a room). */
      chatOff: boolean;
      /** Where to find a path for media: STUN and TURN servers, with TURN credentials of this participant's own. */
      iceServers: IceServer[];
      /** `relay`: use the TURN relay only (the operator's ICE_TRANSPORT_POLICY). */
      iceTransportPolicy: 'all' | 'relay';
      /** What this server relays besides media and presence: `chat`, `hand`, `reaction`. */
      features: string[];
      /** Send it with the next `join` after a dropped socket to come back as this same participant (good once). */
      resume: string;
      /** This join took a dropped participant's place back (same id). */
      resumed: boolean;
      /** With an SFU: at most this many videos the page shows at once (SFU_VIDEO_SLOTS); the SFU sends no more. */
      videoSlots?: number;
      /** The place is on the SFU already: media goes through it from the start (`sfu` `use` follows). */
      sfu?: true;
    }
  | { type: 'participants'; participants: ParticipantView[] }
  /**
   * From `sfu`: an answer names the session (o= line) of the offer it
   * answers, so an answer to a replaced offer is recognised; an offer names
   * its subscription (Janus gives each of its offers a new o= session, so
   * that cannot tell a renegotiation from a new subscription).
   */
  | { type: 'offer' | 'answer'; from: string; sdp: string; session?: string }
  | { type: 'ice'; from: string; candidate: IceCandidate | null }
  | { type: 'ended'; reason: 'closed' | 'deleted'; by?: 'host' }
  | { type: 'knocking'; wasRemoved: boolean }
  | { type: 'knocks'; knocks: KnockView[] }
  | { type: 'lock'; locked: boolean }
  /** Your member rights ended (signed out, removed): you stay, no longer the host. */
  | { type: 'host'; host: false }
  | { type: 'mute_requested' }
  /** The host lowered your raised hand. */
  | { type: 'hand_lowered'; by: 'host' }
  /** The host turned the chat off or on again. */
  | { type: 'chat_state'; off: boolean }
  | ChatMessage
  | ReactionMessage
  | { type: 'error'; code: string; message: string; about?: 'chat' | 'reaction' }
  | { type: 'pong' }
  | { type: 'waiting'; token: string | undefined; view: ClientView }
  | { type: 'console'; view: ConsoleView }
  | SfuMessage;

/** The peer id that `offer`/`answer`/`ice` address to reach the SFU instead of a participant. */
export const SFU_PEER = 'sfu';

/** What the SFU link tells its browser besides offers and answers (docs/signalling.md, "The sfu peer"). */
export type SfuMessage =
  /** The place's media goes through the SFU from now on: publish to `sfu` (again, with `restart`: the SFU changed). */
  | { type: 'sfu'; event: 'use'; restart: boolean }
  /**
   * Which participant each receiving m-line (by mid) carries, for the subscription offer that follows;
   * a video's `source` says whether it is their camera or a screen they share.
   */
  | { type: 'sfu'; event: 'streams'; streams: Array<{ mid: string; kind: 'audio' | 'video'; from: string; source?: 'camera' | 'screen' }> }
  /** Who is speaking, from the SFU's audio levels. */
  | { type: 'sfu'; event: 'talking'; from: string; talking: boolean };

export class ProtocolError extends Error {
  override name = 'ProtocolError';
}

function fail(message: string): never {
  throw new ProtocolError(message);
}

function str(o: Record<string, unknown>, key: string, max: number): string {
  const v = o[key];
  if (typeof v !== 'string' || v.length === 0 || v.length > max) fail(`"${key}" must be a string of 1 to ${max} characters.`);
  return v;
}

function bool(o: Record<string, unknown>, key: string, fallback?: boolean): boolean {
  const v = o[key];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'boolean') fail(`"${key}" must be true or false.`);
  return v;
}

function nullableStr(o: Record<string, unknown>, key: string, max: number): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length > max) fail(`"${key}" must be a string of at most ${max} characters, or null.`);
  return v;
}

function candidate(v: unknown): IceCandidate | null {
  if (v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) fail('"candidate" must be an object or null.');
  const c = v as Record<string, unknown>;
  const index = c.sdpMLineIndex;
  if (index !== undefined && index !== null && !(Number.isInteger(index) && (index as number) >= 0 && (index as number) < 1024)) {
    fail('"sdpMLineIndex" must be a small whole number or null.');
  }
  const line = c.candidate;
  if (typeof line !== 'string' || line.length > MAX_CANDIDATE_CHARS) fail(`"candidate.candidate" must be a string of at most ${MAX_CANDIDATE_CHARS} characters.`);
  return {
    candidate: line,
    sdpMid: nullableStr(c, 'sdpMid', MAX_ID_CHARS),
    sdpMLineIndex: (index as number | null | undefined) ?? null,
    usernameFragment: nullableStr(c, 'usernameFragment', 256),
  };
}

/** A waiting client's device and network check: the three known fields with known values, or a protocol error. */
function readiness(v: unknown): Readiness {
  const parsed = parseReadiness(v);
  if (!parsed) fail('"readiness" is {camera, microphone, network}: camera and microphone ok, off, blocked, missing or failed; network good, fair, poor or unknown.');
  return parsed;
}

type Fields = Record<string, unknown>;
type MessageOf<T extends ClientMessage['type']> = Extract<ClientMessage, { type: T }>;

/**
 * One parser per client message type: a new message type is one entry
 * here (and one handler in handlers/). Each rebuilds the message from the
 * fields it knows.
 */
const PARSERS: { [T in ClientMessage['type']]: (o: Fields) => MessageOf<T> } = {
  join(o) {
    const hasMeeting = o.meetingId !== undefined;
    const hasSlug = o.slug !== undefined;
    if (hasMeeting === hasSlug) fail('"join" names exactly one of "meetingId" or "slug".');
    const target = hasMeeting ? { meetingId: str(o, 'meetingId', MAX_ID_CHARS) } : { slug: str(o, 'slug', MAX_ID_CHARS) };
    // The display name is checked by the domain (trimmed, 1 to 64 characters).
    // A member's pass to this meeting (domain/member-pass.ts), from the link a server was given for them.
    return { type: 'join', target, name: str(o, 'name', 256), audio: bool(o, 'audio', true), video: bool(o, 'video', true), pass: nullableStr(o, 'pass', 200), resume: nullableStr(o, 'resume', 200) };
  },
  offer: (o) => ({ type: 'offer', to: str(o, 'to', MAX_ID_CHARS), sdp: str(o, 'sdp', MAX_SDP_CHARS) }),
  answer(o) {
    const session = nullableStr(o, 'session', MAX_ID_CHARS);
    return { type: 'answer', to: str(o, 'to', MAX_ID_CHARS), sdp: str(o, 'sdp', MAX_SDP_CHARS), ...(session ? { session } : {}) };
  },
  ice(o) {
    if (!('candidate' in o)) fail('"ice" carries "candidate" (an object, or null at the end of candidates).');
    const session = nullableStr(o, 'session', MAX_ID_CHARS);
    return { type: 'ice', to: str(o, 'to', MAX_ID_CHARS), candidate: candidate(o.candidate), ...(session ? { session } : {}) };
  },
  media: (o) => ({ type: 'media', audio: bool(o, 'audio'), video: bool(o, 'video'), screen: bool(o, 'screen', false) }),
  ping: () => ({ type: 'ping' }),
  leave: () => ({ type: 'leave' }),
  // The display name is checked by the domain, as for `join`.
  here: () => ({ type: 'here' }),
  wait: (o) => ({
    type: 'wait',
    slug: str(o, 'slug', MAX_ID_CHARS),
    name: str(o, 'name', 256),
    token: nullableStr(o, 'token', 100),
    readiness: o.readiness === undefined || o.readiness === null ? null : readiness(o.readiness),
  }),
  readiness: (o) => ({ type: 'readiness', readiness: readiness(o.readiness) }),
  console(o) {
    if (o.kind !== 'board' && o.kind !== 'queue') fail('"kind" is "board" or "queue".');
    return { type: 'console', kind: o.kind, spaceId: str(o, 'spaceId', MAX_ID_CHARS) };
  },
  accept: (o) => ({ type: 'accept', entryId: str(o, 'entryId', MAX_ID_CHARS) }),
  remove_client: (o) => ({ type: 'remove_client', entryId: str(o, 'entryId', MAX_ID_CHARS) }),
  decline: (o) => ({ type: 'decline', entryId: str(o, 'entryId', MAX_ID_CHARS), message: nullableStr(o, 'message', 1000) }),
  take_next: () => ({ type: 'take_next' }),
  status: (o) => ({ type: 'status', isActive: optionalBool(o, 'isActive'), isAutoAccepting: optionalBool(o, 'isAutoAccepting') }),
  end: () => ({ type: 'end' }),
  remove: (o) => ({ type: 'remove', participantId: str(o, 'participantId', MAX_ID_CHARS) }),
  ask_mute: (o) => ({ type: 'ask_mute', participantId: str(o, 'participantId', MAX_ID_CHARS) }),
  lower_hand: (o) => ({ type: 'lower_hand', participantId: str(o, 'participantId', MAX_ID_CHARS) }),
  lock: () => ({ type: 'lock' }),
  unlock: () => ({ type: 'unlock' }),
  set_chat: (o) => ({ type: 'set_chat', off: bool(o, 'off') }),
  admit: (o) => ({ type: 'admit', knockId: str(o, 'knockId', MAX_ID_CHARS) }),
  turn_away: (o) => ({ type: 'turn_away', knockId: str(o, 'knockId', MAX_ID_CHARS) }),
  // Length and the list of reactions are the handlers' to check: a message too long is refused, not the socket closed.
  chat(o) {
    if (typeof o.text !== 'string') fail('"text" must be a string.');
    return { type: 'chat', text: o.text };
  },
  hand: (o) => ({ type: 'hand', raised: bool(o, 'raised') }),
  reaction: (o) => ({ type: 'reaction', emoji: str(o, 'emoji', 16) }),
  sfu_want(o) {
    if (o.video !== 'high' && o.video !== 'low' && o.video !== 'off') fail('"video" is "high", "low" or "off".');
    return { type: 'sfu_want', from: str(o, 'from', MAX_ID_CHARS), video: o.video };
  },
};

function optionalBool(o: Fields, key: string): boolean | undefined {
  return o[key] === undefined ? undefined : bool(o, key);
}

function isMessageType(type: unknown): type is ClientMessage['type'] {
  return typeof type === 'string' && Object.hasOwn(PARSERS, type);
}

/** Control characters (C0, DEL, C1): in no field. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/**
 * The fields that may break lines: SDP (its lines end in CR LF), a
 * decline's message and a chat message's text (free text: tab, CR, LF).
 * Any other control character is refused there too.
 */
const LINE_FIELDS: Readonly<Record<string, RegExp>> = {
  sdp: /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/,
  message: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/,
  text: /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/,
};
/** A UTF-16 surrogate not part of a pair (with the `u` flag, pairs are one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Every string of a parsed message, whatever its type: no control
 * characters (a NUL is refused by PostgreSQL, and no name, id or token
 * holds one) and no lone surrogates. Checked on the rebuilt message, so a
 * new message type is covered without a line of its own.
 */
function checkText(value: unknown, key: string): void {
  if (typeof value === 'string') {
    if ((LINE_FIELDS[key] ?? CONTROL).test(value)) fail(`"${key}" must not contain control characters.`);
    if (LONE_SURROGATE.test(value)) fail(`"${key}" must be well-formed text.`);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) checkText(v, k);
  }
}

/** Parses one text frame; throws `ProtocolError` for anything malformed. */
export function parseClientMessage(text: string): ClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail('A message is one JSON object.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('A message is one JSON object.');
  const o = value as Fields;
  if (!isMessageType(o.type)) fail('Unknown message type.');
  const message = (PARSERS[o.type] as (o: Fields) => ClientMessage)(o);
  checkText(message, 'type');
  return message;
}

/** How a participant is shown to the others. */
export function participantView(p: { id: string; displayName: string; audio: boolean; video: boolean; screen: boolean; host: boolean; hand?: boolean; reconnecting?: boolean }): ParticipantView {
  return { id: p.id, name: p.displayName, audio: p.audio, video: p.video, screen: p.screen, host: p.host, hand: p.hand === true, state: p.reconnecting ? 'reconnecting' : 'connected' };
}

export function knockView(k: { id: string; displayName: string; arrivedAt: Date; wasRemoved: boolean }): KnockView {
  return { id: k.id, name: k.displayName, arrivedAt: k.arrivedAt.toISOString(), wasRemoved: k.wasRemoved };
}

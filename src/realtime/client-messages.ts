/**
 * @module realtime/client-messages
 * The parser for what clients send on the signalling socket (the messages
 * themselves are in protocol.ts). It is strict on shape, size and text (no
 * control characters, no lone surrogates, in any field of any type) and
 * rebuilds every message from known fields, so nothing a client adds is
 * ever relayed to anyone else, and nothing malformed reaches the domain.
 */

import { parseReadiness, type Readiness } from '../domain/waiting/types.ts';
import { MAX_CANDIDATE_CHARS, MAX_ID_CHARS, MAX_SDP_CHARS, MAX_SFU_SDP_CHARS, SFU_PEER, type ClientMessage, type IceCandidate } from './protocol.ts';
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

/** SDP to the SFU grows with the meeting; between two browsers it does not, and it is relayed to another page. */
function sdpLimit(to: string): number {
  return to === SFU_PEER ? MAX_SFU_SDP_CHARS : MAX_SDP_CHARS;
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
  offer: (o) => {
    // Only to `sfu`: the subscription whose connection the page closed since it last published.
    const discarded = nullableStr(o, 'discarded', MAX_ID_CHARS);
    const to = str(o, 'to', MAX_ID_CHARS);
    return { type: 'offer', to, sdp: str(o, 'sdp', sdpLimit(to)), ...(discarded ? { discarded } : {}) };
  },
  answer(o) {
    const session = nullableStr(o, 'session', MAX_ID_CHARS);
    const to = str(o, 'to', MAX_ID_CHARS);
    return { type: 'answer', to, sdp: str(o, 'sdp', sdpLimit(to)), ...(session ? { session } : {}) };
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

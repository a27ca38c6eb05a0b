/**
 * The signalling parser refuses, as `bad_message` before any domain
 * command, a control character or a lone surrogate in any string field of
 * any client message type (SDP may end its lines in CR LF, a decline's
 * message may break lines); well-formed text in the same fields passes.
 * A property over every message type and every string field of it. And
 * the signalling log keeps a failure's class, never its message or stack.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseClientMessage, ProtocolError } from '../../src/realtime/client-messages.ts';
import type { ClientMessage } from '../../src/realtime/protocol.ts';
import { withoutStacks } from '../../src/realtime/realtime.ts';

/** One valid message of every type, with every string field it can carry (the compiler checks none is missing). */
const SAMPLES: { [T in ClientMessage['type']]: Record<string, unknown> } = {
  join: { type: 'join', meetingId: '6f1c1d0e-8a47-4d8e-9a3c-2b1e0f4a5b6c', name: 'Ann Lee', pass: 'pass-text' },
  offer: { type: 'offer', to: 'sfu', sdp: 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n', discarded: 'a-subscription' },
  answer: { type: 'answer', to: 'c_abc', sdp: 'v=0\r\n' },
  ice: { type: 'ice', to: 'c_abc', candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'frag' }, session: '4611686018427387904' },
  media: { type: 'media', audio: true, video: false, screen: false },
  ping: { type: 'ping' },
  leave: { type: 'leave' },
  wait: { type: 'wait', slug: 'cardiology', name: 'Ann', token: 'a-token' },
  console: { type: 'console', kind: 'queue', spaceId: '6f1c1d0e-8a47-4d8e-9a3c-2b1e0f4a5b6c' },
  accept: { type: 'accept', entryId: 'entry-1' },
  decline: { type: 'decline', entryId: 'entry-1', message: 'Sorry,\nplease call us.' },
  take_next: { type: 'take_next' },
  status: { type: 'status', isActive: true, isAutoAccepting: false },
  end: { type: 'end' },
  remove: { type: 'remove', participantId: 'c_abc' },
  ask_mute: { type: 'ask_mute', participantId: 'c_abc' },
  lower_hand: { type: 'lower_hand', participantId: 'c_abc' },
  set_chat: { type: 'set_chat', off: true },
  lock: { type: 'lock' },
  unlock: { type: 'unlock' },
  admit: { type: 'admit', knockId: 'c_knock' },
  turn_away: { type: 'turn_away', knockId: 'c_knock' },
  readiness: { type: 'readiness', readiness: { camera: 'ok', microphone: 'blocked', network: 'good' } },
  here: { type: 'here' },
  remove_client: { type: 'remove_client', entryId: 'entry-1' },
  chat: { type: 'chat', text: 'See you at 3,\nAnn' },
  hand: { type: 'hand', raised: true },
  reaction: { type: 'reaction', emoji: '👍' },
  sfu_want: { type: 'sfu_want', from: 'c_abc', video: 'low' },
};

/** The paths of every string field of a sample, but `type` (which selects the parser). */
function stringPaths(value: unknown, path: string[] = []): string[][] {
  if (typeof value === 'string') return path.length === 1 && path[0] === 'type' ? [] : [path];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => stringPaths(v, [...path, key]));
}

function withField(sample: Record<string, unknown>, path: string[], make: (old: string) => string): Record<string, unknown> {
  const copy = structuredClone(sample);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string, unknown>;
  const last = path.at(-1)!;
  at[last] = make(at[last] as string);
  return copy;
}

/** Every (type, string field) pair: the property draws from these. */
const FIELDS = Object.values(SAMPLES).flatMap((sample) => stringPaths(sample).map((path) => ({ sample, path })));
const controls = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })).map((n) => String.fromCharCode(n));
const loneSurrogates = fc.integer({ min: 0xd800, max: 0xdfff }).map((n) => String.fromCharCode(n));
/** What a line-breaking field may hold. */
const allowedIn = (field: string, ch: string) =>
  field === 'sdp' ? ch === '\r' || ch === '\n' : field === 'message' || field === 'text' ? ch === '\r' || ch === '\n' || ch === '\t' : false;

describe('an offer to the SFU', () => {
  it('keeps the subscription the page says it discarded, and refuses one that is not a string', () => {
    assert.deepEqual(parseClientMessage(JSON.stringify(SAMPLES.offer)), SAMPLES.offer);
    const { discarded: _, ...plain } = SAMPLES.offer;
    assert.deepEqual(parseClientMessage(JSON.stringify(plain)), plain, 'absent: absent');
    assert.throws(() => parseClientMessage(JSON.stringify({ ...SAMPLES.offer, discarded: 7 })), ProtocolError);
  });

  it('takes an answer to the SFU as long as a meeting of a few hundred makes it, and keeps SDP between two browsers short', () => {
    const sdp = `v=0\r\n${'a=x\r\n'.repeat(20_000)}`;
    assert.equal((parseClientMessage(JSON.stringify({ type: 'answer', to: 'sfu', sdp, session: 's1' })) as { sdp: string }).sdp, sdp);
    assert.throws(() => parseClientMessage(JSON.stringify({ type: 'answer', to: 'c_abc', sdp })), ProtocolError);
    assert.throws(() => parseClientMessage(JSON.stringify({ type: 'answer', to: 'sfu', sdp: 'a'.repeat(400_001) })), ProtocolError);
  });
});

describe('control characters and lone surrogates in signalling fields', () => {
  it('covers every message type with string fields', () => {
    const types = new Set(FIELDS.map((f) => f.sample.type));
    for (const type of ['join', 'offer', 'answer', 'ice', 'wait', 'console', 'accept', 'decline', 'remove', 'ask_mute', 'admit', 'turn_away', 'readiness', 'remove_client', 'chat', 'reaction', 'sfu_want']) assert.ok(types.has(type), type);
    for (const { sample } of FIELDS) assert.doesNotThrow(() => parseClientMessage(JSON.stringify(sample)), JSON.stringify(sample));
  });

  it('refuses a control character anywhere in any string field of any type, as a ProtocolError (bad_message)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), controls, fc.nat(), ({ sample, path }, ch, at) => {
        fc.pre(!allowedIn(path.at(-1)!, ch));
        const message = withField(sample, path, (old) => old.slice(0, at % (old.length + 1)) + ch + old.slice(at % (old.length + 1)));
        // Any ProtocolError is `bad_message` (an enum field such as `kind` is refused by its own rule first).
        assert.throws(() => parseClientMessage(JSON.stringify(message)), ProtocolError);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a lone surrogate in any string field of any type', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), loneSurrogates, ({ sample, path }, ch) => {
        const message = withField(sample, path, (old) => old + ch);
        assert.throws(() => parseClientMessage(JSON.stringify(message)), ProtocolError);
      }),
      { numRuns: 500 },
    );
  });

  it('takes any well-formed text without control characters in the same fields', () => {
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).filter((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s));
    fc.assert(
      fc.property(fc.constantFrom(...FIELDS), text, ({ sample, path }, value) => {
        const message = withField(sample, path, () => value);
        // Shape rules (lengths, the pass's form) are the parser's own; only text is under test here.
        try {
          parseClientMessage(JSON.stringify(message));
        } catch (error) {
          assert.ok(!/control characters|well-formed/.test((error as Error).message), (error as Error).message);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps CR LF in SDP and line breaks in a decline’s message and a chat message', () => {
    assert.equal((parseClientMessage(JSON.stringify(SAMPLES.chat)) as { text: string }).text, 'See you at 3,\nAnn');
    assert.equal((parseClientMessage(JSON.stringify(SAMPLES.offer)) as { sdp: string }).sdp, 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n');
    assert.equal((parseClientMessage(JSON.stringify(SAMPLES.decline)) as { message: string }).message, 'Sorry,\nplease call us.');
    assert.throws(() => parseClientMessage(JSON.stringify({ ...SAMPLES.offer, sdp: 'v=0\u0000\r\n' })), ProtocolError);
  });
});

describe('the signalling log', () => {
  it('keeps a failure’s class and code, never its message or stack', () => {
    const lines: object[] = [];
    const log = withoutStacks({ warn: (o) => lines.push(o), error: (o) => lines.push(o) });
    const error = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00 select * from waiting where id = $1'), { code: '22021' });
    log.error({ err: error, role: 'console' }, 'realtime: message handling failed');
    assert.deepEqual(lines, [{ role: 'console', failure: { name: 'Error', code: '22021' } }]);
    assert.ok(!JSON.stringify(lines).includes('select'), 'no message');
  });
});

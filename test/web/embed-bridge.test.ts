/**
 * The embedded page's bridge (public/js/lib/embed-bridge.js) with a fake
 * window, so every rule is seen exactly: messages go only to the allowed
 * origins, each addressed by name (never "*"), and to the parent alone
 * once it showed its origin; nothing at all without an allowed origin or
 * outside a frame; commands from another window or origin are ignored
 * unanswered; host commands are refused to a guest, and everything before
 * the call; events carry the REST API's ids and follow the server's
 * messages. The SDK's copy of the protocol is the page's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createEmbedBridge } from '../../public/js/lib/embed-bridge.js';
import { COMMAND_SOURCE, COMMANDS, EVENT_TYPES, HOST_COMMANDS } from '../../public/js/shared/embed-protocol.js';

interface Posted {
  message: Record<string, unknown>;
  origin: string;
}

function fakeWindow(options: { framed?: boolean; ancestor?: string; referrer?: string } = {}) {
  const posted: Posted[] = [];
  const listeners: Array<(event: unknown) => void> = [];
  const parent = { postMessage: (message: Record<string, unknown>, origin: string) => posted.push({ message: structuredClone(message), origin }) };
  const win: any = {
    location: { ancestorOrigins: options.ancestor ? [options.ancestor] : undefined },
    document: { referrer: options.referrer ?? '' },
    addEventListener: (_type: string, listener: (event: unknown) => void) => listeners.push(listener),
    removeEventListener: () => {},
  };
  win.parent = options.framed === false ? win : parent;
  const deliver = (data: unknown, origin: string, source: unknown = parent) => {
    for (const listener of listeners) listener({ data, origin, source });
  };
  return { win, posted, parent, deliver };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const types = (posted: Posted[]) => posted.map((p) => p.message.type);
const ALLOWED = ['https://portal.example.org', 'https://app.example.org'];
const welcome = (you: Record<string, unknown>, participants: Array<Record<string, unknown>>, host = false) => ({ type: 'welcome', you, participants, host, locked: false, place: { kind: 'meeting', title: null } });
const p = (id: string, name: string, media: Partial<Record<'audio' | 'video' | 'screen', boolean>> = {}) => ({ id, name, audio: true, video: true, screen: false, host: false, ...media });

describe('the embed bridge', () => {
  it('posts nothing outside a frame, and nothing without an allowed origin', () => {
    for (const [options, allowed] of [[{ framed: false }, ALLOWED], [{}, []]] as const) {
      const { win, posted, deliver } = fakeWindow(options);
      const bridge = createEmbedBridge({ allowedParents: allowed, page: 'meeting', context: { meetingId: 'm1' }, win });
      bridge.observe(welcome(p('me', 'Me'), [p('me', 'Me')]));
      deliver({ source: COMMAND_SOURCE, command: 'hello' }, ALLOWED[0]!);
      assert.equal(bridge.active, false);
      assert.deepEqual(posted, []);
    }
  });

  it('addresses every allowed origin by name until it knows the parent’s, then only that one; never "*"', async () => {
    const { win, posted, deliver } = fakeWindow();
    createEmbedBridge({ allowedParents: ALLOWED, page: 'meeting', context: { meetingId: 'm1' }, win });
    assert.deepEqual(posted.map((x) => x.origin), ALLOWED);
    assert.deepEqual(posted[0]!.message, { source: 'foyer', type: 'ready', meetingId: 'm1', page: 'meeting' });
    posted.length = 0;
    deliver({ source: COMMAND_SOURCE, command: 'hello', requestId: 'r1' }, 'https://app.example.org');
    await flush();
    assert.deepEqual(posted.map((x) => `${x.origin} ${x.message.type}`), ['https://app.example.org ready', 'https://app.example.org command_done']);
    assert.equal(posted[1]!.message.requestId, 'r1');
  });

  it('knows the parent from ancestorOrigins or the referrer when allowed, and ignores a named parent that is not', () => {
    const named = fakeWindow({ ancestor: 'https://portal.example.org' });
    createEmbedBridge({ allowedParents: ALLOWED, page: 'meeting', win: named.win });
    assert.deepEqual(named.posted.map((x) => x.origin), ['https://portal.example.org']);
    const referred = fakeWindow({ referrer: 'https://app.example.org/patients/42' });
    createEmbedBridge({ allowedParents: ALLOWED, page: 'meeting', win: referred.win });
    assert.deepEqual(referred.posted.map((x) => x.origin), ['https://app.example.org']);
    const stranger = fakeWindow({ referrer: 'https://evil.example/' });
    createEmbedBridge({ allowedParents: ALLOWED, page: 'meeting', win: stranger.win });
    assert.deepEqual(stranger.posted.map((x) => x.origin), ALLOWED, 'the browser delivers to none of them');
    const framedByStranger = fakeWindow({ ancestor: 'https://evil.example' });
    assert.equal(createEmbedBridge({ allowedParents: ALLOWED, page: 'meeting', win: framedByStranger.win }).active, false);
    assert.deepEqual(framedByStranger.posted, []);
  });

  it('ignores, without a word, commands from another origin, another window, or of another shape', async () => {
    const { win, posted, deliver } = fakeWindow({ ancestor: ALLOWED[0] });
    const bridge = createEmbedBridge({ allowedParents: ALLOWED, page: 'meeting', win });
    let muted = 0;
    bridge.setActions({ state: () => ({ inCall: true, host: true }), mute: () => void muted++ });
    posted.length = 0;
    deliver({ source: COMMAND_SOURCE, command: 'mute' }, 'https://evil.example');
    deliver({ source: COMMAND_SOURCE, command: 'mute' }, ALLOWED[0]!, { postMessage() {} });
    deliver({ source: 'foyer', command: 'mute' }, ALLOWED[0]!);
    deliver('mute', ALLOWED[0]!);
    deliver({ source: COMMAND_SOURCE, command: 42 }, ALLOWED[0]!);
    await flush();
    assert.equal(muted, 0);
    assert.deepEqual(posted, []);
  });

  it('refuses commands before the call, host commands to a guest, and unknown ones, each with an error naming it', async () => {
    const { win, posted, deliver } = fakeWindow({ ancestor: ALLOWED[0] });
    const bridge = createEmbedBridge({ allowedParents: ALLOWED, page: 'meeting', win });
    const done: string[] = [];
    let inCall = false;
    const table: Record<string, unknown> = { state: () => ({ inCall, host: false }) };
    for (const c of [...COMMANDS, ...HOST_COMMANDS]) table[c] = () => void done.push(c);
    table.unmute = () => 'no_microphone';
    bridge.setActions(table);
    posted.length = 0;
    const send = async (command: string) => {
      deliver({ source: COMMAND_SOURCE, command, requestId: `id-${command}` }, ALLOWED[0]!);
      await flush();
      return posted.at(-1)!.message;
    };
    assert.deepEqual(await send('mute'), { source: 'foyer', type: 'error', command: 'mute', requestId: 'id-mute', code: 'not_in_call', message: 'This page is not in a call now.' });
    inCall = true;
    assert.equal((await send('mute')).type, 'command_done');
    for (const c of HOST_COMMANDS) assert.equal((await send(c)).code, 'not_allowed');
    assert.equal((await send('format_disk')).code, 'unknown_command');
    assert.equal((await send('unmute')).code, 'no_microphone');
    assert.deepEqual(done, ['mute']);
  });

  it('tells joined, participants coming and going, media changes, knocking, admitted, waiting lists and how the call ended, with the API’s ids', () => {
    const { win, posted } = fakeWindow({ ancestor: ALLOWED[0] });
    const bridge = createEmbedBridge({ allowedParents: ALLOWED, page: 'meeting', context: { meetingId: 'm1' }, win });
    posted.length = 0;
    bridge.observe({ type: 'knocking', wasRemoved: false });
    bridge.observe(welcome(p('me', 'Me'), [p('me', 'Me'), p('ann', 'Ann')], true));
    bridge.observe({ type: 'participants', participants: [p('me', 'Me', { audio: false }), p('ann', 'Ann'), p('bob', 'Bob')] });
    bridge.observe({ type: 'participants', participants: [p('me', 'Me', { audio: false }), p('bob', 'Bob', { screen: true })] });
    bridge.observe({ type: 'knocks', knocks: [{ id: 'k1', name: 'Kit', arrivedAt: '2026-01-01T00:00:00.000Z', wasRemoved: false }] });
    bridge.observe({ type: 'knocks', knocks: [{ id: 'k1', name: 'Kit', arrivedAt: '2026-01-01T00:00:00.000Z', wasRemoved: false }] });
    bridge.observe({ type: 'lock', locked: true });
    bridge.observe({ type: 'ended', reason: 'closed', by: 'host' });
    bridge.finished('ended');
    const messages = posted.map((x) => x.message);
    assert.deepEqual(types(posted), ['knocking', 'admitted', 'joined', 'participant_joined', 'media_changed', 'participant_joined', 'participant_left', 'media_changed', 'waiting_changed', 'locked', 'ended']);
    assert.ok(messages.every((m) => m.source === 'foyer' && m.meetingId === 'm1'));
    assert.deepEqual(messages[2], { source: 'foyer', type: 'joined', meetingId: 'm1', participantId: 'me', displayName: 'Me', host: true, locked: false, audio: true, video: true, screen: false });
    assert.deepEqual(messages[3], { source: 'foyer', type: 'participant_joined', meetingId: 'm1', participantId: 'ann', displayName: 'Ann', host: false, audio: true, video: true, screen: false });
    assert.deepEqual(messages[4], { source: 'foyer', type: 'media_changed', meetingId: 'm1', participantId: 'me', self: true, audio: false, video: true, screen: false });
    assert.deepEqual(messages[6], { source: 'foyer', type: 'participant_left', meetingId: 'm1', participantId: 'ann', displayName: 'Ann' });
    assert.deepEqual(messages[8]!.waiting, [{ id: 'k1', displayName: 'Kit', since: '2026-01-01T00:00:00.000Z' }]);
    assert.deepEqual(messages[10], { source: 'foyer', type: 'ended', meetingId: 'm1', participantId: 'me', reason: 'ended_by_host' });
  });

  it('tells a waiting client’s place in line once per change, and a leave as left', () => {
    const { win, posted } = fakeWindow({ ancestor: ALLOWED[0] });
    const bridge = createEmbedBridge({ allowedParents: ALLOWED, page: 'waiting', context: { slug: 'walk-in' }, win });
    posted.length = 0;
    const view = (position: number | null, state = 'waiting', meetingId: string | null = null) => ({ type: 'waiting', view: { state, position, estimateMinutes: 5, meetingId } });
    bridge.observe(view(2));
    bridge.observe(view(2));
    bridge.observe(view(1));
    bridge.observe(view(null, 'in_call', 'm9'));
    bridge.observe(welcome(p('me', 'Me'), [p('me', 'Me'), p('doc', 'Dr Doc')]));
    bridge.finished('left');
    assert.deepEqual(types(posted), ['knocking', 'knocking', 'admitted', 'joined', 'participant_joined', 'left']);
    assert.equal(posted[1]!.message.position, 1);
    assert.equal(posted[3]!.message.meetingId, 'm9');
    assert.deepEqual(posted[5]!.message, { source: 'foyer', type: 'left', slug: 'walk-in', meetingId: 'm9', participantId: 'me' });
  });

  it('is the protocol the SDK speaks: the same event types and message sources', () => {
    const sdk = readFileSync(new URL('../../public/sdk/foyer.js', import.meta.url), 'utf8');
    const list = /const EVENT_TYPES = \[([\s\S]*?)\];/.exec(sdk)![1]!;
    assert.deepEqual([...list.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]), EVENT_TYPES);
    assert.match(sdk, new RegExp(`const COMMAND_SOURCE = '${COMMAND_SOURCE}'`));
    for (const command of [...COMMANDS, ...HOST_COMMANDS]) assert.match(sdk, new RegExp(`this\\.command\\('${command}'\\)`), command);
  });
});

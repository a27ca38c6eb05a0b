/**
 * Joining a large meeting in two steps (sessions/sfu-large-join.ts): who
 * comes first, when a meeting joins in one step, and the gate and hold
 * that the link and the subscription build on.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VideoRoomPublisher } from 'janode/plugins/videoroom';
import { firstFeeds, Gate, HeldBack, takesAllAtFirst } from '../../src/realtime/sessions/sfu-large-join.ts';

type Stream = { type: 'audio' | 'video'; mid: string; disabled?: boolean };
const publisher = (feed: number, streams: Stream[] = [{ type: 'audio', mid: '0' }, { type: 'video', mid: '1' }]): VideoRoomPublisher =>
  ({ feed, display: `p${feed}`, streams: streams.map((s, mindex) => ({ ...s, mindex })) });

describe('Joining a large meeting', () => {
  it('gives the first places to those whose video the page shows (the latest wants among those present), then those talking, then those it said nothing of', () => {
    const publishers = new Map([11, 12, 13, 14, 15, 16, 17, 18].map((f) => [f, `p${f}`] as const));
    // Two slots: p17's and p18's videos; a want for someone gone since takes no slot.
    const wants = new Map<string, 'high' | 'low' | 'off'>([['p11', 'off'], ['p17', 'low'], ['p18', 'low'], ['gone', 'low']]);
    const first = firstFeeds(publishers, wants, new Set([13]), 2);
    assert.deepEqual([...first].sort(), [12, 13, 14, 15, 17, 18]);
  });

  it('joins in one step where there are no more others than the page shows videos of (six at least), counting only those who publish', () => {
    const others = (n: number) => Array.from({ length: n }, (_, i) => publisher(20 + i));
    assert.equal(takesAllAtFirst([...others(9), publisher(7)], 7, 9), true, 'nine others with nine slots, the link’s own feed aside');
    assert.equal(takesAllAtFirst(others(10), 7, 9), false);
    assert.equal(takesAllAtFirst(others(6), 7, 2), true, 'six at least');
    assert.equal(takesAllAtFirst([...others(6), publisher(40, []), publisher(41, [{ type: 'video', mid: '2', disabled: true }])], 7, 2), true, 'joined without media, or nothing live');
    assert.equal(takesAllAtFirst(others(7), 7, 2), false);
  });

  it('gate: holds steps in order (unless let through) until opened with its latest key, and opens by itself after a while', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const ran: string[] = [];
    const gate = new Gate();
    const older = gate.close(3000);
    gate.pass(() => ran.push('offer'));
    const newer = gate.close(3000);
    gate.pass(() => ran.push('candidate'));
    gate.pass(() => ran.push('let through'), true);
    assert.deepEqual(ran, ['let through'], 'what passes at once is not held');
    ran.length = 0;
    gate.open(older);
    assert.equal(ran.length, 0, 'a closing since replaced opens nothing');
    gate.open(newer);
    assert.deepEqual(ran, ['offer', 'candidate']);
    gate.pass(() => ran.push('at once'));
    assert.deepEqual(ran, ['offer', 'candidate', 'at once']);
    gate.close(3000);
    gate.pass(() => ran.push('late'));
    t.mock.timers.tick(3000);
    assert.deepEqual(ran.at(-1), 'late');
    gate.close(3000);
    gate.pass(() => ran.push('dropped'));
    gate.clear();
    t.mock.timers.tick(3000);
    assert.equal(ran.includes('dropped'), false);
  });

  it('hold: released at the soonest time asked for, and never once stopped', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    let released = 0;
    const held = new HeldBack(() => (released += 1));
    held.hold(15_000);
    held.releaseIn(3000);
    held.releaseIn(500);
    held.releaseIn(3000);
    t.mock.timers.tick(499);
    assert.equal(released, 0);
    t.mock.timers.tick(1);
    assert.equal(released, 1);
    t.mock.timers.tick(15_000);
    assert.equal(released, 1, 'once');
    held.hold(15_000);
    held.stop();
    held.releaseIn(10);
    t.mock.timers.tick(15_000);
    assert.equal(released, 1);
  });
});

/**
 * What the page's SFU subscription (public/js/lib/sfu-subscription.js)
 * reads of its connection, with a stand-in for RTCPeerConnection: each
 * participant's audio level and inbound figures from one pass over the
 * receivers and one over the stats report, whoever the m-lines carry (a
 * camera, a microphone, a shared screen), and one reading shared by the
 * callers of the same moment. The browsers are in test/sfu.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SfuSubscription } from '../../public/js/lib/sfu-subscription.js';

type Line = { mid: string; kind: 'audio' | 'video'; from: string; source?: 'camera' | 'screen' | null; level?: number };

/** A subscription whose connection carries `lines`, and the stats report it reads (one inbound-rtp per line). */
function subscription(lines: Line[], remote: string[]) {
  const sub = new SfuSubscription({ iceServers: [], iceTransportPolicy: 'all', send() {}, boundMs: 8000, onStream() {}, onGone() {}, onScreen() {}, onLost() {}, peer: 'sfu' });
  const transceivers = lines.map((l) => ({
    mid: l.mid,
    receiver: { track: { id: `track-${l.mid}`, kind: l.kind }, getSynchronizationSources: () => (l.level === undefined ? [] : [{ audioLevel: l.level }]) },
  }));
  let readings = 0;
  const report = new Map<string, Record<string, unknown>>(
    lines.map((l, i) => [
      `in-${l.mid}`,
      l.kind === 'video'
        ? { type: 'inbound-rtp', kind: 'video', mid: l.mid, trackIdentifier: `track-${l.mid}`, framesDecoded: 10 * (i + 1), frameWidth: 320 + i, frameHeight: 240 }
        : { type: 'inbound-rtp', kind: 'audio', mid: l.mid, trackIdentifier: `track-${l.mid}`, packetsReceived: 100 * (i + 1), totalSamplesReceived: 0, totalAudioEnergy: 0 },
    ]),
  );
  report.set('codec', { type: 'codec', mimeType: 'video/VP8' });
  (sub as any).pc = {
    connectionState: 'connected',
    getTransceivers: () => transceivers,
    getStats: async () => {
      readings += 1;
      return report;
    },
  };
  (sub as any).map = new Map(lines.map((l) => [l.mid, { from: l.from, kind: l.kind, source: l.source ?? (l.kind === 'video' ? 'camera' : null) }]));
  for (const id of remote) (sub as any).remote.set(id, { stream: { id: `stream-${id}` }, tracks: [] });
  return { sub, report, readings: () => readings };
}

describe('SFU subscription figures', () => {
  const lines: Line[] = [
    { mid: '0', kind: 'audio', from: 'ann', level: 0.2 },
    { mid: '1', kind: 'video', from: 'ann' },
    { mid: '2', kind: 'audio', from: 'bob', level: 0.01 },
    { mid: '3', kind: 'video', from: 'bob' },
    { mid: '4', kind: 'video', from: 'ann', source: 'screen' },
    { mid: '5', kind: 'video', from: 'gone' },
  ];

  it('gives each participant the audio level of their own microphone, none to someone no longer carried', () => {
    const { sub } = subscription(lines, ['ann', 'bob', 'cat']);
    assert.deepEqual(sub.audioLevels(), { ann: 0.2, bob: 0.01, cat: 0 });
  });

  it('adds up each participant’s own inbound streams, their shared screen apart, and nobody else’s', async () => {
    const { sub } = subscription(lines, ['ann', 'bob']);
    (sub as any).screens.set('ann', { stream: {}, track: { id: 'track-4' } });
    const stats = await sub.stats();
    assert.deepEqual(Object.keys(stats).sort(), ['ann', 'bob']);
    assert.equal(stats.ann.framesDecoded, 20);
    assert.equal(stats.ann.audioPackets, 100);
    assert.deepEqual(stats.ann.screen, { framesDecoded: 50, frameWidth: 324, frameHeight: 240 });
    assert.equal(stats.bob.framesDecoded, 40);
    assert.equal(stats.bob.frameWidth, 323);
    assert.equal(stats.bob.audioPackets, 300);
    assert.equal(stats.bob.screen, undefined);
    assert.equal(stats.bob.streamId, 'stream-bob');
  });

  it('leaves out a screen’s m-line while the page does not show that screen yet', async () => {
    const { sub } = subscription(lines, ['ann', 'bob']);
    const stats = await sub.stats();
    assert.equal(stats.ann.framesDecoded, 20);
    assert.equal(stats.ann.screen, undefined);
  });

  it('finds a stream whose report names no m-line by its track', async () => {
    const { sub, report } = subscription(lines, ['ann', 'bob']);
    for (const s of report.values()) delete s.mid;
    (sub as any).screens.set('ann', { stream: {}, track: { id: 'track-4' } });
    const stats = await sub.stats();
    assert.equal(stats.bob.framesDecoded, 40);
    assert.equal(stats.ann.framesDecoded, 20, 'her camera, not her screen');
    assert.equal(stats.ann.screen.framesDecoded, 50);
  });

  it('reads the connection once for callers of the same moment, and afresh after', async () => {
    const { sub, readings } = subscription(lines, ['ann', 'bob']);
    const [a, b, c] = await Promise.all([sub.stats(), sub.stats(), sub.stats()]);
    assert.equal(readings(), 1);
    assert.equal(a, b);
    assert.equal(b, c);
    await sub.stats();
    assert.equal(readings(), 2);
  });
});

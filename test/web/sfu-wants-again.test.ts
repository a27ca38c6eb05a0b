/**
 * The page's wants (how much of each person's video its tiles show) after
 * a `welcome`: the server's end of the SFU may be new then (a resume on
 * another instance, or after the grace) and know none of them, so the page
 * says every one again, the latest last (the latest take the video slots);
 * otherwise it says each once. With a stand-in for RTCPeerConnection; the
 * browsers are in test/sfu.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MediaPath } from '../../public/js/call/media-path.js';
import { usingFakeConnections } from './fake-peer-connection.ts';

type Sent = { type: string; from?: string; video?: string };

describe('the page’s wants through the SFU', () => {
  let path: any;
  usingFakeConnections(() => path?.closeAll());

  function onSfu() {
    const sent: Sent[] = [];
    path = new MediaPath({ iceServers: [], send: (m: Sent) => sent.push(m), onStream() {}, onGone() {}, onPeerState() {}, boundMs: 60_000 });
    path.setSelf('c_me');
    path.joinSfu();
    return { sent, wants: () => sent.filter((m) => m.type === 'sfu_want').map((m) => `${m.from} ${m.video}`) };
  }

  it('says each want once, and a changed one again', () => {
    const { wants } = onSfu();
    path.setWanted('c_ann', 'low');
    path.setWanted('c_bob', 'off');
    path.setWanted('c_ann', 'low');
    path.setWanted('c_bob', 'high');
    assert.deepEqual(wants(), ['c_ann low', 'c_bob off', 'c_bob high']);
  });

  it('says every want again when asked (as after a welcome), the latest last', () => {
    const { wants, sent } = onSfu();
    path.setWanted('c_ann', 'low');
    path.setWanted('c_bob', 'off');
    path.setWanted('c_cat', 'low');
    path.setWanted('c_ann', 'off');
    sent.length = 0;
    path.sayWantsAgain();
    assert.deepEqual(wants(), ['c_bob off', 'c_cat low', 'c_ann off']);
  });

  it('says each want once when its SFU client is new (a welcome as someone new): the new client says them itself', () => {
    const sent: Sent[] = [];
    path = new MediaPath({ iceServers: [], send: (m: Sent) => sent.push(m), onStream() {}, onGone() {}, onPeerState() {}, boundMs: 60_000 });
    path.setSelf('c_me');
    path.setWanted('c_ann', 'low');
    path.setWanted('c_bob', 'off');
    // As a welcome does: the wants said again, then the SFU joined.
    path.sayWantsAgain();
    path.joinSfu();
    assert.deepEqual(sent.filter((m) => m.type === 'sfu_want').map((m) => `${m.from} ${m.video}`), ['c_ann low', 'c_bob off']);
  });
});

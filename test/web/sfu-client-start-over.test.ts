/**
 * When the page's SFU client (public/js/lib/sfu.js) starts over, and what
 * it tells the server then:
 * - it names the subscription connection it closed: the server may have
 *   joined the room ahead of the page's first publishing offer and offered
 *   a subscription meanwhile, which a page that started over no longer
 *   holds;
 * - a publishing connection up is no media while others are in the call
 *   and no subscription came (its offer went astray): the connection
 *   health's first remedy then starts over, and the server offers anew.
 * With a stand-in for RTCPeerConnection; the browsers are in test/sfu.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SfuClient } from '../../public/js/lib/sfu.js';
import { FakeConnection, usingFakeConnections } from './fake-peer-connection.ts';

type Sent = { type: string; to?: string; discarded?: string; session?: string };

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('SFU client starting over', () => {
  let client: any;
  usingFakeConnections(() => client?.stop());

  function start(othersThere = () => false) {
    const sent: Sent[] = [];
    client = new SfuClient({ iceServers: [], send: (m: Sent) => sent.push(m), onStream() {}, onGone() {}, othersThere, boundMs: 60_000, simulcast: false });
    client.start();
    return { sent, offers: () => sent.filter((m) => m.type === 'offer' && m.to === 'sfu') };
  }

  it('names none in its first publishing offer', async () => {
    const { offers } = start();
    await settle();
    assert.equal(offers().length, 1);
    assert.equal(offers()[0]!.discarded, undefined);
  });

  it('names the subscription it answered and then closed in the next first offer, but not in a renegotiation', async () => {
    const { sent, offers } = start();
    await settle();
    client.handle({ type: 'sfu', event: 'streams', streams: [] });
    client.handle({ type: 'offer', from: 'sfu', sdp: 'v=0\r\no=- 9 1 IN IP4 127.0.0.1\r\n', session: 'sub-1' });
    await settle();
    assert.ok(sent.some((m) => m.type === 'answer' && m.session === 'sub-1'), 'the subscription was answered');
    // Starting over (a health rebuild, Try again) closes both connections.
    client.rebuild();
    await settle();
    assert.equal(offers().length, 2);
    assert.equal(offers()[1]!.discarded, 'sub-1');
    // A renegotiation of the same connection (a screen shared) is not a new start.
    client.handle({ type: 'answer', from: 'sfu', sdp: 'v=0 answer' });
    await settle();
    client.negotiate();
    await settle();
    assert.equal(offers().length, 3);
    assert.equal(offers()[2]!.discarded, undefined);
  });

  it('counts a publishing connection without any subscription as no media while others are there', async () => {
    let others = true;
    const { sent } = start(() => others);
    await settle();
    client.pub.connectionState = 'connected';
    assert.equal(await client.carried(), false, 'nothing of the others arrives');
    // Alone, there is nothing to receive.
    others = false;
    assert.equal(await client.carried(), true);
    // With the subscription, its own figures decide: media in it, or none from anyone yet.
    others = true;
    client.handle({ type: 'sfu', event: 'streams', streams: [{ mid: '0', kind: 'audio', from: 'ann' }] });
    client.handle({ type: 'offer', from: 'sfu', sdp: 'v=0\r\no=- 9 1 IN IP4 127.0.0.1\r\n', session: 'sub-1' });
    await settle();
    assert.ok(sent.some((m) => m.type === 'answer' && m.session === 'sub-1'));
    assert.equal(await client.carried(), false, 'the subscription has not connected');
  });
});

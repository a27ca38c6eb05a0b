/** Which layer of each received video the SFU link asks Janus for (sfu-steps.ts, layerSpecs). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { askingDtx, janusCandidate, layerSpecs, publishedDescriptions } from '../../src/realtime/sessions/sfu-steps.ts';
import type { VideoWant } from '../../src/realtime/protocol.ts';

describe('SFU layer choice', () => {
  it('gives each video the layer its tile asks for, the highest when nobody asked', () => {
    const wants = new Map<string, VideoWant>([['a', 'low'], ['b', 'high'], ['c', 'off']]);
    const mids = new Map([['a', '1'], ['b', '3'], ['c', '5'], ['d', '7']]);
    assert.deepEqual(layerSpecs(wants, mids, 9), [
      { mid: '1', send: true, substream: 0 },
      { mid: '3', send: true, substream: 2 },
      { mid: '5', send: false },
      { mid: '7', send: true, substream: 2 },
    ]);
  });

  it('gives the video slots to the latest wants, and none to people the subscription no longer carries', () => {
    // Two slots; "gone" asked last but left: "a" and "b" keep their videos.
    const wants = new Map<string, VideoWant>([['a', 'low'], ['b', 'low'], ['gone', 'low']]);
    const mids = new Map([['a', '1'], ['b', '3']]);
    assert.deepEqual(layerSpecs(wants, mids, 2).map((s) => s.send), [true, true]);
    // Three present for two slots: the earliest want is paused.
    const three = new Map([['a', '1'], ['b', '3'], ['gone', '5']]);
    assert.deepEqual(layerSpecs(wants, three, 2).map((s) => s.send), [false, true, true]);
  });
});

describe('SFU shared screens', () => {
  it('sends every shared screen whole, outside the video slots, whatever its sharer’s camera gets', () => {
    const wants = new Map<string, VideoWant>([['a', 'off'], ['b', 'low']]);
    const cameras = new Map([['a', '1'], ['b', '3']]);
    assert.deepEqual(layerSpecs(wants, cameras, 1, ['5']), [
      { mid: '1', send: false },
      { mid: '3', send: true, substream: 0 },
      { mid: '5', send: true },
    ]);
  });

  it('tells Janus the publishing offer’s first video is the camera and a later one the screen', () => {
    const sdp = ['v=0', 'o=- 42 2 IN IP4 127.0.0.1', 's=-', 'm=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=mid:0', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:1', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:2', ''].join('\r\n');
    assert.deepEqual(publishedDescriptions(sdp), [
      { mid: '1', description: 'camera' },
      { mid: '2', description: 'screen' },
    ]);
    assert.deepEqual(publishedDescriptions(sdp.split('m=video')[0]!), []);
  });
});

describe('SFU trickled candidates', () => {
  it('gives Janus a browser’s candidate with the fields it knows, leaving out the unknown ones', () => {
    const line = 'candidate:1 1 udp 2122260223 192.0.2.2 50000 typ host';
    assert.deepEqual(janusCandidate({ candidate: line, sdpMid: '0', sdpMLineIndex: 0, usernameFragment: 'frag' }), { candidate: line, sdpMid: '0', sdpMLineIndex: 0 });
    assert.deepEqual(janusCandidate({ candidate: line, sdpMid: null, sdpMLineIndex: 1, usernameFragment: null }), { candidate: line, sdpMLineIndex: 1 });
  });
});

describe('SFU audio', () => {
  const chromium = [
    'v=0', 'o=- 4611731400430051336 2 IN IP4 127.0.0.1', 's=-', 't=0 0',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9', 'a=mid:0', 'a=rtpmap:111 opus/48000/2', 'a=fmtp:111 minptime=10;useinbandfec=1',
    'a=rtpmap:63 red/48000/2', 'a=fmtp:63 111/111', 'a=rtpmap:9 G722/8000',
    'm=video 9 UDP/TLS/RTP/SAVPF 96', 'a=mid:1', 'a=rtpmap:96 VP8/90000', 'a=fmtp:96 x-google-start-bitrate=300', '',
  ].join('\r\n');

  it('asks Janus for Opus DTX on the publishing offer, on Opus’s format line only, and changes nothing else', () => {
    const asked = askingDtx(chromium);
    assert.match(asked, /^a=fmtp:111 minptime=10;useinbandfec=1;usedtx=1\r$/m);
    assert.match(asked, /^a=fmtp:63 111\/111\r$/m, 'RED’s format line stays');
    assert.match(asked, /^a=fmtp:96 x-google-start-bitrate=300\r$/m, 'the video’s stays');
    assert.equal(asked.replace(';usedtx=1', ''), chromium, 'one parameter added, nothing else');
  });

  it('leaves an offer that says usedtx already, whatever it says, and one without Opus', () => {
    const said = chromium.replace('useinbandfec=1', 'usedtx=0;useinbandfec=1');
    assert.equal(askingDtx(said), said);
    const noOpus = chromium.replace('a=rtpmap:111 opus/48000/2', 'a=rtpmap:111 PCMU/8000');
    assert.equal(askingDtx(noOpus), noOpus);
  });
});

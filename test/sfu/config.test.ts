/**
 * The SFU settings of src/config.ts: where Janus comes from (started by
 * Foyer, a pool elsewhere, or none), its media ports and public address,
 * and the move from peer-to-peer; and the start-up line that names the mode.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { describeSfu } from '../../src/sfu/mode.ts';

const bin = mkdtempSync(join(tmpdir(), 'foyer-sfu-config-'));
const fakeJanus = join(bin, 'janus');
writeFileSync(fakeJanus, '#!/bin/sh\n');
chmodSync(fakeJanus, 0o755);
const notExecutable = join(bin, 'plain');
writeFileSync(notExecutable, '');
after(() => rmSync(bin, { recursive: true, force: true }));

const SECRET = 's'.repeat(24);

function refuses(env: Record<string, string>, startsWith: string): void {
  assert.throws(
    () => loadConfig(env),
    (e: unknown) => e instanceof ConfigError && e.message.startsWith(startsWith) && !e.message.includes(SECRET),
    JSON.stringify(env),
  );
}

describe('SFU configuration', () => {
  it('starts the janus found on the PATH by default', () => {
    assert.deepEqual(loadConfig({ PATH: `/nonexistent:${bin}` }).sfu.janus, { kind: 'local', bin: fakeJanus });
  });

  it('starts the janus named by JANUS_BIN, with the documented defaults', () => {
    const { sfu } = loadConfig({ PATH: `/nonexistent:${bin}`, JANUS_BIN: 'janus' });
    assert.deepEqual(sfu.janus, { kind: 'local', bin: fakeJanus });
    assert.deepEqual(sfu.rtpPorts, { min: 20000, max: 20999 });
    assert.equal(sfu.publicIp, undefined);
    assert.equal(sfu.fromParticipants, 3);
    assert.equal(sfu.videoSlots, 9);
    assert.match(describeSfu(sfu), /^SFU: local Janus \(.*janus\), media on UDP 20000-20999; meetings of 3 or more people use it\.$/);
  });

  it('runs peer-to-peer only without a janus command, or with JANUS_BIN=none', () => {
    assert.deepEqual(loadConfig({ PATH: '/nonexistent' }).sfu.janus, { kind: 'none', why: 'no janus command on this machine' });
    assert.deepEqual(loadConfig({}).sfu.janus.kind, 'none');
    const off = loadConfig({ PATH: bin, JANUS_BIN: 'none' }).sfu;
    assert.deepEqual(off.janus, { kind: 'none', why: 'JANUS_BIN=none' });
    assert.match(describeSfu(off), /^SFU: none \(JANUS_BIN=none\); every meeting stays peer-to-peer \(mesh\)/);
  });

  it('takes JANUS_BIN as a path or as a command on the PATH, and refuses one that is not there', () => {
    assert.deepEqual(loadConfig({ JANUS_BIN: fakeJanus }).sfu.janus, { kind: 'local', bin: fakeJanus });
    assert.deepEqual(loadConfig({ JANUS_BIN: 'janus', PATH: bin }).sfu.janus, { kind: 'local', bin: fakeJanus });
    refuses({ JANUS_BIN: join(bin, 'missing') }, 'JANUS_BIN: no executable file');
    refuses({ JANUS_BIN: notExecutable }, 'JANUS_BIN: no executable file');
    refuses({ JANUS_BIN: 'janus', PATH: '/nonexistent' }, 'JANUS_BIN: no command "janus"');
  });

  it('reads the local Janus media ports, public address and the move settings', () => {
    const { sfu } = loadConfig({ JANUS_BIN: fakeJanus, JANUS_RTP_PORTS: '40000 - 40099', JANUS_PUBLIC_IP: '203.0.113.10', SFU_FROM_PARTICIPANTS: '2', SFU_VIDEO_SLOTS: '4' });
    assert.deepEqual(sfu.rtpPorts, { min: 40000, max: 40099 });
    assert.equal(sfu.publicIp, '203.0.113.10');
    assert.equal(sfu.fromParticipants, 2);
    assert.equal(sfu.videoSlots, 4);
    assert.match(describeSfu(sfu), /media on UDP 40000-40099 announced as 203\.0\.113\.10; meetings of 2 or more people use it/);
    assert.equal(loadConfig({ JANUS_PUBLIC_IP: '2001:db8::10' }).sfu.publicIp, '2001:db8::10');
  });

  it('takes a pool of Janus servers with their API secret, named by host and port only', () => {
    const { sfu } = loadConfig({ PATH: bin, JANUS_URLS: 'ws://10.0.0.5:8188, wss://janus-2.example.org/janus,ws://10.0.0.5:8188', JANUS_API_SECRET: SECRET });
    assert.deepEqual(sfu.janus, { kind: 'pool', urls: ['ws://10.0.0.5:8188', 'wss://janus-2.example.org/janus'], apiSecret: SECRET });
    const line = describeSfu(sfu);
    assert.equal(line, 'SFU: pool of 2 Janus servers (10.0.0.5:8188, janus-2.example.org:443); meetings of 3 or more people use it.');
    assert.ok(!line.includes(SECRET));
    assert.equal(loadConfig({ JANUS_URLS: 'ws://10.0.0.5:8188', JANUS_API_SECRET: SECRET, JANUS_BIN: 'none' }).sfu.janus.kind, 'pool');
  });

  it('refuses invalid SFU settings with a message naming the variable, never echoing the secret', () => {
    refuses({ JANUS_URLS: 'ws://10.0.0.5:8188', JANUS_API_SECRET: SECRET, JANUS_BIN: fakeJanus }, 'Set either JANUS_BIN');
    refuses({ JANUS_URLS: 'http://10.0.0.5:8088', JANUS_API_SECRET: SECRET }, 'JANUS_URLS');
    refuses({ JANUS_URLS: 'not a url', JANUS_API_SECRET: SECRET }, 'JANUS_URLS');
    refuses({ JANUS_URLS: `ws://foyer:${SECRET}@10.0.0.5:8188`, JANUS_API_SECRET: SECRET }, 'JANUS_URLS');
    refuses({ JANUS_URLS: 'ws://10.0.0.5:8188' }, 'JANUS_URLS needs JANUS_API_SECRET');
    refuses({ JANUS_URLS: 'ws://10.0.0.5:8188', JANUS_API_SECRET: 'short' }, 'JANUS_API_SECRET');
    refuses({ JANUS_API_SECRET: SECRET }, 'JANUS_API_SECRET goes with JANUS_URLS');
    refuses({ JANUS_URLS: 'ws://10.0.0.5:8188', JANUS_API_SECRET: SECRET, JANUS_RTP_PORTS: '20000-20999' }, 'JANUS_RTP_PORTS');
    refuses({ JANUS_URLS: 'ws://10.0.0.5:8188', JANUS_API_SECRET: SECRET, JANUS_PUBLIC_IP: '203.0.113.10' }, 'JANUS_PUBLIC_IP');
    for (const ports of ['20000', '20999-20000', '80-1000', '20000-70000', 'a-b']) refuses({ JANUS_RTP_PORTS: ports }, 'JANUS_RTP_PORTS');
    refuses({ JANUS_PUBLIC_IP: 'janus.example.org' }, 'JANUS_PUBLIC_IP');
    for (const n of ['1', 'three', '0']) refuses({ SFU_FROM_PARTICIPANTS: n }, 'SFU_FROM_PARTICIPANTS');
    for (const n of ['0', '50', '2.5']) refuses({ SFU_VIDEO_SLOTS: n }, 'SFU_VIDEO_SLOTS');
  });
});

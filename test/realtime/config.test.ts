/**
 * The realtime settings of src/config.ts: ICE servers, TURN credentials
 * (static or coturn's shared secret), the transport policy and the framing origins.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { iceServersFor, TURN_CREDENTIAL_TTL_SECONDS } from '../../src/realtime/ice.ts';

describe('realtime configuration', () => {
  it('has no ICE servers and allows framing from anywhere by default', () => {
    const config = loadConfig({});
    assert.deepEqual(config.ice.urls, []);
    assert.equal(config.frameAncestors, '*');
    assert.deepEqual(iceServersFor(config.ice, new Date()), []);
  });

  it('hands STUN and TURN servers with static credentials to the page', () => {
    const config = loadConfig({
      ICE_SERVERS: 'stun:turn.example.test:3478, turn:turn.example.test:3478?transport=udp,turns:turn.example.test:5349',
      TURN_USERNAME: 'foyer',
      TURN_CREDENTIAL: 's3cret',
    });
    assert.deepEqual(iceServersFor(config.ice, new Date()), [
      { urls: ['stun:turn.example.test:3478'] },
      { urls: ['turn:turn.example.test:3478?transport=udp', 'turns:turn.example.test:5349'], username: 'foyer', credential: 's3cret' },
    ]);
  });

  it('issues short-lived TURN credentials from TURN_SECRET the way coturn checks them', () => {
    const config = loadConfig({ ICE_SERVERS: 'turn:turn.example.test:3478', TURN_SECRET: 'shared' });
    const now = new Date('2025-01-01T00:00:00Z');
    const [turn] = iceServersFor(config.ice, now);
    const expiry = now.getTime() / 1000 + TURN_CREDENTIAL_TTL_SECONDS;
    assert.equal(turn?.username, `${expiry}:foyer`);
    assert.equal(turn?.credential, createHmac('sha1', 'shared').update(`${expiry}:foyer`).digest('base64'));
  });

  it('lets direct paths win by default, and forces the relay with ICE_TRANSPORT_POLICY=relay only where there is one', () => {
    assert.equal(loadConfig({}).ice.transportPolicy, 'all');
    assert.equal(loadConfig({ ICE_SERVERS: 'turn:turn.example.test:3478', ICE_TRANSPORT_POLICY: 'relay' }).ice.transportPolicy, 'relay');
    for (const env of [{ ICE_TRANSPORT_POLICY: 'direct' }, { ICE_SERVERS: 'stun:turn.example.test:3478', ICE_TRANSPORT_POLICY: 'relay' }]) {
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && e.message.startsWith('ICE_TRANSPORT_POLICY'), JSON.stringify(env));
    }
  });

  it('refuses malformed ICE and framing settings with a clear message', () => {
    for (const env of [
      { ICE_SERVERS: 'http://example.test' },
      { ICE_SERVERS: 'turn:x', TURN_USERNAME: 'only-name' },
      { ICE_SERVERS: 'turn:x', TURN_SECRET: 'a', TURN_USERNAME: 'b', TURN_CREDENTIAL: 'c' },
      { FRAME_ANCESTORS: "https://ok.example; script-src *" },
      { FRAME_ANCESTORS: "'none' https://a.example" },
    ]) {
      assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
    }
    assert.equal(loadConfig({ FRAME_ANCESTORS: "'self'  https://*.example.test:8443" }).frameAncestors, "'self' https://*.example.test:8443");
  });
});

/**
 * The sender's protection of the operator's network and its reading of
 * answers, against real HTTP receivers on loopback: private addresses
 * refused unless allowed (also when a name resolves to one), a slow
 * receiver timed out, a redirect not followed, and which answers are
 * retried.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { isPrivateAddress, webhookUrlProblem } from '../../src/domain/webhooks/addresses.ts';
import { sendWebhook, type SendOptions } from '../../src/webhooks/sender.ts';
import { Receiver } from './receiver.ts';

const allowed: SendOptions = { allowPrivate: true, connectTimeoutMs: 1000, responseTimeoutMs: 1000 };
const refused: SendOptions = { ...allowed, allowPrivate: false };
const message = { headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' }, body: '{"type":"meeting.created"}' };

describe('webhook sender', () => {
  let receiver: Receiver;
  let port: number;
  before(async () => {
    receiver = await Receiver.start('/hooks');
    port = Number(new URL(receiver.url).port);
  });
  after(() => receiver.close());

  it('tells private, loopback and link-local addresses from public ones', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1']) {
      assert.equal(isPrivateAddress(a), true, a);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) assert.equal(isPrivateAddress(a), false, a);
  });

  it('refuses the IPv6 forms that carry an IPv4 host: compatible (::/96) and NAT64 (64:ff9b::/96, 64:ff9b:1::/48)', () => {
    for (const a of ['::7f00:1', '::a00:1', '::127.0.0.1', '::808:808', '64:ff9b::7f00:1', '64:ff9b::808:808', '64:ff9b:1::a00:1', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff']) {
      assert.equal(isPrivateAddress(a), true, a);
    }
    assert.match(webhookUrlProblem('https://[64:ff9b:1::a9fe:a9fe]/x', false)!, /private/);
    assert.match(webhookUrlProblem('https://[::a9fe:a9fe]/x', false)!, /private/);
    // Next to them, public addresses stay allowed.
    for (const a of ['64:ff9b:2::1', '2001:db9::1', '1::1']) assert.equal(isPrivateAddress(a), false, a);
  });

  it('refuses http, private addresses and local names in endpoint URLs unless private targets are allowed', () => {
    assert.match(webhookUrlProblem('http://hooks.example.com/x', false)!, /https/);
    assert.match(webhookUrlProblem('https://127.0.0.1/x', false)!, /private/);
    assert.match(webhookUrlProblem('https://[::1]/x', false)!, /private/);
    assert.match(webhookUrlProblem('https://localhost/x', false)!, /private/);
    assert.match(webhookUrlProblem('https://user:pw@hooks.example.com/x', false)!, /password/);
    assert.equal(webhookUrlProblem('https://hooks.example.com/x', false), null);
    assert.equal(webhookUrlProblem('http://127.0.0.1:8080/x', true), null);
  });

  it('refuses to connect to a private address by default, also behind a name', async () => {
    const before = receiver.connections;
    const literal = await sendWebhook({ url: `https://127.0.0.1:${port}/hooks`, ...message }, refused);
    assert.deepEqual([literal.ok, literal.ok ? undefined : literal.retryable], [false, false]);
    assert.match((literal as { error: string }).error, /private/);
    const named = await sendWebhook({ url: `https://localhost:${port}/hooks`, ...message }, refused);
    assert.equal(named.ok, false);
    assert.match((named as { error: string }).error, /private/);
    const plain = await sendWebhook({ url: `http://localhost:${port}/hooks`, ...message }, refused);
    assert.match((plain as { error: string }).error, /https/);
    assert.equal(receiver.connections, before, 'not even a connection reached the receiver');
    const ok = await sendWebhook({ url: receiver.url, ...message }, allowed);
    assert.equal(ok.ok, true, 'allowed by configuration');
  });

  it('gives up on a slow receiver after the response timeout and retries later', async () => {
    receiver.behaviour = () => ({ status: 200, delayMs: 1500 });
    const result = await sendWebhook({ url: receiver.url, ...message }, { ...allowed, responseTimeoutMs: 200 });
    receiver.behaviour = () => ({ status: 204 });
    assert.equal(result.ok, false);
    assert.equal((result as { retryable: boolean }).retryable, true);
    assert.match((result as { error: string }).error, /timeout/);
  });

  it('does not follow a redirect, and counts it as a refusal', async () => {
    const before = receiver.received.length;
    receiver.behaviour = () => ({ status: 302, location: '/elsewhere' });
    const result = await sendWebhook({ url: receiver.url, ...message }, allowed);
    receiver.behaviour = () => ({ status: 204 });
    assert.deepEqual(result.ok ? result : { status: result.status, retryable: result.retryable }, { status: 302, retryable: false });
    assert.equal(receiver.received.length, before + 1, 'one request, none to the new location');
  });

  it('retries timeouts, connection errors, 5xx, 408 and 429, not other 4xx', async () => {
    const cases: Array<[number, boolean]> = [[500, true], [503, true], [408, true], [429, true], [400, false], [401, false], [404, false], [410, false]];
    for (const [status, retryable] of cases) {
      receiver.behaviour = () => ({ status });
      const result = await sendWebhook({ url: receiver.url, ...message }, allowed);
      assert.equal(result.ok, false, String(status));
      assert.deepEqual([result.ok ? 0 : result.status, result.ok ? undefined : result.retryable], [status, retryable]);
    }
    receiver.behaviour = () => ({ status: 204 });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refusedConnection = await sendWebhook({ url: `http://127.0.0.1:${closedPort}/`, ...message }, allowed);
    assert.equal(refusedConnection.ok, false);
    assert.equal((refusedConnection as { retryable: boolean }).retryable, true);
  });

  it('reads only the start of a large answer', async () => {
    const big = createServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 97);
      const write = () => {
        while (res.write(chunk)) {
          if (res.destroyed) return;
        }
        res.once('drain', write);
      };
      write();
      res.on('close', () => res.destroy());
    });
    await new Promise<void>((resolve) => big.listen(0, '127.0.0.1', resolve));
    const result = await sendWebhook({ url: `http://127.0.0.1:${(big.address() as { port: number }).port}/`, ...message }, allowed);
    big.closeAllConnections();
    await new Promise<void>((resolve) => big.close(() => resolve()));
    assert.equal(result.ok, true);
  });
});

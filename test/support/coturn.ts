/**
 * @module test/support/coturn
 * A real TURN server for tests: Debian's coturn (`turnserver`) on loopback,
 * with the configuration docs/video.md gives operators, read from it
 * (shared-secret credentials, allocations logged, private peers denied),
 * its addresses, ports and secret set here, and the two lines a same-host
 * test needs: `allow-loopback-peers`, and `allowed-peer-ip=127.0.0.1`, which
 * wins over the documented `denied-peer-ip` range for loopback. The secret
 * is generated per start and written to a 0600 config file, never onto a
 * command line; the listening port and the relay port range are chosen at
 * run time, so several test runs can share the machine.
 *
 * coturn is started through `setpriv --pdeathsig KILL` (Debian's
 * util-linux), so it ends with the test process however that ends (a
 * timeout, SIGKILL); a clean end stops it with SIGTERM.
 *
 * Without /usr/bin/turnserver the suites that need it skip with a printed
 * reason, except under CI=true, where that is a failure (.ci/run installs coturn).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.ts';

export const TURNSERVER = process.env.TURNSERVER_PATH ?? '/usr/bin/turnserver';
export const TURNUTILS_UCLIENT = '/usr/bin/turnutils_uclient';
export const TURN_REALM = 'foyer.test';
const SETPRIV = '/usr/bin/setpriv';

export function coturnSkipReason(): string | undefined {
  const missing = [TURNSERVER, TURNUTILS_UCLIENT].filter((path) => !existsSync(path));
  if (missing.length === 0) return undefined;
  const reason = `coturn not found (${missing.join(', ')}; apt-get install coturn)`;
  if (process.env.CI === 'true') throw new Error(`${reason}; CI=true requires the TURN tests`);
  console.log(`# skipping TURN tests: ${reason}`);
  return reason;
}

export interface Coturn {
  /** The listening port (UDP and TCP) on 127.0.0.1. */
  port: number;
  /** The generated `static-auth-secret`. */
  secret: string;
  /** For ICE_SERVERS: UDP and TCP. */
  urls: string[];
  /** The relay port range handed to coturn. */
  relayPorts: { min: number; max: number };
  /** Everything coturn logged so far. */
  log(): string;
  /** Successful TURN allocations so far, with the username of each. */
  allocations(): string[];
  /** Requests refused with 401 (a wrong or expired credential), with the username of each. */
  unauthorized(): string[];
  /** Bytes relayed to and from peers, per closed session (coturn logs them when an allocation ends). */
  peerUsage(): Array<{ username: string; receivedBytes: number; sentBytes: number }>;
  /** Freezes the relay (SIGSTOP): every relayed path goes silent, as in a network outage. */
  pause(): void;
  /** Lets it run again (SIGCONT). */
  resume(): void;
  stop(): Promise<void>;
}

/** A UDP port that was free a moment ago (coturn listens on both UDP and TCP). */
function udpFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });
}

/** Answers when a STUN Binding request to the port gets its success response. */
function stunAnswers(port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const id = randomBytes(12);
    // Binding request: type 0x0001, no attributes, the RFC 5389 magic cookie, a transaction id.
    const request = Buffer.concat([Buffer.from([0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xa4, 0x42]), id]);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('error', () => done(false));
    socket.on('message', (m) => done(m.readUInt16BE(0) === 0x0101 && m.subarray(8, 20).equals(id)));
    socket.send(request, port, '127.0.0.1');
  });
}

const DOCS = new URL('../../docs/video.md', import.meta.url);

/**
 * The coturn configuration docs/video.md gives operators: the first `ini`
 * block of its TURN section, one setting per line, comments dropped.
 */
export function documentedConfig(): string[] {
  const docs = readFileSync(DOCS, 'utf8');
  const section = docs.slice(docs.indexOf('## TURN for participants'));
  const block = /```ini\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/video.md has no ini block in its TURN section');
  return block.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
}

/** What the tests set themselves: addresses, ports, names, the secret, and where coturn writes. */
const REPLACED = new Set(['listening-port', 'tls-listening-port', 'realm', 'server-name', 'static-auth-secret', 'cert', 'pkey', 'min-port', 'max-port', 'external-ip', 'syslog']);

/** docs/video.md's configuration on loopback (relaying from `relayIp`), without TLS, writing its log to a file. */
function configFile(dir: string, port: number, secret: string, relay: { min: number; max: number }, relayIp: string): string {
  const documented = documentedConfig().filter((line) => !REPLACED.has(line.split('=')[0]!.trim()));
  return [
    ...documented,
    'listening-ip=127.0.0.1',
    `relay-ip=${relayIp}`,
    `listening-port=${port}`,
    `min-port=${relay.min}`,
    `max-port=${relay.max}`,
    `realm=${TURN_REALM}`,
    `server-name=${TURN_REALM}`,
    `static-auth-secret=${secret}`,
    // Tests use turn: over UDP and TCP only (no certificate here).
    'no-tls',
    'no-dtls',
    // Test only: both browsers and the relay share this host's loopback;
    // allowed-peer-ip wins over the documented denied loopback range.
    'allow-loopback-peers',
    'allowed-peer-ip=127.0.0.1',
    ...(relayIp === '127.0.0.1' ? [] : [`allowed-peer-ip=${relayIp}`]),
    `log-file=${join(dir, 'turn.log')}`,
    'simple-log',
    'no-stdout-log',
    `userdb=${join(dir, 'turndb')}`,
    `pidfile=${join(dir, 'turn.pid')}`,
    '',
  ].join('\n');
}

/**
 * `relayIp`: where relayed media comes from and goes to (default loopback). A local Janus needs this host's own
 * address: it announces that one, not loopback, and its sockets send out of that interface only (IP_UNICAST_IF),
 * so nothing it sends reaches a relay on 127.0.0.1; the address is then allowed as a peer, over the documented
 * denied ranges (a 10.x or 172.x address).
 */
export async function startCoturn(options: { timeoutMs?: number; relayIp?: string } = {}): Promise<Coturn> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const dir = mkdtempSync(join(tmpdir(), 'foyer-coturn-'));
  const secret = randomBytes(24).toString('hex');
  let port = await freePort();
  for (let i = 0; i < 20 && !(await udpFree(port)); i += 1) port = await freePort();
  // Below Linux's ephemeral range (32768+), so browsers' own sockets do not take them, and above
  // Janus's default media ports (20000-20999); 200 ports: a few calls' worth.
  const min = randomInt(21_000, 32_000 - 200);
  const relayPorts = { min, max: min + 199 };
  const config = join(dir, 'turnserver.conf');
  writeFileSync(config, configFile(dir, port, secret, relayPorts, options.relayIp ?? '127.0.0.1'), { mode: 0o600 });
  const logFile = join(dir, 'turn.log');

  const child: ChildProcess = existsSync(SETPRIV)
    ? spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', TURNSERVER, '-c', config], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(TURNSERVER, ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let finalLog: string | undefined;
  const log = () => {
    if (finalLog !== undefined) return finalLog;
    try {
      return readFileSync(logFile, 'utf8');
    } catch {
      return '';
    }
  };

  const deadline = Date.now() + timeoutMs;
  while (!(await stunAnswers(port, 300))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      const why = `coturn did not answer STUN on 127.0.0.1:${port} (exit ${child.exitCode}):\n${output}\n${log()}`;
      rmSync(dir, { recursive: true, force: true });
      throw new Error(why);
    }
  }

  const matches = (re: RegExp) => [...log().matchAll(re)];
  return {
    port,
    secret,
    urls: [`turn:127.0.0.1:${port}?transport=udp`, `turn:127.0.0.1:${port}?transport=tcp`],
    relayPorts,
    log,
    allocations: () => matches(/user <([^>]*)>: incoming packet ALLOCATE processed, success/g).map((m) => m[1]!),
    unauthorized: () => matches(/user <([^>]*)>: incoming packet \w+ processed, error 401/g).map((m) => m[1]!),
    peerUsage: () =>
      matches(/peer usage: realm=<[^>]*>, username=<([^>]*)>, rp=\d+, rb=(\d+), sp=\d+, sb=(\d+)/g).map((m) => ({
        username: m[1]!,
        receivedBytes: Number(m[2]),
        sentBytes: Number(m[3]),
      })),
    pause: () => void child.kill('SIGSTOP'),
    resume: () => void child.kill('SIGCONT'),
    async stop() {
      child.kill('SIGCONT');
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      finalLog = log();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

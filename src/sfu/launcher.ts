/**
 * @module sfu/launcher
 * The Janus that Foyer starts itself (JANUS_BIN): its configuration is
 * generated into a private temporary folder (mode 0700, files 0600: it
 * holds the API secret), its API listens on loopback only, on a free port,
 * with a random API secret, and it is supervised: when it exits without
 * being asked to, it is started again (with a short, growing delay), on a
 * new port, and `up` tells the pool where to find it.
 *
 * Janus is started through `setpriv --pdeathsig KILL` when available
 * (Debian's util-linux), so it ends with Foyer however Foyer ends (SIGKILL,
 * or an exit during start-up); otherwise `stop()`, run on every clean
 * shutdown, ends it. KILL rather than TERM: a Janus still initialising
 * takes note of a SIGTERM and then runs on regardless.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PortRange } from '../config-sfu.ts';
import { findOnPath } from '../config-sfu.ts';
import { findJanusLibraries, janusConfigFiles, VIDEOROOM_PLUGIN, WEBSOCKETS_TRANSPORT } from './janus-config.ts';

export interface JanusEndpoint {
  /** `ws://127.0.0.1:PORT` */
  url: string;
  apiSecret: string;
}

export interface LaunchLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface LocalJanusOptions {
  bin: string;
  rtpPorts: PortRange;
  publicIp?: string | undefined;
  stun?: { host: string; port: number } | undefined;
  /** Gather ICE candidates on these interfaces only (tests: `lo`). */
  iceInterfaces?: string | undefined;
  log: LaunchLog;
  /** The API secret; a random one by default (tests run a pool of Janus sharing one). */
  apiSecret?: string;
  /** How long Janus may take to answer on its API port. */
  startTimeoutMs?: number;
  /** First delay before a restart; doubles up to 5 s while Janus keeps dying. */
  restartDelayMs?: number;
}

/** Lines of Janus's own output kept to explain a failure. */
const OUTPUT_LINES = 40;

/**
 * Events: `up` (endpoint) once the API answers, after every (re)start;
 * `down` (reason) when a running Janus exits unexpectedly.
 */
export class LocalJanus extends EventEmitter<{ up: [JanusEndpoint]; down: [string] }> {
  private readonly dir: string;
  private readonly apiSecret: string;
  private readonly setpriv = findOnPath('setpriv', process.env.PATH);
  private child: ChildProcess | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private output: string[] = [];
  private current: JanusEndpoint | undefined;

  constructor(private readonly options: LocalJanusOptions) {
    super();
    this.apiSecret = options.apiSecret ?? randomBytes(24).toString('base64url');
    const libraries = findJanusLibraries(options.bin);
    removeAbandonedFolders();
    this.dir = mkdtempSync(join(tmpdir(), FOLDER_PREFIX));
    writeFileSync(join(this.dir, 'owner.pid'), String(process.pid), { mode: 0o600 });
    for (const name of ['plugins', 'transports', 'empty']) mkdirSync(join(this.dir, name), { mode: 0o700 });
    // Only what Foyer uses is loaded: Janus loads every library in its folders.
    symlinkSync(join(libraries.plugins, VIDEOROOM_PLUGIN), join(this.dir, 'plugins', VIDEOROOM_PLUGIN));
    symlinkSync(join(libraries.transports, WEBSOCKETS_TRANSPORT), join(this.dir, 'transports', WEBSOCKETS_TRANSPORT));
  }

  /** The endpoint while Janus runs and answers. */
  get endpoint(): JanusEndpoint | undefined {
    return this.current;
  }

  /** The running Janus's process id (tests kill it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts Janus; resolves with its endpoint once its API answers. Later restarts are announced by `up`. */
  async start(): Promise<JanusEndpoint> {
    this.stopping = false;
    return this.launch();
  }

  private async launch(): Promise<JanusEndpoint> {
    const wsPort = await freeLoopbackPort();
    const files = janusConfigFiles({
      dir: this.dir,
      apiSecret: this.apiSecret,
      wsPort,
      rtpPorts: this.options.rtpPorts,
      publicIp: this.options.publicIp,
      stun: this.options.stun,
      iceInterfaces: this.options.iceInterfaces,
    });
    for (const [name, content] of Object.entries(files)) writeFileSync(join(this.dir, name), content, { mode: 0o600 });
    const args = ['-C', join(this.dir, 'janus.jcfg'), '-F', this.dir];
    const child = this.setpriv
      ? spawn(this.setpriv, ['--pdeathsig', 'KILL', '--', this.options.bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(this.options.bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.output = [];
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) this.output.push(line);
      if (this.output.length > OUTPUT_LINES) this.output.splice(0, this.output.length - OUTPUT_LINES);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exited = new Promise<string>((resolve) => {
      child.once('error', (error) => resolve(`cannot start ${this.options.bin}: ${error.message}`));
      child.once('exit', (code, signal) => resolve(signal ? `killed by ${signal}` : `exited with code ${code}`));
    });
    void exited.then((reason) => this.exited(child, reason));

    const ready = await Promise.race([
      waitForPort(wsPort, this.options.startTimeoutMs ?? 15_000).then((ok) => (ok ? 'ready' : 'timeout')),
      exited.then((reason) => reason),
    ]);
    if (ready !== 'ready') {
      const reason = ready === 'timeout' ? `did not answer on its API port within ${this.options.startTimeoutMs ?? 15_000} ms` : ready;
      if (child.exitCode === null) child.kill('SIGKILL');
      throw new Error(`Janus ${reason}${this.output.length ? `; its last output:\n${this.output.slice(-10).join('\n')}` : ''}`);
    }
    this.current = { url: `ws://127.0.0.1:${wsPort}`, apiSecret: this.apiSecret };
    this.failures = 0;
    this.options.log.info(`Local Janus started (pid ${child.pid}, API on 127.0.0.1:${wsPort}).`);
    this.emit('up', this.current);
    return this.current;
  }

  private exited(child: ChildProcess, reason: string): void {
    if (this.child !== child) return;
    this.child = undefined;
    const wasUp = this.current !== undefined;
    this.current = undefined;
    if (this.stopping) return;
    if (wasUp) {
      this.options.log.error(`Local Janus ${reason}; restarting it. Its last output:\n${this.output.slice(-10).join('\n')}`);
      this.emit('down', reason);
    }
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    if (this.stopping || this.restartTimer) return;
    const delay = Math.min(5000, (this.options.restartDelayMs ?? 250) * 2 ** this.failures);
    this.failures++;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopping) return;
      this.launch().catch((error: Error) => {
        this.options.log.error(`Local Janus did not start again: ${error.message}`);
        this.scheduleRestart();
      });
    }, delay);
  }

  /** Ends Janus (SIGTERM, then SIGKILL after 5 s) and removes its folder. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // A Janus that has not answered yet may be initialising, when it would not heed SIGTERM.
      child.kill(this.current ? 'SIGTERM' : 'SIGKILL');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    }
    this.child = undefined;
    this.current = undefined;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const FOLDER_PREFIX = 'foyer-janus-';

/**
 * Removes the folders of Foyer processes that are gone (killed before they
 * could clean up; their Janus went with them). They hold an API secret
 * that no longer opens anything, but they should not pile up.
 */
function removeAbandonedFolders(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(FOLDER_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    try {
      const owner = Number(readFileSync(join(dir, 'owner.pid'), 'utf8'));
      if (!Number.isInteger(owner) || owner <= 0) continue;
      process.kill(owner, 0);
    } catch (error) {
      // ESRCH: its Foyer is gone. Anything else (another user's folder, no owner file): not ours to judge.
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** A loopback port that was free a moment ago. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** True once something accepts TCP connections on 127.0.0.1:port, false after `timeoutMs`. */
async function waitForPort(port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

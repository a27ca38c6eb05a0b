/**
 * @module scripts/sfu-load/foyer
 * The real Foyer server (`bin/foyer-server.js`, as `npm start` runs it) as
 * a child process with its own Janus (JANUS_BIN), on a fresh SQLite file,
 * with an organization and API key made by its own CLI; and the process
 * ids whose CPU and memory are measured (Foyer's, and its Janus's).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/support/processes.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Foyer {
  origin: string;
  pid: number;
  /** The Janus that Foyer started (a child of its process). */
  janusPid(): number | undefined;
  /** A new meeting's link (the pre-join screen skipped) and its id, for `join` over /ws. */
  newMeeting(): Promise<{ id: string; link: string }>;
  stop(): Promise<void>;
}

function cli(env: NodeJS.ProcessEnv, ...cmd: string[]): Record<string, string> {
  const run = spawnSync(process.execPath, ['bin/foyer.js', '--json', ...cmd], { cwd: ROOT, env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`foyer ${cmd.join(' ')}: ${run.stderr || run.stdout}`);
  return JSON.parse(run.stdout);
}

/** The children of `pid` (all its threads'). */
export function childrenOf(pid: number): number[] {
  try {
    const tasks = spawnSync('ls', [`/proc/${pid}/task`], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    return tasks.flatMap((t) => {
      try {
        return readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

export async function startFoyer(options: { fromParticipants: number; videoSlots: number; janusBin: string }): Promise<Foyer> {
  const scratch = mkdtempSync(join(tmpdir(), 'foyer-sfu-load-'));
  const port = await freePort();
  const rtpMin = 30000 + randomInt(0, 25) * 1000;
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(scratch, 'foyer.db')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    API_PREFIX: '/api',
    JANUS_BIN: options.janusBin,
    JANUS_RTP_PORTS: `${rtpMin}-${rtpMin + 999}`,
    SFU_FROM_PARTICIPANTS: String(options.fromParticipants),
    SFU_VIDEO_SLOTS: String(options.videoSlots),
    // Every load participant connects from 127.0.0.1.
    WS_CONNECTIONS_PER_ADDRESS: '0',
  };
  cli(env, 'migrate');
  const org = cli(env, 'org', 'create', '--name', 'SFU load', '--type', 'basic');
  const key = cli(env, 'key', 'create', '--org', org.slug!);
  const child: ChildProcess = spawn(process.execPath, ['bin/foyer-server.js'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const origin = `http://127.0.0.1:${port}`;
  const janusPid = () => childrenOf(child.pid!).find((p) => commOf(p) === 'janus');
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`Foyer exited with ${child.exitCode}`);
      const health = await fetch(`${origin}/ready`).then((r) => r.json() as Promise<{ status?: string }>).catch(() => null);
      if (health?.status === 'ready' && janusPid()) break;
      if (i > 600) throw new Error(`Foyer and its Janus not ready within 60 s (health ${JSON.stringify(health)})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const headers = { API_KEY: key.apiKey!, API_SECRET: key.apiSecret!, 'content-type': 'application/json' };
  return {
    origin,
    pid: child.pid!,
    janusPid,
    newMeeting: () => createMeeting(origin, headers),
    stop,
  };
}

/**
 * A Foyer already running (say, `npm start` on a fresh checkout) at `origin`, process `pid` (its Janus is found
 * among its children), with an organization's API key: measured as it is, never stopped or restarted here.
 */
export function attachFoyer(origin: string, pid: number, apiKey: string, apiSecret: string): Foyer {
  if (!childrenOf(pid).some((p) => commOf(p) === 'janus')) throw new Error(`process ${pid} has no janus child: give the pid of the node process running bin/foyer-server.js (not npm's), started with Janus`);
  const headers = { API_KEY: apiKey, API_SECRET: apiSecret, 'content-type': 'application/json' };
  return {
    origin,
    pid,
    janusPid: () => childrenOf(pid).find((p) => commOf(p) === 'janus'),
    newMeeting: () => createMeeting(origin, headers),
    stop: async () => {},
  };
}

async function createMeeting(origin: string, headers: Record<string, string>): Promise<{ id: string; link: string }> {
  const res = await fetch(`${origin}/api/v3/meeting`, { method: 'POST', headers, body: JSON.stringify({ isInfinite: true, queryParameters: { skipPrejoin: true } }) });
  const body = (await res.json()) as { id?: string; redirectUrl?: string };
  if (res.status !== 201 || !body.redirectUrl || !body.id) throw new Error(`POST /v3/meeting answered ${res.status} ${JSON.stringify(body)}`);
  const url = new URL(body.redirectUrl);
  return { id: body.id, link: `${origin}${url.pathname}${url.search}` };
}

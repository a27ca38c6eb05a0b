/**
 * @module scripts/realtime-cost/load
 * One checkout's signalling under load, run in a process of its own by
 * `scripts/realtime-cost.ts`:
 *
 *   node --import tsx scripts/realtime-cost/load.ts ROOT PARTICIPANTS [CONCURRENCY=50]
 *
 * The checkout's own server (`src/main.ts`, as `npm start` runs it) on a
 * fresh SQLite file, with PARTICIPANTS / 2 open meetings seeded through its
 * own domain; PARTICIPANTS sockets from this process join them two by two
 * (CONCURRENCY joins in flight). Figures: each join's time from `join` sent
 * to `welcome` received; the server's resident memory before anyone
 * connected and with everyone present, per participant; its CPU over 10 s
 * with everyone present and nothing happening (pings only). Prints one
 * JSON line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
// @ts-expect-error ws ships no typings; only open, send, message and terminate are used.
import WebSocket from 'ws';

const [root, participantsArg, concurrencyArg] = process.argv.slice(2) as [string, string, string?];
const participants = Number(participantsArg);
const concurrency = Number(concurrencyArg ?? 50);
const load = <T>(path: string): Promise<T> => import(pathToFileURL(join(root, path)).href) as Promise<T>;

const { createContext } = await load<typeof import('../../src/context.ts')>('src/context.ts');
const { loadConfig } = await load<typeof import('../../src/config.ts')>('src/config.ts');
const { operatorActor } = await load<typeof import('../../src/domain/actors.ts')>('src/domain/actors.ts');
const { createOrganization } = await load<typeof import('../../src/domain/organizations.ts')>('src/domain/organizations.ts');
const { createMeeting } = await load<typeof import('../../src/domain/meetings.ts')>('src/domain/meetings.ts');
const { openStore } = await load<typeof import('../../src/store/open.ts')>('src/store/open.ts');
const { freshDatabaseUrl } = await load<typeof import('../../test/support/databases.ts')>('test/support/databases.ts');
const { startFoyer } = await load<typeof import('../../test/support/processes.ts')>('test/support/processes.ts');

const ENV = { LOG_LEVEL: 'warn', API_SECRET_PEPPER: 'cost', WS_CONNECTIONS_PER_ADDRESS: '0', SHUTDOWN_DRAIN_SECONDS: '0' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident memory (MiB) and CPU seconds used so far by a process, from /proc. */
function usage(pid: number): { rssMiB: number; cpuSeconds: number } {
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks (100 a second).
  return { rssMiB: rssKiB / 1024, cpuSeconds: (Number(fields[11]) + Number(fields[12])) / 100 };
}

interface Socket {
  on(event: string, listener: (...args: any[]) => void): void;
  send(data: string): void;
  terminate(): void;
}

/** Opens a socket, sends `join` and resolves with the milliseconds to `welcome`. */
function joinOne(base: string, meetingId: string, name: string, sockets: Socket[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(base.replace(/^http/, 'ws') + '/ws') as Socket;
    sockets.push(socket);
    let sent = 0;
    let welcomed = false;
    socket.on('error', reject);
    socket.on('open', () => {
      sent = performance.now();
      socket.send(JSON.stringify({ type: 'join', meetingId, name, audio: true, video: true }));
    });
    socket.on('message', (data: Buffer) => {
      if (welcomed) return;
      const type = (JSON.parse(data.toString('utf8')) as { type: string }).type;
      if (type === 'welcome') {
        welcomed = true;
        resolve(performance.now() - sent);
      } else if (type === 'error') reject(new Error(`join refused: ${data.toString('utf8')}`));
    });
    socket.on('close', (code: number) => {
      if (!welcomed) reject(new Error(`closed ${code} before welcome`));
    });
  });
}

const database = await freshDatabaseUrl('sqlite');
const store = await openStore(database.url, { migrate: true });
const ctx = await createContext(loadConfig({ DATABASE_URL: database.url, ...ENV }), { store });
const org = await createOrganization(ctx, { name: 'Load', type: 'basic', slug: `load-${Date.now().toString(36)}` });
const operator = operatorActor(org);
const meetings: string[] = [];
for (let i = 0; i < Math.ceil(participants / 2); i++) meetings.push((await createMeeting(ctx, operator, { type: 'MEETING', isInfinite: true })).id);
await store.close();

// A loaded machine may take long to compile and start a server.
const foyer = await startFoyer({ ...ENV, DATABASE_URL: database.url }, 180_000);
const sockets: Socket[] = [];
try {
  const pid = foyer.child.pid!;
  // Past start-up (compiling, migrations) and its garbage collection.
  await sleep(5000);
  const idle = usage(pid);
  const times: number[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < participants; i = next++) times.push(await joinOne(foyer.base, meetings[i >> 1]!, `P${i}`, sockets));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const joinSeconds = (performance.now() - started) / 1000;
  await sleep(5000);
  const rested = usage(pid);
  const restSeconds = 10;
  await sleep(restSeconds * 1000);
  const rest = usage(pid);
  const sorted = times.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  process.stdout.write(
    JSON.stringify({
      root,
      participants,
      meetings: meetings.length,
      concurrency,
      joinSeconds,
      joinP50: at(0.5),
      joinP99: at(0.99),
      idleRssMiB: idle.rssMiB,
      fullRssMiB: rest.rssMiB,
      rssKiBPerParticipant: ((rest.rssMiB - idle.rssMiB) * 1024) / participants,
      cpuAtRestPercent: (100 * (rest.cpuSeconds - rested.cpuSeconds)) / restSeconds,
    }) + '\n',
  );
} finally {
  for (const s of sockets) s.terminate();
  await foyer.stop();
  await database.dispose();
}

/**
 * @module scripts/waiting-speed
 * Measures the waiting lists where people feel them, against real Foyer
 * processes (`src/main.ts`) on loopback:
 * 1. arrival to console: a client sends `wait` to one instance, a member's
 *    console on another instance (one PostgreSQL, one Redis) lists them;
 *    goal: median under 200 ms;
 * 2. size: one instance (SQLite) holding CLIENTS waiting clients over
 *    WebSocket in QUEUES queues, each with a member's console open: the
 *    server process's memory and CPU at rest, read from /proc;
 * 3. take next at that size: from a member's `take_next` to their console
 *    showing the client, and to the client hearing it was taken.
 * Prints figures, never asserts them.
 *
 *   node --import tsx scripts/waiting-speed.ts [arrivals=40] [clients=1000] [queues=50]
 */
import { readFileSync } from 'node:fs';
import { createContext, type FoyerContext } from '../src/context.ts';
import { loadConfig } from '../src/config.ts';
import { operatorActor } from '../src/domain/actors.ts';
import { addUser, createOrganization } from '../src/domain/organizations.ts';
import { startSession } from '../src/domain/sign-in.ts';
import { createSpace, updateSpace } from '../src/domain/spaces.ts';
import type { Organization, Space, User } from '../src/domain/types.ts';
import { openStore } from '../src/store/open.ts';
import { freshDatabaseUrl } from '../test/support/databases.ts';
import { startFoyer, type FoyerProcess } from '../test/support/processes.ts';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../test/support/redis.ts';
import { TestClient, type Message } from '../test/realtime/ws-client.ts';

const arrivals = Number(process.argv[2] ?? 40);
const clientCount = Number(process.argv[3] ?? 1000);
const queueCount = Number(process.argv[4] ?? 50);
// Many sockets from one loopback address are the point here, not abuse.
const ENV = { LOG_LEVEL: 'warn', API_SECRET_PEPPER: 'speed', WS_CONNECTIONS_PER_ADDRESS: '0', PASSWORD_HASH_COST: '14' };

interface Seeded {
  ctx: FoyerContext;
  org: Organization;
  close(): Promise<void>;
}

async function seed(url: string): Promise<Seeded> {
  const store = await openStore(url, { migrate: true });
  const ctx = await createContext(loadConfig({ DATABASE_URL: url, ...ENV }), { store });
  const org = await createOrganization(ctx, { name: 'Speed clinic', type: 'medical', slug: `speed-${Date.now().toString(36)}` });
  return { ctx, org, close: () => store.close() };
}

async function queueWith(s: Seeded, member: User, n: number): Promise<Space> {
  const operator = operatorActor(s.org);
  const space = await createSpace(s.ctx, operator, 'queue', { name: `Queue ${n}`, slug: `q-${n}-${Date.now().toString(36)}` });
  return updateSpace(s.ctx, operator, 'queue', space.id, { memberIds: [member.id] });
}

async function openConsole(s: Seeded, base: string, member: User, space: Space): Promise<TestClient> {
  const token = (await startSession(s.ctx, member, 'password')).token;
  const c = await TestClient.connect(base, { headers: { origin: base, cookie: `foyer_session=${token}` } });
  c.send({ type: 'console', kind: space.kind, spaceId: space.id });
  const first = await c.next((m) => m.type === 'console' || m.type === 'error', 15_000);
  if (first.type !== 'console') throw new Error(`console refused: ${JSON.stringify(first)}`);
  return c;
}

async function wait(base: string, space: Space, name: string): Promise<TestClient> {
  const c = await TestClient.connect(base, { headers: { origin: base } });
  c.send({ type: 'wait', slug: space.slug, name, token: null });
  const first = await c.next((m) => m.type === 'waiting' || m.type === 'error', 30_000);
  if (first.type !== 'waiting') throw new Error(`wait refused: ${JSON.stringify(first)}`);
  return c;
}

const names = (m: Message) => (m.view.waiting as Array<{ name: string }>).map((w) => w.name);
const stats = (figures: number[]) => {
  const sorted = [...figures].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, min ${sorted[0]!.toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)} (n=${sorted.length})`;
};

/** Resident memory (MiB) and CPU seconds used so far by a process, from /proc. */
function usage(pid: number): { rssMiB: number; cpuSeconds: number } {
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime, fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks (100 a second on Linux).
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssMiB: rssKiB / 1024, cpuSeconds: ticks / 100 };
}

async function arrivalToConsole(): Promise<void> {
  const database = await freshDatabaseUrl('postgres');
  const prefix = uniquePrefix();
  const env = { ...ENV, DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
  const s = await seed(database.url);
  const processes: FoyerProcess[] = [];
  const clients: TestClient[] = [];
  try {
    processes.push(await startFoyer(env), await startFoyer(env));
    const [one, two] = processes as [FoyerProcess, FoyerProcess];
    const member = await addUser(s.ctx, operatorActor(s.org), { email: 'dr@speed.test', fullName: 'Dr Speed' });
    const queue = await queueWith(s, member, 0);
    const desk = await openConsole(s, two.base, member, queue);
    const figures: number[] = [];
    for (let i = 0; i < arrivals; i++) {
      const name = `Client ${i}`;
      const c = await TestClient.connect(one.base, { headers: { origin: one.base } });
      clients.push(c);
      const from = desk.messages.length;
      const sent = performance.now();
      c.send({ type: 'wait', slug: queue.slug, name, token: null });
      await desk.next((m) => m.type === 'console' && names(m).includes(name), 10_000, from);
      figures.push(performance.now() - sent);
      // Leave again so that the list stays short, as in a real clinic.
      c.send({ type: 'leave' });
      await desk.next((m) => m.type === 'console' && !names(m).includes(name), 10_000, desk.messages.length - 1);
    }
    desk.close();
    console.log(`1. arrival on one instance to the console on the other (PostgreSQL + Redis): ${stats(figures)}; goal: median < 200 ms`);
  } finally {
    for (const c of clients) c.terminate();
    await Promise.all(processes.map((p) => p.stop()));
    await s.close();
    await deletePrefix(prefix);
    await database.dispose();
  }
}

async function atSize(): Promise<void> {
  const database = await freshDatabaseUrl('sqlite');
  const s = await seed(database.url);
  const sockets: TestClient[] = [];
  let foyer: FoyerProcess | undefined;
  try {
    foyer = await startFoyer({ ...ENV, DATABASE_URL: database.url });
    const pid = foyer.child.pid!;
    // Past start-up (compiling, migrations) and its garbage collection.
    await new Promise((r) => setTimeout(r, 5000));
    const idle = usage(pid);
    const queues: Array<{ space: Space; desk: TestClient }> = [];
    for (let q = 0; q < queueCount; q++) {
      const member = await addUser(s.ctx, operatorActor(s.org), { email: `dr${q}@speed.test`, fullName: `Dr ${q}` });
      const space = await queueWith(s, member, q + 1);
      const desk = await openConsole(s, foyer.base, member, space);
      sockets.push(desk);
      queues.push({ space, desk });
    }
    const started = performance.now();
    const waiting = new Map<string, TestClient[]>();
    for (let i = 0; i < clientCount; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, clientCount - i) }, (_, k) => {
          const { space } = queues[(i + k) % queueCount]!;
          return wait(foyer!.base, space, `Client ${i + k}`).then((c) => {
            waiting.set(space.id, [...(waiting.get(space.id) ?? []), c]);
            return c;
          });
        }),
      );
      sockets.push(...batch);
    }
    console.log(`2. ${clientCount} clients waiting in ${queueCount} queues (each with a console open), arrived in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, 5000));
    const before = usage(pid);
    const restSeconds = 10;
    await new Promise((r) => setTimeout(r, restSeconds * 1000));
    const rest = usage(pid);
    console.log(
      `   server process: ${idle.rssMiB.toFixed(0)} MiB before anyone connected, ${rest.rssMiB.toFixed(0)} MiB with everyone waiting ` +
        `(${(((rest.rssMiB - idle.rssMiB) * 1024) / (clientCount + queueCount)).toFixed(1)} KiB a connection); ` +
        `CPU at rest ${((100 * (rest.cpuSeconds - before.cpuSeconds)) / restSeconds).toFixed(1)} % of a core over ${restSeconds} s`,
    );

    const toConsole: number[] = [];
    const toClient: number[] = [];
    for (const { space, desk } of queues.slice(0, Math.min(queues.length, 30))) {
      const first = waiting.get(space.id)![0]!;
      const fromConsole = desk.messages.length;
      const fromClient = first.messages.length;
      const sent = performance.now();
      desk.send({ type: 'take_next' });
      await Promise.all([
        desk.next((m) => m.type === 'console' && m.view.me.current !== null, 10_000, fromConsole).then(() => toConsole.push(performance.now() - sent)),
        first.next((m) => m.type === 'waiting' && m.view.state === 'reserved', 10_000, fromClient).then(() => toClient.push(performance.now() - sent)),
      ]);
    }
    console.log(`3. take next with ${clientCount} waiting: to the member's console ${stats(toConsole)}`);
    console.log(`   to the client being told: ${stats(toClient)}`);
  } finally {
    for (const c of sockets) c.terminate();
    await foyer?.stop();
    await s.close();
    await database.dispose();
  }
}


await arrivalToConsole();
await atSize();

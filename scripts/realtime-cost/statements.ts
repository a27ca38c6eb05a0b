/**
 * @module scripts/realtime-cost/statements
 * One checkout's database statements per join and per media change, run
 * in a process of its own by `scripts/realtime-cost.ts`:
 *
 *   node --import tsx scripts/realtime-cost/statements.ts ROOT sqlite|postgres SIZES REPEATS [INSTANCES=4]
 *
 * ROOT is the checkout to measure (its own server wiring and domain); the
 * statements are counted below Kysely (./counting.ts). `sqlite` is one
 * instance on an in-memory database; `postgres` is INSTANCES instances on
 * one PostgreSQL database and one Redis, the participants taking them in
 * turn, all counted (all run in this process): a meeting's participants
 * spread over several instances, as behind a load balancer. For each size N a meeting
 * gets N − 1 participants, then the counts cover the N-th one's join (from
 * its `join` until every participant holds the list of N and the database
 * has been quiet for a while) and a media change of one participant (until
 * everyone sees it). Prints one JSON line.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TestClient, type Message } from '../../test/realtime/ws-client.ts';
import { difference, installCounting, snapshot, type Counts } from './counting.ts';

installCounting();
const [root, dialect, sizesArg, repeatsArg, instancesArg] = process.argv.slice(2) as [string, 'sqlite' | 'postgres', string, string, string?];
const sizes = sizesArg.split(',').map(Number);
const repeats = Number(repeatsArg);
const load = <T>(path: string): Promise<T> => import(pathToFileURL(join(root, path)).href) as Promise<T>;

const { loadConfig } = await load<typeof import('../../src/config.ts')>('src/config.ts');
const { createServer } = await load<typeof import('../../src/server.ts')>('src/server.ts');
const { createLogger } = await load<typeof import('../../src/logger.ts')>('src/logger.ts');
const { openStore } = await load<typeof import('../../src/store/open.ts')>('src/store/open.ts');
const { operatorActor } = await load<typeof import('../../src/domain/actors.ts')>('src/domain/actors.ts');
const { createOrganization } = await load<typeof import('../../src/domain/organizations.ts')>('src/domain/organizations.ts');
const { createMeeting } = await load<typeof import('../../src/domain/meetings.ts')>('src/domain/meetings.ts');
const { freshDatabaseUrl } = await load<typeof import('../../test/support/databases.ts')>('test/support/databases.ts');
const { TEST_REDIS_URL, uniquePrefix, deletePrefix } = await load<typeof import('../../test/support/redis.ts')>('test/support/redis.ts');

const database = dialect === 'sqlite' ? { url: 'sqlite::memory:', dispose: async () => {} } : await freshDatabaseUrl('postgres');
const prefix = uniquePrefix();
const env: Record<string, string> = {
  LOG_LEVEL: 'silent',
  API_SECRET_PEPPER: 'cost',
  IDLE_CLOSE_SECONDS: '600',
  WEBHOOK_POLL_MS: '60000',
  WS_CONNECTIONS_PER_ADDRESS: '0',
  DATABASE_URL: database.url,
  ...(dialect === 'postgres' ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix } : {}),
};
const config = loadConfig(env);
const first = await openStore(database.url, { migrate: true });
const stores = [first];
if (dialect === 'postgres') for (let i = 1; i < Number(instancesArg ?? 4); i++) stores.push(await openStore(database.url));
const instances = await Promise.all(
  stores.map(async (store, i) => {
    // No sweeps and no webhook polls inside the measured windows: only what a join or a media change causes.
    // Without sweeps no instance heartbeats, so their presence must not go stale meanwhile either.
    const realtime = { instanceId: `cost-${i}`, sweepIntervalMs: 3_600_000, instanceTtlMs: 3_600_000 };
    const server = await createServer({ config, store, logger: createLogger(config, false), realtime });
    await server.app.listen({ host: '127.0.0.1', port: 0 });
    const address = server.app.server.address() as { port: number };
    return { server, origin: `http://127.0.0.1:${address.port}` };
  }),
);
const ctx = instances[0]!.server.ctx;
const org = await createOrganization(ctx, { name: 'Cost', type: 'basic', slug: `cost-${randomUUID().slice(0, 8)}` });
const operator = operatorActor(org);
const clients: TestClient[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until no statement has been sent for `quietMs` (at most `maxMs`). */
async function quiet(quietMs = 400, maxMs = 5000): Promise<void> {
  const until = Date.now() + maxMs;
  let last = snapshot().statements;
  let since = Date.now();
  while (Date.now() < until) {
    await sleep(50);
    const now = snapshot().statements;
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
}

const latest = (c: TestClient, from: number): Message | undefined => c.messages.slice(from).filter((m) => m.type === 'participants').at(-1);

async function enter(meetingId: string, i: number): Promise<TestClient> {
  const c = await TestClient.connect(instances[i % instances.length]!.origin);
  clients.push(c);
  c.send({ type: 'join', meetingId, name: `P${i}`, audio: true, video: true });
  const welcome = await c.next((m) => m.type === 'welcome' || m.type === 'error' || m.type === 'knocking', 15_000);
  if (welcome.type !== 'welcome') throw new Error(`join refused: ${JSON.stringify(welcome)}`);
  return c;
}

/**
 * Until every client's latest participant list satisfies `check`; false
 * when some never showed it within 15 s (a list that went stale: counted
 * and reported, not hidden).
 */
async function everyone(present: TestClient[], marks: number[], check: (list: Array<Record<string, unknown>>) => boolean): Promise<boolean> {
  const until = Date.now() + 15_000;
  for (;;) {
    const done = present.every((c, k) => {
      const list = latest(c, marks[k]!)?.participants as Array<Record<string, unknown>> | undefined;
      return list !== undefined && check(list);
    });
    if (done) return true;
    if (Date.now() > until) return false;
    await sleep(10);
  }
}

const result: Record<string, { join: Counts[]; media: Counts[]; stale: number }> = {};
try {
  for (const size of sizes) {
    const joins: Counts[] = [];
    const media: Counts[] = [];
    let stale = 0;
    for (let r = 0; r < repeats; r++) {
      const meeting = await createMeeting(ctx, operator, { type: 'MEETING', isInfinite: true });
      const present: TestClient[] = [];
      for (let i = 0; i < size - 1; i++) present.push(await enter(meeting.id, i));
      await quiet();

      let marks = present.map((c) => c.messages.length);
      let before = snapshot();
      const newcomer = await enter(meeting.id, size - 1);
      if (!(await everyone(present, marks, (list) => list.length === size))) stale++;
      await quiet();
      joins.push(difference(snapshot(), before));
      present.push(newcomer);

      const changer = present[0]!;
      marks = present.map((c) => c.messages.length);
      before = snapshot();
      changer.send({ type: 'media', audio: false, video: true, screen: false });
      if (!(await everyone(present.slice(1), marks.slice(1), (list) => list.some((p) => p.name === 'P0' && p.audio === false)))) stale++;
      await quiet();
      media.push(difference(snapshot(), before));
      for (const c of present) c.close();
      await sleep(300);
      await quiet();
    }
    result[String(size)] = { join: joins, media, stale };
  }
  process.stdout.write(JSON.stringify({ root, dialect, instances: instances.length, result }) + '\n');
} finally {
  for (const c of clients) c.terminate();
  for (const { server } of instances) await server.app.close();
  for (const store of stores) await store.close();
  await database.dispose();
  if (dialect === 'postgres') await deletePrefix(prefix);
}

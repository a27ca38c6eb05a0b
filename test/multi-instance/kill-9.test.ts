/**
 * Durability under the harshest stop: a real Foyer process on each
 * database takes concurrent writes (meetings, boards and their updates),
 * is killed with SIGKILL while requests are in flight, and a new process
 * on the same database must find every write it acknowledged (a 2xx
 * answer) — a meeting created, a board created, a board's update.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshDatabaseUrl, testDatabases } from '../support/databases.ts';
import { startFoyer } from '../support/processes.ts';
import { createTenant, TEST_PEPPER } from '../support/tenant.ts';

const WRITERS = 12;
/** Long enough for a few hundred acknowledged writes before the kill. */
const WRITE_MS = 2500;

interface Acknowledged {
  meetings: string[];
  /** Board id → the name of its last acknowledged update. */
  boards: Map<string, string>;
}

for (const storage of await testDatabases()) {
  describe(`SIGKILL during writes on ${storage.name}`, { skip: storage.skip }, () => {
    it('loses no write it acknowledged', async (t) => {
      const database = await freshDatabaseUrl(storage.name);
      const tenant = await createTenant(database.url);
      const env = { DATABASE_URL: database.url, API_SECRET_PEPPER: TEST_PEPPER, RATE_LIMIT_PER_MINUTE: '1000000' };
      let foyer = await startFoyer(env);
      const acked: Acknowledged = { meetings: [], boards: new Map() };
      const headers = { ...tenant.headers, 'content-type': 'application/json' };
      try {
        let stopping = false;
        const writer = async (n: number) => {
          let board: string | undefined;
          for (let i = 0; !stopping; i++) {
            try {
              if (i % 3 === 0) {
                const res = await fetch(`${foyer.base}/api/v3/meeting`, { method: 'POST', headers, body: '{}' });
                if (res.status === 201) acked.meetings.push(((await res.json()) as { id: string }).id);
              } else if (!board) {
                const name = `Board ${n}`;
                const res = await fetch(`${foyer.base}/api/v3/rooms/board`, { method: 'POST', headers, body: JSON.stringify({ name, slug: `k9-${n}-${Date.now()}` }) });
                if (res.status === 201) {
                  board = ((await res.json()) as { id: string }).id;
                  acked.boards.set(board, name);
                }
              } else {
                const name = `Board ${n} update ${i}`;
                const res = await fetch(`${foyer.base}/api/v3/rooms/board/${board}`, { method: 'POST', headers, body: JSON.stringify({ name }) });
                if (res.status === 200) acked.boards.set(board, name);
              }
            } catch {
              // The process is gone: this request was never acknowledged.
              return;
            }
          }
        };
        const writers = Array.from({ length: WRITERS }, (_, n) => writer(n));
        await new Promise((r) => setTimeout(r, WRITE_MS));
        foyer.child.kill('SIGKILL');
        stopping = true;
        await Promise.all(writers);
        await foyer.stop();
        assert.ok(acked.meetings.length >= 20, `acknowledged meetings before the kill: ${acked.meetings.length}`);
        assert.ok(acked.boards.size >= WRITERS / 2, `acknowledged boards before the kill: ${acked.boards.size}`);
        assert.ok([...acked.boards.values()].some((name) => name.includes(' update ')), 'some board updates acknowledged');

        foyer = await startFoyer(env);
        const missing: string[] = [];
        for (const id of acked.meetings) {
          if ((await fetch(`${foyer.base}/api/v3/meeting/${id}`, { headers })).status !== 200) missing.push(`meeting ${id}`);
        }
        for (const [id, name] of acked.boards) {
          const res = await fetch(`${foyer.base}/api/v3/rooms/board/${id}`, { headers });
          const found = res.status === 200 ? ((await res.json()) as { name: string }).name : `status ${res.status}`;
          // The last acknowledged update, or one sent after it whose answer the kill swallowed.
          if (found !== name && !(found.startsWith(`${name.split(' update ')[0]} update `) && updateNumber(found) > updateNumber(name))) {
            missing.push(`board ${id}: ${found}, acknowledged ${name}`);
          }
        }
        const summary = `${acked.meetings.length} meetings and ${acked.boards.size} boards acknowledged before the kill`;
        t.diagnostic(summary);
        assert.deepEqual(missing, [], summary);
      } finally {
        await foyer.stop();
        await database.dispose();
      }
    });
  });
}

function updateNumber(name: string): number {
  return Number(/ update (\d+)$/.exec(name)?.[1] ?? -1);
}

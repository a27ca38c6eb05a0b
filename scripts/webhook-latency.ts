/**
 * @module scripts/webhook-latency
 * Event to delivery: how long after a change commits its webhook reaches a
 * receiver on loopback. Foyer runs in this process (the same wiring as
 * `npm start`) on a fresh SQLite file or a fresh PostgreSQL database (made
 * and dropped like the tests' ones, test/support/databases.ts);
 * meetings are created through the domain at `rate` per second (0: as
 * fast as they can be), and the receiver (in a thread of its own) notes
 * when each `meeting.created` arrives, against the event's own timestamp.
 * Prints the median, p90, p99 and maximum.
 *
 *   node --import tsx scripts/webhook-latency.ts [events=1000] [rate=100] [sqlite|postgres]
 */
import { Worker } from 'node:worker_threads';
import { loadConfig } from '../src/config.ts';
import { operatorActor } from '../src/domain/actors.ts';
import { createMeeting } from '../src/domain/meetings.ts';
import { createOrganization } from '../src/domain/organizations.ts';
import { createWebhookEndpoint } from '../src/domain/webhooks/endpoints.ts';
import { createLogger } from '../src/logger.ts';
import { createServer } from '../src/server.ts';
import { openStore } from '../src/store/open.ts';
import { freshDatabaseUrl } from '../test/support/databases.ts';

const events = Number(process.argv[2] ?? 1000);
const rate = Number(process.argv[3] ?? 100);
const database = await freshDatabaseUrl(process.argv[4] === 'postgres' ? 'postgres' : 'sqlite');
const databaseUrl = database.url;

// The receiver runs in a thread of its own, as a real one would in its own process: its clock is the
// same, but Foyer's event loop (busy with SQLite commits) does not delay when it notices a request.
const RECEIVER = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const server = http.createServer((req, res) => {
  const arrived = Date.now();
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    res.writeHead(204).end();
    parentPort.postMessage(arrived - Date.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')).timestamp));
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
`;
const latencies: number[] = [];
let done: () => void = () => {};
const finished = new Promise<void>((resolve) => (done = resolve));
const receiver = new Worker(RECEIVER, { eval: true });
const port = await new Promise<number>((resolve) =>
  receiver.on('message', (m: number | { port: number }) => {
    if (typeof m === 'object') return resolve(m.port);
    latencies.push(m);
    if (latencies.length === events) done();
  }),
);
const receiverUrl = `http://127.0.0.1:${port}/hooks`;

const store = await openStore(databaseUrl, { migrate: true });
const config = loadConfig({ LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE: 'true', DATABASE_URL: databaseUrl });
const { app, ctx } = await createServer({ config, store, logger: createLogger(config, false) });
await app.listen({ host: '127.0.0.1', port: 0 });
const org = await createOrganization(ctx, { name: 'Latency', type: 'basic' });
const operator = operatorActor(org);
await createWebhookEndpoint(ctx, operator, { url: receiverUrl, events: ['meeting.created'] });

const started = Date.now();
const creating: Array<Promise<unknown>> = [];
for (let i = 0; i < events; i++) {
  if (rate > 0) {
    const due = started + (i * 1000) / rate;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    creating.push(createMeeting(ctx, operator, {}));
  } else {
    await createMeeting(ctx, operator, {});
  }
}
await Promise.all(creating);
await finished;
const seconds = (Date.now() - started) / 1000;

latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
console.log(`${events} events on ${store.dialect}, asked ${rate > 0 ? `${rate}/s` : 'as fast as possible'}, delivered ${(events / seconds).toFixed(0)}/s`);
console.log(`event to delivery: median ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${latencies.at(-1)} ms`);

await app.close();
await store.close();
await receiver.terminate();
await database.dispose();

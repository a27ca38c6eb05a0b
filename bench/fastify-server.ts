/**
 * @module bench/fastify-server
 * The framework's own floor: a minimal Fastify 5 app (no logger, no hooks,
 * no database, no authentication) answering the bare server's constant JSON
 * body. Foyer's distance from this server is its own work (authentication,
 * limits, storage, serialization); this server's distance from the bare one
 * is the framework's. Port from argv[2].
 */
import Fastify from 'fastify';

const body = {
  id: '6f1c2a9e-8d4b-4c1e-9f3a-2b7d5e8c1a40',
  redirectUrl: 'http://localhost:3000/meetings/6f1c2a9e-8d4b-4c1e-9f3a-2b7d5e8c1a40',
  isInfinite: false,
};

const app = Fastify({ logger: false });
app.get('/', async () => body);
app.post('/', async () => body);
await app.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
console.log(`listening on ${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : ''}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));

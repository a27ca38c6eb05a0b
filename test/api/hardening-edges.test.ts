/**
 * Edges of the HTTP side, on SQLite and PostgreSQL:
 * - a lone surrogate (half a UTF-16 pair, which JSON's `\ud800` escape can
 *   write) anywhere in a body is refused with 400 naming the field, and
 *   nothing is stored (the databases would store it altered, and
 *   differently); well-formed text, pairs included, is stored as sent;
 * - the API reference at /api/docs is never framed and runs under a
 *   strict CSP;
 * - a client that resets its connection in the middle of a body is logged
 *   below error level.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type TestServer } from '../support/server.ts';
import { assertCreated, assertProblem, uniqueSlug } from './harness.ts';

for (const storage of await testDatabases()) {
  describe(`HTTP edges on ${storage.name}`, { skip: storage.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let api: Client;
    let headers: Record<string, string>;
    const logged: Array<{ level: number; msg?: string; [key: string]: unknown }> = [];
    before(async () => {
      db = await storage.open();
      const stream = new Writable({
        write(chunk, _encoding, done) {
          for (const line of String(chunk).split('\n').filter(Boolean)) logged.push(JSON.parse(line));
          done();
        },
      });
      server = await startServer(db.store, { logLevel: 'info' }, { logger: { stream } });
      const seeded = await seedOrganization(server.ctx, 'basic');
      headers = seeded.headers;
      api = client(server.baseUrl, seeded);
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    it('refuses a lone surrogate in a title, a name or a stored parameter, naming the field, and stores nothing', async () => {
      const slug = uniqueSlug();
      assertProblem(await api.post('/v2/room', { json: { slug, title: 'Cardiology \ud83d' } }), 400, 'validation-failed', ['title']);
      assertProblem(await api.get(`/v2/room/${slug}`), 404, 'not-found');
      assertProblem(await api.post('/v3/rooms/board', { json: { name: '\udc00 desk', slug: uniqueSlug() } }), 400, 'validation-failed', ['name']);
      const meeting = await api.post('/v3/meeting', { json: { queryParameters: { displayName: 'Ann \ud800' } } });
      assertProblem(meeting, 400, 'validation-failed', ['queryParameters.displayName']);
      assertProblem(await api.post('/v3/meeting', { json: { queryParameters: { ['k\udfff']: 'v' } } }), 400, 'validation-failed', ['queryParameters']);
    });

    it('stores well-formed titles, surrogate pairs included, exactly as sent', async () => {
      const slug = uniqueSlug();
      const title = 'Cardiology 🫀 Ünïcødé';
      assertCreated(await api.post('/v2/room', { json: { slug, title } }));
      assert.equal((await api.get(`/v2/room/${slug}`)).body.title, title);
    });

    it('serves the API reference unframeable, under a strict CSP', async () => {
      for (const path of ['/api/docs', '/api/docs/', '/api/docs/static/index.html', '/api/docs/static/swagger-ui.css']) {
        const response = await fetch(server.origin + path, { redirect: 'manual' });
        await response.arrayBuffer();
        assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
        const csp = response.headers.get('content-security-policy') ?? '';
        assert.match(csp, /frame-ancestors 'none'/, path);
        assert.match(csp, /default-src 'self'/, path);
        assert.match(csp, /object-src 'none'/, path);
        assert.doesNotMatch(csp, /https:|unsafe-eval|validator\.swagger\.io|upgrade-insecure-requests/, path);
      }
      const page = await fetch(server.origin + '/api/docs/static/index.html');
      assert.equal(page.status, 200);
    });

    it('logs a client resetting in the middle of a body below error level', async () => {
      const before = logged.length;
      const url = new URL(server.baseUrl);
      const socket = connect(Number(url.port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.write(`POST ${url.pathname}/v3/meeting HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n${head}\r\n{"type":`);
      await new Promise((r) => setTimeout(r, 300));
      socket.resetAndDestroy();
      await new Promise((r) => setTimeout(r, 700));
      const lines = logged.slice(before);
      assert.ok(lines.some((l) => l.msg === 'client went away during the request' && l.level === 30), JSON.stringify(lines));
      assert.deepEqual(lines.filter((l) => l.level >= 40), []);
    });
  });
}

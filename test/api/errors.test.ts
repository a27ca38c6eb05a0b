/**
 * Error answers through real HTTP on SQLite and PostgreSQL: RFC 9457 problem
 * details for malformed, oversized and wrongly typed bodies, unknown routes
 * and unexpected failures; nothing changes on refusal; no internals leak
 * into responses or logs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import { testDatabases } from '../support/databases.ts';
import { client, request, seedOrganization, startServer } from '../support/server.ts';
import { assertCreated, assertProblem, uniqueSlug, useApi } from './harness.ts';

const BIG = 'x'.repeat(70 * 1024);

for (const storage of await testDatabases()) {
  describe(`error answers on ${storage.name}`, { skip: storage.skip }, () => {
    const env = useApi(storage);

    it('answers 415 to JSON sent to v1 and to forms sent to v2 and v3', async () => {
      const json = await env.med.post('/meeting', { json: { owner_email: env.medical.users[0]!.email } });
      assertProblem(json, 415, 'unsupported-media-type');
      assert.match(json.body.detail, /application\/x-www-form-urlencoded/);
      for (const path of ['/v2/meeting', '/v3/meeting', '/v2/room', '/v3/rooms/board']) {
        const form = await env.med.post(path, { form: { ownerEmail: env.medical.users[0]!.email } });
        assertProblem(form, 415, 'unsupported-media-type');
        assert.match(form.body.detail, /application\/json/);
      }
    });

    it('answers 415 to text, XML and multipart bodies', async () => {
      assertProblem(await env.med.post('/v3/meeting', { raw: { body: '{}', contentType: 'text/plain' } }), 415, 'unsupported-media-type');
      assertProblem(await env.med.post('/v2/room', { raw: { body: '<room/>', contentType: 'application/xml' } }), 415, 'unsupported-media-type');
      assertProblem(
        await env.med.post('/room', { raw: { body: '--b\r\n\r\n--b--', contentType: 'multipart/form-data; boundary=b' } }),
        415,
        'unsupported-media-type',
      );
    });

    it('accepts JSON with a charset parameter', async () => {
      assertCreated(await env.bas.post('/v3/meeting', { raw: { body: '{}', contentType: 'application/json; charset=utf-8' } }));
    });

    it('answers 400 malformed-request to invalid or empty JSON', async () => {
      const res = await env.med.post('/v3/meeting', { raw: { body: '{"ownerEmail": ', contentType: 'application/json' } });
      assertProblem(res, 400, 'malformed-request');
      assert.ok(!res.text.includes('ownerEmail'), 'does not echo the body');
      assertProblem(await env.med.post('/v2/meeting', { raw: { body: '', contentType: 'application/json' } }), 400, 'malformed-request');
    });

    it('answers 400 to a JSON body that is not an object', async () => {
      for (const body of ['[]', '"meeting"', '42', 'null']) {
        assertProblem(await env.bas.post('/v3/meeting', { raw: { body, contentType: 'application/json' } }), 400, 'validation-failed');
      }
    });

    it('answers 413 to a body over the limit, in JSON and form versions, and creates nothing', async () => {
      const id = randomUUID();
      const json = await env.bas.post('/v3/meeting', { json: { meetingId: id, queryParameters: { pad: BIG } } });
      assertProblem(json, 413, 'payload-too-large');
      assert.equal(await env.db.store.live.findMeetingRecord({ id }), undefined);
      const slug = uniqueSlug();
      assertProblem(await env.med.post('/room', { form: { slug, title: BIG } }), 413, 'payload-too-large');
      assertProblem(await env.med.get(`/room/${slug}`), 404, 'not-found');
    });

    it('refuses text containing NUL characters, naming the field, and creates nothing', async () => {
      const slug = uniqueSlug();
      assertProblem(await env.med.post('/v2/room', { json: { slug, title: 'a\u0000b' } }), 400, 'validation-failed', ['title']);
      assertProblem(await env.med.post('/v3/meeting', { json: { ownerEmail: 'a\u0000@b.test' } }), 400, 'validation-failed', ['ownerEmail']);
      assertProblem(await env.med.post('/room', { form: { slug: uniqueSlug(), title: 'x\u0000' } }), 400, 'validation-failed', ['title']);
      assertProblem(await env.med.get(`/v2/room/${slug}`), 404, 'not-found');
    });

    it('ignores unknown body fields', async () => {
      const res = await env.bas.post('/v3/meeting', { json: { colour: 'blue', type: 'CONSULTATION' } });
      assertCreated(res);
      assert.deepEqual(Object.keys(res.body).sort(), ['id', 'redirectUrl']);
      assertCreated(await env.bas.post('/meeting', { form: { unknown_field: 'x' } }));
    });

    it('answers 400 to a repeated form field', async () => {
      const res = await env.med.post('/room', { raw: { body: `slug=${uniqueSlug()}&slug=${uniqueSlug()}`, contentType: 'application/x-www-form-urlencoded' } });
      assertProblem(res, 400, 'validation-failed', ['slug']);
    });

    it('answers 404 problem details to an unknown route, authenticated or not', async () => {
      assertProblem(await env.med.get('/v4/meeting'), 404, 'not-found');
      assertProblem(await request(`${env.server.origin}/nothing/here`, 'GET'), 404, 'not-found');
      assertProblem(await env.med.put('/v3/meeting'), 404, 'not-found');
    });

    it('answers 400 problem details to an undecodable URL', async () => {
      assertProblem(await env.med.get('/v3/room/%E0%A4%A'), 400, 'malformed-request');
    });

    it('answers a generic 500 for an unexpected failure, with no internals in the response or the log', async () => {
      const secretSql = 'SELECT secret_hash FROM api_keys WHERE 1=1';
      const failing = new Proxy(env.db.store, {
        get(target, property, receiver) {
          if (property === 'listUsers') return async () => { throw new Error(secretSql); };
          return Reflect.get(target, property, receiver);
        },
      }) as StoreConnection;
      const lines: string[] = [];
      const stream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
      const server = await startServer(failing, {}, { logger: { level: 'info', stream } });
      try {
        const org = await seedOrganization(server.ctx, 'basic', []);
        const res = await client(server.baseUrl, org).get('/v3/organizations');
        assertProblem(res, 500, 'internal-error');
        assert.ok(!res.text.includes('SELECT') && !res.text.includes('at '), res.text);
        const log = lines.join('');
        assert.match(log, /request failed/);
        assert.ok(!log.includes('SELECT'), 'no SQL in the log');
        assert.ok(!log.includes(org.secret), 'no secret in the log');
        assert.ok(!log.includes(org.key.publicKey), 'no key in the log');
      } finally {
        await server.close();
      }
    });
  });
}

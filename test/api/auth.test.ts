/**
 * API-key authentication through real HTTP on SQLite and PostgreSQL: every
 * endpoint refuses missing, unknown, wrong, expired and revoked credentials
 * with one identical 401 problem, before reading the body.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.ts';
import { client, credentialHeaders, issueKey, request, revokeKey, type ApiResponse } from '../support/server.ts';
import { assertCreated, assertOk, assertProblem, useApi } from './harness.ts';

/** Every row of the spec's endpoint tables (ids need not exist: auth comes first). */
const ENDPOINTS: Array<[string, string]> = [
  ['GET', '/organizations'],
  ['POST', '/meeting'],
  ['GET', `/meeting/${randomUUID()}`],
  ['POST', '/room'],
  ['GET', '/room/some-room'],
  ['GET', '/v2/organizations'],
  ['POST', '/v2/meeting'],
  ['GET', `/v2/meeting/${randomUUID()}`],
  ['POST', '/v2/room'],
  ['GET', '/v2/room/some-room'],
  ['GET', '/v3/organizations'],
  ['POST', '/v3/meeting'],
  ['GET', `/v3/meeting/${randomUUID()}`],
  ['DELETE', `/v3/meeting/${randomUUID()}`],
  ['GET', '/v3/room/some-room'],
  ['POST', '/v3/rooms/board'],
  ['GET', `/v3/rooms/board/${randomUUID()}`],
  ['POST', `/v3/rooms/board/${randomUUID()}`],
  ['DELETE', `/v3/rooms/board/${randomUUID()}`],
  ['POST', '/v3/rooms/queue'],
  ['GET', `/v3/rooms/queue/${randomUUID()}`],
  ['POST', `/v3/rooms/queue/${randomUUID()}`],
  ['DELETE', `/v3/rooms/queue/${randomUUID()}`],
  ['GET', `/v3/meeting/${randomUUID()}/participants`],
  ['POST', `/v3/meeting/${randomUUID()}/end`],
  ['DELETE', `/v3/meeting/${randomUUID()}/participants/c_someone`],
  ['GET', `/v3/rooms/board/${randomUUID()}/waiting`],
  ['GET', `/v3/rooms/queue/${randomUUID()}/waiting`],
  ['POST', `/v3/rooms/board/${randomUUID()}/waiting/${randomUUID()}/accept`],
  ['POST', `/v3/rooms/board/${randomUUID()}/waiting/${randomUUID()}/decline`],
  ['POST', `/v3/rooms/queue/${randomUUID()}/next`],
  ['GET', '/v3/allowed-origins'],
  ['POST', '/v3/allowed-origins'],
];

for (const storage of await testDatabases()) {
  describe(`authentication on ${storage.name}`, { skip: storage.skip }, () => {
    const env = useApi(storage);

    async function badCredentials(): Promise<Array<[string, Record<string, string>]>> {
      const { ctx } = env.server;
      const org = env.medical.organization;
      const hourAgo = new Date(Date.now() - 3_600_000);
      const expired = await issueKey(ctx, org, { issuedAt: new Date(hourAgo.getTime() - 60_000), expiresAt: hourAgo });
      const revoked = await issueKey(ctx, org);
      await revokeKey(ctx, revoked.key);
      const other = await issueKey(ctx, env.stranger.organization);
      return [
        ['no headers', {}],
        ['only API_KEY', { API_KEY: env.medical.key.publicKey }],
        ['only API_SECRET', { API_SECRET: env.medical.secret }],
        ['empty values', credentialHeaders('', '')],
        ['unknown key', credentialHeaders('fk_unknownunknownunknown1', env.medical.secret)],
        ['wrong secret', credentialHeaders(env.medical.key.publicKey, env.medical.secret + 'x')],
        ["another key's secret", credentialHeaders(env.medical.key.publicKey, other.secret)],
        ['expired key', expired.headers],
        ['revoked key', revoked.headers],
        ['overlong key', credentialHeaders('k'.repeat(5000), env.medical.secret)],
      ];
    }

    it('answers 401 with one identical problem body for missing, unknown, wrong, expired and revoked credentials', async () => {
      let first: ApiResponse | undefined;
      for (const [why, headers] of await badCredentials()) {
        const res = await request(`${env.server.baseUrl}/v3/organizations`, 'GET', { headers });
        assertProblem(res, 401, 'unauthorized');
        assert.ok(res.headers.get('www-authenticate'), `${why}: WWW-Authenticate`);
        first ??= res;
        assert.deepEqual(res.body, first.body, `${why}: same body`);
        assert.equal(res.text, first.text, `${why}: same bytes`);
        assert.ok(!res.text.includes(env.medical.secret), `${why}: secret not echoed`);
      }
    });

    it('refuses every endpoint of every version without valid credentials', async () => {
      const bad = await badCredentials();
      const expected = (await request(`${env.server.baseUrl}/v3/organizations`, 'GET')).body;
      for (const [method, path] of ENDPOINTS) {
        for (const [why, headers] of bad) {
          const options = method === 'POST' ? { headers, json: {} } : { headers };
          const res = await request(env.server.baseUrl + path, method, options);
          assert.equal(res.status, 401, `${method} ${path} with ${why}: ${res.status} ${res.text}`);
          assert.deepEqual(res.body, expected);
        }
      }
    });

    it('checks credentials before reading the body: no 413 or 415 for an anonymous client', async () => {
      const big = { raw: { body: 'x'.repeat(200_000), contentType: 'application/json' } };
      assertProblem(await request(`${env.server.baseUrl}/v3/meeting`, 'POST', big), 401, 'unauthorized');
      const wrongType = { raw: { body: '<a/>', contentType: 'application/xml' } };
      assertProblem(await request(`${env.server.baseUrl}/meeting`, 'POST', wrongType), 401, 'unauthorized');
      assertProblem(await request(`${env.server.baseUrl}/v3/meeting`, 'POST', { raw: { body: '{', contentType: 'application/json' } }), 401, 'unauthorized');
    });

    it('creates nothing for a refused request', async () => {
      const id = randomUUID();
      const revoked = await issueKey(env.server.ctx, env.basic.organization);
      await revokeKey(env.server.ctx, revoked.key);
      assertProblem(await client(env.server.baseUrl, revoked).post('/v3/meeting', { json: { meetingId: id } }), 401, 'unauthorized');
      assert.equal(await env.db.store.live.findMeetingRecord({ id }), undefined);
    });

    it('accepts a key with a future expiry and refuses it once revoked', async () => {
      const key = await issueKey(env.server.ctx, env.basic.organization, { expiresAt: new Date(Date.now() + 86_400_000) });
      const api = client(env.server.baseUrl, key);
      assertOk(await api.get('/v3/organizations'));
      assertCreated(await api.post('/v3/meeting'));
      await revokeKey(env.server.ctx, key.key);
      assertProblem(await api.get('/v3/organizations'), 401, 'unauthorized');
    });

    it('acts for the key’s own organization', async () => {
      const second = await issueKey(env.server.ctx, env.basic.organization);
      const res = await client(env.server.baseUrl, second).get('/v2/organizations');
      assert.equal(res.body.name, env.basic.organization.name);
    });
  });
}

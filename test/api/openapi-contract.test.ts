/**
 * The served OpenAPI document as an integrator's tools read it: Spectral's
 * `spectral:oas` ruleset finds nothing in it (not even a warning); ids are
 * UUIDs; a bare `POST /v3/meeting` is allowed by the document as by the
 * server; the headers and statuses the server really answers with are
 * declared (checked against live answers); each answer's body is a named
 * schema; a meeting's `type` and a webhook's `events` are enums.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/types.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { lintOpenApi } from '../support/openapi-lint.ts';
import { request, seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

describe('the served OpenAPI document', () => {
  let db: TestDatabase;
  let server: TestServer;
  let org: SeededOrganization;
  let doc: any;
  const operations = () =>
    Object.entries<any>(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })));
  const schemaOf = (node: any) => (node?.$ref ? doc.components.schemas[node.$ref.replace('#/components/schemas/', '')] : node);

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store, {}, { limits: true });
    org = await seedOrganization(server.ctx, 'basic');
    doc = (await request(`${server.baseUrl}/openapi.json`, 'GET')).body;
  });
  after(async () => {
    await server.close();
    await db.dispose();
  });

  it('passes Spectral’s spectral:oas ruleset without a single finding', async () => {
    const findings = await lintOpenApi(doc);
    assert.deepEqual(findings.map((f) => `${f.severity} ${f.code} at ${f.path}: ${f.message}`), []);
  });

  it('says that every id is a UUID: in paths, in bodies and in answers', () => {
    const meetingPath = doc.paths['/api/v3/meeting/{id}'].get.parameters.find((p: any) => p.name === 'id');
    assert.equal(meetingPath.schema.format, 'uuid');
    for (const path of ['/api/v3/rooms/board/{id}', '/api/v3/rooms/queue/{id}', '/api/v3/webhooks/{id}']) {
      assert.equal(doc.paths[path].get.parameters.find((p: any) => p.name === 'id').schema.format, 'uuid', path);
    }
    assert.equal(doc.components.schemas.CreateMeetingV3.properties.meetingId.format, 'uuid');
    assert.equal(doc.components.schemas.MeetingV3.properties.id.format, 'uuid');
    assert.equal(doc.components.schemas.Board.properties.organizationId.format, 'uuid');
    assert.equal(doc.components.schemas.Member.properties.userId.format, 'uuid');
    assert.equal(doc.components.schemas.User.properties.id.format, 'uuid');
    const update = schemaOf(doc.paths['/api/v3/rooms/board/{id}'].post.requestBody.content['application/json'].schema);
    assert.equal(update.properties.membersIds.items.format, 'uuid');
  });

  it('lets a bare POST /v3/meeting through, as the server does, and requires only bodies with required fields', async () => {
    assert.equal(doc.paths['/api/v3/meeting'].post.requestBody.required, false);
    assert.equal(doc.paths['/api/v3/rooms/board'].post.requestBody.required, true);
    const bare = await request(`${server.baseUrl}/v3/meeting`, 'POST', { headers: org.headers });
    assert.equal(bare.status, 201, bare.text);
  });

  it('names the meeting types and the webhook event types as enums', () => {
    assert.deepEqual(doc.components.schemas.CreateMeetingV3.properties.type.enum, ['MEETING', 'CONSULTATION']);
    for (const path of ['/api/v3/webhooks', '/api/v3/webhooks/{id}']) {
      const body = schemaOf(doc.paths[path].post.requestBody.content['application/json'].schema);
      assert.deepEqual(body.properties.events.items.enum, [...WEBHOOK_EVENT_TYPES], path);
    }
    assert.deepEqual(doc.components.schemas.Webhook.properties.events.items.enum, [...WEBHOOK_EVENT_TYPES]);
  });

  it('answers with named schemas and documents 500 on every operation', () => {
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        for (const media of Object.values<any>(response.content ?? {})) {
          assert.match(media.schema.$ref ?? '', /^#\/components\/schemas\/[A-Z]\w+$/, `${method} ${path} ${status} is a named schema`);
        }
      }
      assert.equal(op.responses['500']?.content['application/problem+json'].schema.$ref, '#/components/schemas/Problem', `${method} ${path} 500`);
    }
  });

  it('declares the headers the server really sends: Location, RateLimit-*, Retry-After, WWW-Authenticate', async () => {
    const declared = (path: string, method: string, status: number) =>
      Object.keys(doc.paths[path][method].responses[String(status)]?.headers ?? {}).map((h) => h.toLowerCase());
    const check = async (path: string, method: string, url: string, options: Parameters<typeof request>[2], expected: number) => {
      const res = await request(url, method.toUpperCase(), options);
      assert.equal(res.status, expected, res.text);
      const names = declared(path, method, expected);
      for (const name of ['location', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'www-authenticate']) {
        if (res.headers.get(name) !== null) assert.ok(names.includes(name), `${method} ${path} ${expected} sends ${name}, which is not declared`);
      }
      return names;
    };
    const created = await check('/api/v3/meeting', 'post', `${server.baseUrl}/v3/meeting`, { headers: org.headers, json: {} }, 201);
    assert.ok(created.includes('location'));
    await check('/api/v3/meeting/{id}', 'get', `${server.baseUrl}/v3/meeting/00000000-0000-4000-8000-000000000000`, { headers: org.headers }, 404);
    const anonymous = await check('/api/v3/organizations', 'get', `${server.baseUrl}/v3/organizations`, {}, 401);
    assert.deepEqual(anonymous, ['www-authenticate']);
    assert.ok(declared('/api/v3/organizations', 'get', 429).includes('retry-after'));
    for (const name of ['Location', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'WWW-Authenticate']) {
      assert.ok(doc.components.headers[name]?.description, `${name} is described`);
    }
  });
});

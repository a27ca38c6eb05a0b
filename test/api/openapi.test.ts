/**
 * The published API description and the surface around the API, through
 * real HTTP on SQLite and PostgreSQL: the OpenAPI 3.1 document generated
 * from the route schemas, the interactive reference, health routes, and
 * the absence of any CORS grant.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.ts';
import { request } from '../support/server.ts';
import { useApi } from './harness.ts';

const V3_OPERATIONS: Array<[string, string]> = [
  ['/api/v3/organizations', 'get'],
  ['/api/v3/meeting', 'post'],
  ['/api/v3/meeting/{id}', 'get'],
  ['/api/v3/meeting/{id}', 'delete'],
  ['/api/v3/room/{slug}', 'get'],
  ['/api/v3/rooms/board', 'post'],
  ['/api/v3/rooms/board/{id}', 'get'],
  ['/api/v3/rooms/board/{id}', 'post'],
  ['/api/v3/rooms/board/{id}', 'delete'],
  ['/api/v3/rooms/queue', 'post'],
  ['/api/v3/rooms/queue/{id}', 'get'],
  ['/api/v3/rooms/queue/{id}', 'post'],
  ['/api/v3/rooms/queue/{id}', 'delete'],
];

for (const storage of await testDatabases()) {
  describe(`API description and surface on ${storage.name}`, { skip: storage.skip }, () => {
    const env = useApi(storage);

    it('serves an OpenAPI 3.1 document without credentials, with every v3 operation', async () => {
      const res = await request(`${env.server.baseUrl}/openapi.json`, 'GET');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /json/);
      assert.equal(res.body.openapi, '3.1.0');
      for (const [path, method] of V3_OPERATIONS) {
        assert.ok(res.body.paths[path]?.[method], `${method.toUpperCase()} ${path} documented`);
      }
      for (const path of ['/api/organizations', '/api/meeting', '/api/meeting/{id}', '/api/room', '/api/room/{slug}', '/api/v2/meeting', '/api/v2/room/{slug}']) {
        assert.ok(res.body.paths[path], `${path} documented`);
      }
      assert.equal(res.body.paths['/health'], undefined, 'health is not part of the API');
      const outside = Object.keys(res.body.paths).filter((path) => !path.startsWith('/api/'));
      assert.deepEqual(outside, [], 'pages and the dashboard are not part of the API');
    });

    it('documents the API_KEY and API_SECRET header schemes and requires them', async () => {
      const doc = (await request(`${env.server.baseUrl}/openapi.json`, 'GET')).body;
      const schemes = Object.values(doc.components.securitySchemes) as Array<{ type: string; in: string; name: string }>;
      assert.deepEqual(schemes.map((s) => [s.type, s.in, s.name]).sort(), [['apiKey', 'header', 'API_KEY'], ['apiKey', 'header', 'API_SECRET']]);
      assert.deepEqual(Object.keys(doc.security[0]).sort(), Object.keys(doc.components.securitySchemes).sort());
    });

    it('documents request bodies and responses from the validating schemas', async () => {
      const doc = (await request(`${env.server.baseUrl}/openapi.json`, 'GET')).body;
      const resolve = (schema: any) => (schema.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema);
      const create = doc.paths['/api/v3/meeting'].post;
      const body = resolve(create.requestBody.content['application/json'].schema);
      assert.deepEqual(Object.keys(body.properties).sort(), ['isInfinite', 'meetingId', 'ownerEmail', 'queryParameters', 'title', 'type', 'waitForOwner']);
      // The one field beyond the spec, documented as Foyer's extension.
      assert.match(body.properties.waitForOwner.description, /^Foyer extension\./);
      assert.ok(create.responses['201'], 'create answers 201');
      assert.ok(create.responses['400'].content['application/problem+json'], 'errors are problem details');
      const v1 = doc.paths['/api/meeting'].post;
      assert.ok(v1.requestBody.content['application/x-www-form-urlencoded'], 'v1 takes forms');
      assert.deepEqual(Object.keys(resolve(v1.responses['201'].content['application/json'].schema).properties).sort(), ['id', 'redirect_url']);
      const board = resolve(doc.paths['/api/v3/rooms/board'].post.requestBody.content['application/json'].schema);
      assert.deepEqual([...board.required].sort(), ['name', 'slug']);
    });

    it('serves the interactive reference as HTML at /api/docs', async () => {
      const res = await fetch(`${env.server.baseUrl}/docs`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await res.text(), /swagger/i);
    });

    it('grants no CORS access, even to a request with an Origin header or a preflight', async () => {
      const origin = { Origin: 'https://evil.example' };
      const api = await request(`${env.server.baseUrl}/v3/organizations`, 'GET', { headers: { ...env.medical.headers, ...origin } });
      assert.equal(api.status, 200);
      assert.equal(api.headers.get('access-control-allow-origin'), null);
      const denied = await request(`${env.server.baseUrl}/v3/organizations`, 'GET', { headers: origin });
      assert.equal(denied.headers.get('access-control-allow-origin'), null);
      const preflight = await request(`${env.server.baseUrl}/v3/meeting`, 'OPTIONS', {
        headers: { ...origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'api_key,api_secret' },
      });
      assert.notEqual(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), null);
      assert.equal(preflight.headers.get('access-control-allow-headers'), null);
    });

    it('answers /health and /ready without credentials', async () => {
      const health = await request(`${env.server.origin}/health`, 'GET');
      assert.equal(health.status, 200);
      assert.deepEqual(health.body, { status: 'ok' });
      const ready = await request(`${env.server.origin}/ready`, 'GET');
      assert.equal(ready.status, 200);
      assert.equal(ready.body.status, 'ready');
    });
  });
}

/**
 * A regression net over every API operation: fast-check generates requests
 * from the OpenAPI document (itself made from the TypeBox schemas that
 * validate requests) — bodies mostly shaped like the schema with wrong
 * values mixed in, broken JSON, wrong content types, real and made-up ids,
 * with and without valid credentials — and every answer must be below 500,
 * and every 4xx a problem+json document that names its own status.
 *
 * Seeded, so a failure reproduces: FUZZ_SEED=<seed printed> npm test -- test/api/fuzz.test.ts
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';
import { client, credentialHeaders, seedOrganization, startServer, type TestServer } from '../support/server.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  contentType: string | undefined;
  body: Schema | undefined;
}

/** Values a careless or hostile client sends anywhere. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('', ' ', '\u0000', 'x'.repeat(5000), '../../etc/passwd', '<script>alert(1)</script>', '💥\uD800', '1e309', '-0'),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** Mostly what the schema describes, sometimes junk in its place. */
function fromSchema(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return junk;
  return fc.oneof({ weight: 6, arbitrary: shaped(schema, depth) }, { weight: 1, arbitrary: junk });
}

function shaped(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => fromSchema(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type : [schema.type];
  return fc.oneof(...type.map((t: string) => ofType(t, schema, depth)));
}

function ofType(type: string, schema: Schema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return fc.date({ min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
      if (schema.format === 'email') return fc.emailAddress();
      return fc.string({ maxLength: Math.min(schema.maxLength ?? 40, 80) });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromSchema(schema.items, depth + 1), { maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'object': {
      const properties = Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([k, s]) => [k, fromSchema(s, depth + 1)]));
      return fc.record(properties, { requiredKeys: [] });
    }
    default:
      return junk;
  }
}

const formOf = (value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? new URLSearchParams(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()
    : String(value);

describe('every API operation under generated requests', () => {
  let db: TestDatabase;
  let server: TestServer;
  let operations: Operation[];
  let goodHeaders: Record<string, string>;
  const realIds: string[] = [];

  before(async () => {
    db = await openTestDatabase('sqlite');
    server = await startServer(db.store);
    const seeded = await seedOrganization(server.ctx, 'basic');
    goodHeaders = credentialHeaders(seeded.key.publicKey, seeded.secret);
    const api = client(server.baseUrl, seeded);
    for (const [path, json] of [['/v3/meeting', {}], ['/v3/rooms/board', { name: 'Board', slug: 'fuzz-board' }], ['/v3/rooms/queue', { name: 'Queue', slug: 'fuzz-queue' }]] as const) {
      const created = await api.post(path, { json });
      assert.equal(created.status, 201, created.text);
      realIds.push(created.body.id);
    }
    realIds.push('fuzz-board', 'fuzz-queue', seeded.users[0]!.id);
    const doc = (await server.app.inject({ method: 'GET', url: `${server.config.apiPrefix}/openapi.json` })).json();
    operations = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => {
        const [contentType, media] = Object.entries<any>(op.requestBody?.content ?? {})[0] ?? [];
        return { method: method.toUpperCase(), path, contentType, body: media?.schema };
      }),
    );
  });
  after(async () => {
    await server?.close();
    await db?.dispose();
  });

  it('answers every request below 500, and every 4xx as problem+json naming its status', async () => {
    assert.ok(operations.length >= 20, `operations found: ${operations.length}`);
    const request = fc.integer({ min: 0, max: operations.length - 1 }).chain((index) => {
      const op = operations[index]!;
      return fc.record({
        op: fc.constant(op),
        param: fc.oneof(fc.constantFrom(...realIds), fc.uuid(), fc.string({ maxLength: 30 }), fc.constantFrom('%00', '..', '%2F', 'a'.repeat(300))),
        body: fc.oneof(
          { weight: 5, arbitrary: fromSchema(op.body).map((v) => (op.contentType?.includes('form') ? formOf(v) : JSON.stringify(v))) },
          { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":', 'null', '[]', '"x"', '['.repeat(2000) + ']'.repeat(2000), '\uFEFF{}') },
        ),
        contentType: fc.oneof({ weight: 6, arbitrary: fc.constant(op.contentType ?? 'application/json') }, { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/xml', 'application/json; charset=latin1', '') }),
        credentials: fc.constantFrom('good', 'good', 'good', 'good', 'none', 'wrong'),
        query: fc.constantFrom('', '?limit=5', '?limit=-1', '?before=%00', '?a[b]=c', '?' + 'x=1&'.repeat(50)),
      });
    });
    const outcome = await fc.check(
      fc.asyncProperty(request, async ({ op, param, body, contentType, credentials, query }) => {
        const path = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(param));
        const headers: Record<string, string> = credentials === 'good' ? { ...goodHeaders } : credentials === 'wrong' ? { API_KEY: 'fk_nobody', API_SECRET: 'fs_nothing' } : {};
        const hasBody = op.method === 'POST';
        if (hasBody && contentType) headers['content-type'] = contentType;
        const res = await server.app.inject({ method: op.method as 'GET', url: path + query, headers, payload: hasBody ? body : undefined });
        const what = `${op.method} ${path}${query} → ${res.statusCode}: ${res.body.slice(0, 300)}`;
        assert.ok(res.statusCode < 500, what);
        if (res.statusCode >= 400) {
          assert.match(String(res.headers['content-type']), /^application\/problem\+json/, what);
          const problem = res.json();
          assert.equal(problem.status, res.statusCode, what);
          assert.equal(typeof problem.type, 'string', what);
          assert.equal(typeof problem.title, 'string', what);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The failing request's own message (the counterexample can be megabytes of generated body).
    if (outcome.failed) {
      const cause = outcome.errorInstance instanceof Error ? outcome.errorInstance.message : String(outcome.errorInstance);
      assert.fail(`after ${outcome.numRuns} requests (FUZZ_SEED=${outcome.seed}, path ${outcome.counterexamplePath}): ${cause.slice(0, 2000)}`);
    }
    assert.equal(outcome.numRuns, RUNS);
  });
});

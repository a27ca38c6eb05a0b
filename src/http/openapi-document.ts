/**
 * @module http/openapi-document
 * The last touches to the generated OpenAPI document, for what the route
 * schemas cannot say themselves:
 *
 * - **Named schemas.** A schema made with `named()` is served once under
 *   `components.schemas` and referenced wherever it is used, so a
 *   generated client gets one type per idea (`Problem`, `MeetingV3`, …).
 * - **Documented, not asserted.** `documented()` keywords (an id's
 *   `format: uuid`, the enum of a meeting's `type`) appear in the document
 *   but are not checked by the request schemas: the domain checks those
 *   values with its own messages and answers (a path id that is not a UUID
 *   is 404, `type` is matched in any letter case, an unknown webhook event
 *   names the known ones). In OpenAPI 3.1 (JSON Schema 2020-12) `format`
 *   is an annotation anyway.
 * - **What every API route shares**, added by cross-cutting plugins rather
 *   than by each route: the 500 answer, `WWW-Authenticate` on 401, the
 *   `RateLimit-*` headers on every answer after authentication,
 *   `Retry-After` on 429, `Location` on 201; and a request body is
 *   required only when its schema requires a field (a bare `POST` is read
 *   as an empty body).
 */
import type { TSchema } from '@fastify/type-provider-typebox';

const NAME_KEY = 'x-component-name';
const DOCUMENTED_KEY = 'x-documented';

/** `schema`, served as `components.schemas[name]`. */
export function named<T extends TSchema>(name: string, schema: T): T {
  return Object.assign(schema, { [NAME_KEY]: name });
}

/** `schema` with `keywords` shown in the document only (see the module comment). */
export function documented<T extends TSchema>(schema: T, keywords: Record<string, unknown>): T {
  return Object.assign(schema, { [DOCUMENTED_KEY]: keywords });
}

type Json = Record<string, any>;

const PROBLEM_CONTENT = 'application/problem+json';

export const SHARED_HEADERS: Json = {
  Location: { description: 'The read path of the object just created.', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests this API key may make per rolling minute.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until the window has room again.', schema: { type: 'integer', minimum: 0 } },
  'Retry-After': { description: 'Seconds to wait before trying again (the rate window, or the quota period).', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: 'The authentication scheme: `API-Key realm="Foyer"` (send the API_KEY and API_SECRET headers).', schema: { type: 'string' } },
};

const RATE_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Applies the module's rules to the document @fastify/swagger generated (a fresh object each time). */
export function finishDocument(document: Json): Json {
  const schemas: Json = { ...(document.components?.schemas ?? {}) };
  for (const pathItem of Object.values<Json>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      finishOperation(operation);
    }
  }
  const paths = hoist(document.paths, schemas);
  const problem = schemas.Problem ? { $ref: '#/components/schemas/Problem' } : undefined;
  for (const pathItem of Object.values<Json>(paths)) {
    for (const method of METHODS) {
      const responses = pathItem[method]?.responses;
      if (!responses || responses['500'] || !problem) continue;
      responses['500'] = {
        description: 'Unexpected failure: a generic detail; only the error’s class and code are logged.',
        content: { [PROBLEM_CONTENT]: { schema: problem } },
      };
    }
  }
  const headers = Object.fromEntries(Object.entries(SHARED_HEADERS).map(([name, header]) => [name, header]));
  return {
    ...document,
    paths,
    components: { ...document.components, schemas: sortKeys(schemas), headers },
  };
}

function finishOperation(operation: Json): void {
  const body = operation.requestBody;
  if (body) {
    const required = Object.values<Json>(body.content ?? {}).some((media) => Array.isArray(media.schema?.required) && media.schema.required.length > 0);
    body.required = required;
  }
  for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
    const names = status === '401' ? ['WWW-Authenticate'] : [...(status === '201' ? ['Location'] : []), ...RATE_HEADERS, ...(status === '429' ? ['Retry-After'] : [])];
    response.headers = { ...(response.headers ?? {}) };
    for (const name of names) response.headers[name] = { $ref: `#/components/headers/${name}` };
  }
}

/** A copy of `value` with named schemas replaced by references (added to `schemas`) and documented keywords applied. */
function hoist(value: unknown, schemas: Json): any {
  if (Array.isArray(value)) return value.map((item) => hoist(item, schemas));
  if (!value || typeof value !== 'object') return value;
  const source = value as Json;
  const copy: Json = {};
  for (const [key, item] of Object.entries(source)) {
    if (key === NAME_KEY || key === DOCUMENTED_KEY) continue;
    copy[key] = hoist(item, schemas);
  }
  if (source[DOCUMENTED_KEY]) Object.assign(copy, source[DOCUMENTED_KEY]);
  const name = source[NAME_KEY];
  if (typeof name !== 'string') return copy;
  const known = schemas[name];
  if (known && JSON.stringify(known) !== JSON.stringify(copy)) throw new Error(`Two different schemas are both named ${name} in the OpenAPI document.`);
  schemas[name] = copy;
  return { $ref: `#/components/schemas/${name}` };
}

function sortKeys(object: Json): Json {
  return Object.fromEntries(Object.keys(object).sort().map((key) => [key, object[key]]));
}

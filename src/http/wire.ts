/**
 * @module http/wire
 * What every API version does to a request body before its routes see it:
 * which content types it accepts (anything else is 415), an absent body read
 * as an empty one, and text that the databases cannot store refused up front.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError, type FieldError } from '../domain/errors.ts';

// Instances carrying a type provider are still Fastify instances; accept any of them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFastify = FastifyInstance<any, any, any, any, any>;

export const JSON_MEDIA_TYPE = 'application/json';
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** v2, v3: JSON bodies only (Fastify's plain-text parser is dropped). */
export async function acceptJsonBodies(app: AnyFastify): Promise<void> {
  app.removeContentTypeParser('text/plain');
}

/** v1: form bodies only. */
export async function acceptFormBodies(app: AnyFastify): Promise<void> {
  app.removeAllContentTypeParsers();
  await app.register(formbody);
}

/**
 * A POST without any body (no content type, no length) is an empty body:
 * a basic organization may create a meeting with no parameters at all.
 * Then, any string containing U+0000 is refused, naming its field: neither
 * PostgreSQL text nor the front end can carry it; so is one holding a lone
 * surrogate (half of a UTF-16 pair, which JSON's `\ud800` escapes can
 * write): the databases would store it altered, and differently (SQLite
 * writes three U+FFFD for it, PostgreSQL one). A body nested deeper than
 * any valid one is refused before anything walks it.
 */
export function installBodyDefaults(app: AnyFastify): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.body === undefined && request.method === 'POST') request.body = {};
    const errors: FieldError[] = [];
    findUnstorableText(request.body, '', errors);
    if (errors.length) throw new ValidationError(errors);
  });
}

/** Far deeper than any valid body (three levels); walking an arbitrarily deep one would exhaust the stack. */
const MAX_BODY_DEPTH = 32;

/** A UTF-16 surrogate not part of a pair (with the `u` flag, pairs are one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed text (it holds a lone surrogate)';
  return undefined;
}

function findUnstorableText(value: unknown, path: string, errors: FieldError[], depth = 0): void {
  if (depth > MAX_BODY_DEPTH) {
    errors.push({ field: 'body', message: `The body is nested more than ${MAX_BODY_DEPTH} levels deep.` });
    return;
  }
  if (typeof value === 'string') {
    const problem = textProblem(value);
    if (problem) errors.push({ field: path || 'body', message: `${path || 'body'} ${problem}.` });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => findUnstorableText(item, path ? `${path}.${i}` : String(i), errors, depth + 1));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      const problem = textProblem(key);
      if (problem) errors.push({ field: path || 'body', message: `A field name ${problem}.` });
      else findUnstorableText(item, field, errors, depth + 1);
    }
  }
}

/** Path of the created object, for the `Location` header of a 201. */
export function locationOf(request: FastifyRequest, id: string): string {
  const path = (request.url.split('?')[0] ?? '').replace(/\/+$/, '');
  return `${path}/${encodeURIComponent(id)}`;
}

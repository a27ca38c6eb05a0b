/**
 * @module http/route-schemas
 * Pieces shared by the route schemas of every version: the documented error
 * answers and path parameters. Route schemas validate requests, shape
 * responses and feed the OpenAPI document, so these are the documentation.
 */
import { Type } from '@fastify/type-provider-typebox';
import type { TSchema } from '@fastify/type-provider-typebox';
import { documented } from './openapi-document.ts';
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from './problems.ts';

/** An id in a request (path or body): documented as a UUID, checked by the route or the domain with its own answer. */
export function requestId(description: string) {
  return documented(Type.String({ description }), { format: 'uuid' });
}

/** An id in a response: always a UUID. */
export function responseId(description?: string) {
  return Type.String({ format: 'uuid', ...(description ? { description } : {}) });
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: each invalid field is listed in `errors`.',
  401: 'Missing, unknown, wrong, expired or revoked credentials (one identical body for all).',
  404: 'No such object for this organization (objects of other organizations do not exist for the caller).',
  409: 'An identifier or slug is already taken.',
  413: 'Request body too large.',
  415: 'Content type not accepted by this API version.',
  429: 'Request rate limit or quota reached.',
};

/** Error answers of a route, each an RFC 9457 problem. */
export function problemResponses(...statuses: number[]): Record<number, { description: string; content: Record<string, { schema: TSchema }> }> {
  const result: Record<number, { description: string; content: Record<string, { schema: TSchema }> }> = {};
  for (const status of [401, 429, ...statuses]) {
    result[status] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
    };
  }
  return result;
}

export const BODY_ERRORS = [400, 413, 415] as const;

export const MeetingIdParams = Type.Object({
  id: requestId('Meeting id (UUID v4, matched case-insensitively; any other text answers 404).'),
});

export const SlugParams = Type.Object({
  slug: Type.String({ description: 'Room slug.' }),
});

export const SpaceIdParams = Type.Object({
  id: requestId('Board or queue id (UUID v4).'),
});

/**
 * @module http/problems
 * The catalogue of RFC 9457 problem types Foyer answers with. Each `type` is
 * a stable URN: clients may branch on it, so an entry is never renamed or
 * reused for another meaning (add a new one instead).
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { named } from './openapi-document.ts';

export interface ProblemKind {
  type: string;
  title: string;
  status: number;
}

function kind(slug: string, title: string, status: number): ProblemKind {
  return { type: `urn:foyer:problem:${slug}`, title, status };
}

export const PROBLEMS = {
  validationFailed: kind('validation-failed', 'The request is not valid', 400),
  malformedRequest: kind('malformed-request', 'Malformed request', 400),
  unauthorized: kind('unauthorized', 'Authentication required', 401),
  forbidden: kind('forbidden', 'Not allowed', 403),
  notFound: kind('not-found', 'Not found', 404),
  conflict: kind('conflict', 'Conflict with an existing object', 409),
  payloadTooLarge: kind('payload-too-large', 'Request body too large', 413),
  unsupportedMediaType: kind('unsupported-media-type', 'Unsupported content type', 415),
  rateLimited: kind('rate-limited', 'Too many requests', 429),
  quotaExceeded: kind('quota-exceeded', 'Request quota exceeded', 429),
  internal: kind('internal-error', 'Internal server error', 500),
} as const satisfies Record<string, ProblemKind>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The body of every error response; documented once in the OpenAPI components. */
export const ProblemSchema = named('Problem', Type.Object(
  {
    type: Type.String({ description: 'Stable URN naming the kind of problem, e.g. urn:foyer:problem:validation-failed.' }),
    title: Type.String({ description: 'Short summary of the problem type.' }),
    status: Type.Integer({ description: 'The HTTP status code.' }),
    detail: Type.String({ description: 'Explanation of this occurrence.' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ description: "Field name in the version's wire naming." }),
          message: Type.String(),
        }),
        { description: 'Each invalid field, for validation failures and conflicts.' },
      ),
    ),
  },
  { title: 'Problem details (RFC 9457)' },
));

export type Problem = Static<typeof ProblemSchema>;

export interface FieldProblem {
  field: string;
  message: string;
}

export function problem(kindOf: ProblemKind, detail: string, errors?: FieldProblem[]): Problem {
  const body: Problem = { type: kindOf.type, title: kindOf.title, status: kindOf.status, detail };
  if (errors && errors.length) body.errors = errors.map((e) => ({ field: e.field, message: e.message }));
  return body;
}

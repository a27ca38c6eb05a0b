/**
 * @module http/plugins/errors
 * The one place where anything that goes wrong becomes an RFC 9457 problem
 * details response: domain errors, schema validation failures, unreadable
 * or oversized bodies, unsupported content types, unknown routes and
 * unexpected failures. Every error response of the service passes here.
 *
 * Each API version installs its own handler (`installErrorHandler` inside
 * its encapsulated context) only to say how domain field names are spelled
 * on its wire; the mapping itself is shared.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { failureOf, isClientGone } from '../../logger.ts';
import { PROBLEMS, PROBLEM_CONTENT_TYPE, problem, type FieldProblem, type Problem, type ProblemKind } from '../problems.ts';

/** Maps a domain field name (camelCase) to the version's wire name. */
export type FieldRenamer = (domainField: string) => string;

export interface ErrorHandlerOptions {
  renameField: FieldRenamer;
  /** The request body media type of the version, named in 415 answers. */
  bodyMediaType?: string;
}

const sameName: FieldRenamer = (field) => field;

const DOMAIN_KINDS: Record<DomainError['code'], ProblemKind> = {
  validation_failed: PROBLEMS.validationFailed,
  not_found: PROBLEMS.notFound,
  conflict: PROBLEMS.conflict,
  unauthorized: PROBLEMS.unauthorized,
  forbidden: PROBLEMS.forbidden,
  rate_limited: PROBLEMS.rateLimited,
  quota_exceeded: PROBLEMS.quotaExceeded,
};

/** The single 401 body: identical for missing, unknown, wrong, expired and revoked credentials. */
export const UNAUTHORIZED_DETAIL = 'Missing, unknown, expired or revoked API credentials.';

interface SchemaIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: { requiredProperties?: string[]; missingProperty?: string; type?: string };
}

/** `/queryParameters/lang` → `queryParameters.lang`. Wire names already: schemas are written per version. */
function pathToField(instancePath: string | undefined): string {
  return (instancePath ?? '').replace(/^\//, '').split('/').map(unescapePointer).join('.');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** "a string, a number or a boolean" from the branches of a union that each failed on type. */
function typeAlternatives(types: string[]): string {
  const named = types.map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`));
  return named.length > 1 ? `${named.slice(0, -1).join(', ')} or ${named.at(-1)}` : (named[0] ?? 'valid');
}

function schemaFieldProblems(issues: SchemaIssue[], context: string | undefined): FieldProblem[] {
  const byField = new Map<string, string>();
  // A union reports one `type` issue per branch, then `anyOf`: say which types would do, once.
  const unionTypes = new Map<string, string[]>();
  for (const issue of issues) {
    if (issue.keyword === 'type' && issue.params?.type) {
      const field = pathToField(issue.instancePath) || context || 'body';
      unionTypes.set(field, [...(unionTypes.get(field) ?? []), issue.params.type]);
    }
  }
  for (const issue of issues) {
    const unionField = pathToField(issue.instancePath) || context || 'body';
    const types = unionTypes.get(unionField);
    if (issue.keyword === 'type' && types && types.length > 1) {
      if (!byField.has(unionField)) byField.set(unionField, `${unionField} must be ${typeAlternatives(types)}.`);
      continue;
    }
    const base = pathToField(issue.instancePath);
    if (issue.keyword === 'required') {
      const missing = issue.params?.requiredProperties ?? (issue.params?.missingProperty ? [issue.params.missingProperty] : []);
      for (const name of missing) {
        const field = base ? `${base}.${name}` : name;
        if (!byField.has(field)) byField.set(field, `${field} is required.`);
      }
      continue;
    }
    const field = base || context || 'body';
    // A union reports one issue per branch; the first says enough.
    if (!byField.has(field)) byField.set(field, `${field} ${issue.message ?? 'is not valid'}.`);
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

/** Domain messages name their field ("ownerEmail is required…"); say it the way the version spells it. */
function respell(message: string, domainField: string, wireField: string): string {
  if (domainField === wireField) return message;
  return message.replace(new RegExp(`\\b${domainField.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'g'), wireField);
}

function isFrameworkError(error: FastifyError): boolean {
  return typeof error.code === 'string' && error.code.startsWith('FST_');
}

/** Decides the problem for an error; `internal` is true when it must be logged as a server failure. */
export function toProblem(error: unknown, options: ErrorHandlerOptions): { body: Problem; internal: boolean } {
  if (error instanceof DomainError) {
    const kind = DOMAIN_KINDS[error.code];
    if (error.code === 'unauthorized') return { body: problem(kind, UNAUTHORIZED_DETAIL), internal: false };
    const fields = error.fieldErrors.map((f) => {
      const field = options.renameField(f.field);
      return { field, message: respell(f.message, f.field, field) };
    });
    const detail = error.fieldErrors.reduce((text, f) => respell(text, f.field, options.renameField(f.field)), error.message);
    return { body: problem(kind, detail, fields), internal: false };
  }

  const e = error as FastifyError;
  if (Array.isArray(e.validation)) {
    const fields = schemaFieldProblems(e.validation as SchemaIssue[], e.validationContext);
    return { body: problem(PROBLEMS.validationFailed, 'The request is not valid.', fields), internal: false };
  }

  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { body: problem(PROBLEMS.payloadTooLarge, 'The request body is larger than this service accepts.'), internal: false };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const accepted = options.bodyMediaType ? ` This endpoint accepts ${options.bodyMediaType}.` : '';
      return { body: problem(PROBLEMS.unsupportedMediaType, `The request content type is not supported.${accepted}`), internal: false };
    }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { body: problem(PROBLEMS.malformedRequest, 'The request body is not valid JSON.'), internal: false };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { body: problem(PROBLEMS.malformedRequest, `${e.message}.`), internal: false };
  }

  const status = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500 && isFrameworkError(e)) {
    // Framework messages carry no request data, so they are safe to show.
    const kind =
      status === 404 ? PROBLEMS.notFound : status === 400 ? PROBLEMS.malformedRequest
        : { type: 'about:blank', title: STATUS_CODES[status] ?? 'Client error', status };
    return { body: problem(kind, `${e.message}.`), internal: false };
  }
  return { body: problem(PROBLEMS.internal, 'The service failed to handle the request. It has been logged.'), internal: true };
}

export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  // Sent as a string so no route's response schema reshapes it.
  return reply.code(body.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

export function installErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions = { renameField: sameName }): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { body, internal } = toProblem(error, options);
    if (internal && isClientGone(error)) request.log.info({ failure: failureOf(error) }, 'client went away during the request');
    else if (internal) request.log.error({ failure: failureOf(error) }, 'request failed');
    if (body.status === 401) reply.header('www-authenticate', 'API-Key realm="Foyer"');
    return sendProblem(reply, body);
  });
}

/** Root-level handlers: errors outside any version, and routes that do not exist. */
export function installRootErrorHandling(app: FastifyInstance): void {
  installErrorHandler(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    return sendProblem(reply, problem(PROBLEMS.notFound, `No endpoint ${request.method} ${path}.`));
  });
}

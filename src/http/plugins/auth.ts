/**
 * @module http/plugins/auth
 * API-key authentication of every API request, as an `onRequest` hook: the
 * credentials are checked before the body is even read, so an anonymous
 * client cannot make the service parse (or buffer) anything.
 *
 * Every failure (missing header, unknown key, wrong secret, expired or
 * revoked key) is the domain's single `UnauthorizedError`, which the error
 * handler turns into one identical 401 body.
 *
 * Request limits hook in through an `AuthGuard` (see plugins/limits.ts). Its
 * callbacks run before credentials are checked (refuse a client address
 * that keeps failing, without touching the database; what it returns, its
 * ticket, is handed to the others), immediately before the key lookup
 * (`beforeLookup`, see below), then after a failure of the credentials,
 * after an error of the lookup itself (e.g. the database is down: not the
 * client's failure), or after a success (admit the request against the
 * key's rate window and the organization's quotas; throw a DomainError with
 * code `rate_limited` or `quota_exceeded` to refuse with 429). Headers such
 * as `Retry-After` can be set on `reply` there.
 *
 * `beforeLookup` is synchronous and nothing is awaited between its last
 * call and the lookup: `authenticate` reaches `lookups.findApiKey` before its
 * first await. So what the guard sees there (e.g. whether the lookup cache
 * will answer) still holds when the lookup is made.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiKeyActor, type Actor } from '../../domain/actors.ts';
import type { DomainContext } from '../../domain/context.ts';
import { DomainError, UnauthorizedError } from '../../domain/errors.ts';
import { authenticate, type CredentialLookups } from '../../domain/keys.ts';
import type { ApiKey, Organization } from '../../domain/types.ts';

export interface Authenticated {
  organization: Organization;
  key: ApiKey;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every API request; null only outside the API. */
    foyerAuth: Authenticated | null;
  }
}

export interface AuthGuard<Ticket = unknown> {
  beforeAuthentication?(request: FastifyRequest, reply: FastifyReply): Promise<Ticket>;
  /** A promise of a new ticket when the one in hand does not cover the lookup about to be made; else undefined. */
  beforeLookup?(request: FastifyRequest, reply: FastifyReply, ticket: Ticket): Promise<Ticket> | undefined;
  onAuthenticationFailure?(request: FastifyRequest, reply: FastifyReply, ticket: Ticket): Promise<void>;
  onAuthenticationError?(request: FastifyRequest, reply: FastifyReply, ticket: Ticket, error: unknown): Promise<void>;
  afterAuthentication?(request: FastifyRequest, reply: FastifyReply, auth: Authenticated, ticket: Ticket): Promise<void>;
}

export interface AuthOptions {
  ctx: DomainContext;
  /** Where keys and organizations are read; a cache in front of the store in production. */
  lookups?: CredentialLookups | undefined;
  guard?: AuthGuard | undefined;
}

/** Node lower-cases header names, so `API_KEY` arrives as `api_key`. */
function header(request: FastifyRequest, name: 'api_key' | 'api_secret'): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

export function installAuth(app: FastifyInstance, { ctx, lookups, guard }: AuthOptions): void {
  app.decorateRequest('foyerAuth', null);
  app.addHook('onRequest', async (request, reply) => {
    let ticket = await guard?.beforeAuthentication?.(request, reply);
    if (guard?.beforeLookup) {
      for (let next = guard.beforeLookup(request, reply, ticket); next; next = guard.beforeLookup(request, reply, ticket)) {
        ticket = await next;
      }
    }
    let auth: Authenticated;
    try {
      auth = await authenticate(ctx, header(request, 'api_key'), header(request, 'api_secret'), lookups);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'unauthorized') {
        await guard?.onAuthenticationFailure?.(request, reply, ticket);
      } else {
        await guard?.onAuthenticationError?.(request, reply, ticket, error);
      }
      throw error;
    }
    request.foyerAuth = auth;
    await guard?.afterAuthentication?.(request, reply, auth, ticket);
  });
}

/** The API key acting for its organization; every API route handler starts here. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.foyerAuth) throw new UnauthorizedError();
  return apiKeyActor(request.foyerAuth.organization, request.foyerAuth.key.id);
}

/**
 * @module http/plugins/limits
 * Request limits on the HTTP edge: the `AuthGuard` the auth hook calls
 * (see plugins/auth.ts). The counting itself lives in src/limits; this file
 * only maps decisions to headers and 429s.
 *
 * - Before credentials are checked: a client address with too many recent
 *   failed authentications is refused with 429 here, before any database
 *   lookup, so floods of bad credentials never reach the database.
 * - After a failure: the address's failure is counted.
 * - After a success: the request is admitted against the key's sliding
 *   window and the organization's quotas. Every authenticated response
 *   carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
 *   (draft-ietf-httpapi-ratelimit-headers-07: limit, requests left,
 *   seconds until a slot frees); a refusal adds `Retry-After` and is a 429
 *   problem of type `rate_limited` or `quota_exceeded`.
 *   Accepted requests are counted into the usage totals.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { NO_QUOTA } from '../../domain/usage.ts';
import type { Limits } from '../../limits/limits.ts';
import type { Store } from '../../store/store.ts';
import type { Authenticated, AuthGuard } from './auth.ts';

/** Whole seconds, rounded up, at least 1 when anything is pending: clients must not retry early. */
function seconds(ms: number): number {
  return ms <= 0 ? 0 : Math.max(1, Math.ceil(ms / 1000));
}

export function limitsGuard(limits: Limits, store: Pick<Store, 'findOrganizationQuota'>): AuthGuard {
  const { limiter, usage } = limits;
  return {
    async beforeAuthentication(request: FastifyRequest, reply: FastifyReply) {
      const state = await limiter.authAllowed(request.ip);
      if (state.allowed) return;
      reply.header('retry-after', String(seconds(state.resetMs)));
      throw new DomainError('rate_limited', 'Too many failed authentication attempts from this address; try again later.');
    },

    async onAuthenticationFailure(request: FastifyRequest) {
      await limiter.authFailed(request.ip);
    },

    async afterAuthentication(_request: FastifyRequest, reply: FastifyReply, auth: Authenticated) {
      const quota = (await store.findOrganizationQuota(auth.organization.id)) ?? NO_QUOTA;
      const decision = await limiter.admit({ apiKeyId: auth.key.id, organizationId: auth.organization.id, quota });
      const { rate } = decision;
      reply.header('ratelimit-limit', String(rate.limit));
      reply.header('ratelimit-remaining', String(rate.remaining));
      reply.header('ratelimit-reset', String(seconds(rate.resetMs)));
      if (decision.outcome === 'accepted') {
        usage.record(auth.key.id, auth.organization.id);
        return;
      }
      if (decision.outcome === 'rate_limited') {
        reply.header('retry-after', String(seconds(rate.resetMs)));
        throw new DomainError('rate_limited', `This API key may make ${rate.limit} requests per rolling minute.`);
      }
      const q = decision.quota!;
      reply.header('retry-after', String(seconds(q.resetMs)));
      throw new DomainError(
        'quota_exceeded',
        `The organization's ${q.period === 'hour' ? 'hourly' : 'daily'} quota of ${q.limit} requests is spent; it renews at the start of the next UTC ${q.period}.`,
      );
    },
  };
}

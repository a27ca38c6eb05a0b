/**
 * @module http/plugins/limits
 * Request limits on the HTTP edge: the `AuthGuard` the auth hook calls
 * (see plugins/auth.ts). The counting itself lives in src/limits; this file
 * only maps decisions to headers and 429s.
 *
 * - Before credentials are checked, when the key lookup would reach the
 *   database (the lookup cache cannot answer it: unknown or not recently
 *   used keys, missing credentials, or no cache): the client address takes
 *   one slot of its failed-authentication window, atomically (see
 *   AuthReservation in limits/limiter.ts), so that even a concurrent flood
 *   from a new address gets at most AUTH_FAILURES_PER_MINUTE lookups
 *   through. When the window is full, the lookup still goes ahead for
 *   credentials that authenticated within the last week (on any instance
 *   sharing the limiter: they are vouched for by their fingerprint, see
 *   `AuthAttempt.vouched`); anything else is refused with 429 without a
 *   lookup. When the cache will answer, nothing is asked of the limiter:
 *   nothing reaches the database.
 *   Why: a request with valid credentials must never be refused because
 *   of other requests' failures (behind a proxy or a NAT, many clients
 *   share one address), while bad credentials must never reach the
 *   database beyond the limit. Vouching by the fingerprint of the whole
 *   key pair, rather than counting failures per address and key, keeps a
 *   flood of made-up keys at the limit (a per-key count would give every
 *   made-up key a budget of its own) and lets no wrong secret through
 *   (only the exact pair that authenticated is vouched for). The price: a
 *   key pair that has not authenticated within a week is refused from an
 *   address while that address is over its budget.
 * - After a failure: a slot taken is the failure; a failure without a slot
 *   (answered from memory, or vouched for) is counted then, and answered
 *   429 instead of 401 when the address is over its budget. Credentials
 *   vouched for that failed (the key was revoked or expired since) are no
 *   longer vouched for.
 * - After a success: a slot taken is given back within the admission of
 *   the request against the key's sliding window and the organization's
 *   quotas (one limiter call, so no extra Redis round trip). Every
 *   authenticated response carries `RateLimit-Limit`, `RateLimit-Remaining`
 *   and `RateLimit-Reset`, the fields of the IETF draft "RateLimit Fields for
 *   HTTP" as of draft-ietf-httpapi-ratelimit-headers-06 (drafts -00 to -06
 *   define them; from -07 on the draft defines `RateLimit-Policy` and
 *   `RateLimit` instead, which Foyer does not send): limit, requests left,
 *   seconds until a slot frees. A refusal adds `Retry-After` and is a
 *   429 problem of type `rate_limited` or `quota_exceeded`. Accepted
 *   requests are counted into the usage totals, refused ones beside them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.ts';
import { credentialFingerprint } from '../../domain/keys.ts';
import { NO_QUOTA } from '../../domain/usage.ts';
import type { AuthReservation } from '../../limits/limiter.ts';
import type { Limits } from '../../limits/limits.ts';
import type { LookupCache } from '../../limits/lookup-cache.ts';
import type { WindowState } from '../../limits/sliding-window.ts';
import type { Authenticated, AuthGuard } from './auth.ts';

/** Whole seconds, rounded up, at least 1 when anything is pending: clients must not retry early. */
function seconds(ms: number): number {
  return ms <= 0 ? 0 : Math.max(1, Math.ceil(ms / 1000));
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Which limit refused this request, for the metrics (the problem type alone does not tell failed logins from a key's rate). */
    refusedBy?: 'auth-failures' | 'key-rate' | 'quota';
  }
}

function refuse(reply: FastifyReply, state: WindowState): never {
  reply.request.refusedBy = 'auth-failures';
  reply.header('retry-after', String(seconds(state.resetMs)));
  throw new DomainError('rate_limited', 'Too many failed authentication attempts from this address; try again later.');
}

function headerOf(request: FastifyRequest, name: 'api_key' | 'api_secret'): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

const apiKeyOf = (request: FastifyRequest): string | undefined => headerOf(request, 'api_key');

/**
 * How the request's key lookup was let through: a reserved failed-auth
 * slot; `memory`: the lookup cache answers it, nothing was asked of the
 * limiter; `vouched`: the address is over its budget but the credentials
 * recently authenticated (the lookup reaches the database without a slot).
 */
type Ticket = AuthReservation | 'memory' | 'vouched';

/**
 * `lookups` must be the cache the auth hook reads keys through, so that its
 * answers predict the lookups; `pepper` is API_SECRET_PEPPER, for the
 * credentials' fingerprints.
 */
export function limitsGuard(limits: Limits, lookups: LookupCache, pepper: string): AuthGuard<Ticket> {
  const { limiter, usage } = limits;
  const answeredFromMemory = (key: string | undefined): boolean => key !== undefined && lookups.answersKey(key);
  const fingerprintOf = (request: FastifyRequest): string | undefined =>
    credentialFingerprint(pepper, apiKeyOf(request), headerOf(request, 'api_secret'));
  const letThrough = async (request: FastifyRequest, reply: FastifyReply): Promise<Ticket> => {
    const attempt = await limiter.reserveAuth(request.ip, fingerprintOf(request));
    if (attempt.reservation) return attempt.reservation;
    return attempt.vouched ? 'vouched' : refuse(reply, attempt.state);
  };
  /**
   * Keys whose first uncached request is reserving its slot. Without this,
   * every request of a busy key arriving during that round trip (after the
   * cache entry expired, or at start) would reserve too, and a client's own
   * concurrency could fill its address's failure window. They wait until
   * the first one starts its lookup instead, and share it.
   */
  const firsts = new Map<string, { request: FastifyRequest; started: () => void; wait: Promise<void> }>();

  return {
    async beforeAuthentication(request: FastifyRequest, reply: FastifyReply) {
      const key = apiKeyOf(request);
      if (answeredFromMemory(key)) return 'memory';
      if (key === undefined) return letThrough(request, reply);
      const first = firsts.get(key);
      if (first) {
        // Whatever the first one got, beforeLookup decides again for this request.
        await first.wait;
        return 'memory';
      }
      let started!: () => void;
      const wait = new Promise<void>((resolve) => (started = resolve));
      firsts.set(key, { request, started, wait });
      try {
        return await letThrough(request, reply);
      } catch (error) {
        firsts.delete(key);
        started();
        throw error;
      }
    },

    beforeLookup(request: FastifyRequest, reply: FastifyReply, ticket: Ticket) {
      const key = apiKeyOf(request);
      if (ticket !== 'memory') {
        // The lookup starts as soon as this returns, before the waiting requests run again: they will find it in the cache.
        const first = key === undefined ? undefined : firsts.get(key);
        if (first?.request === request) {
          firsts.delete(key!);
          first.started();
        }
        return undefined;
      }
      // The cache entry may have expired meanwhile; then this lookup needs letting through after all.
      return answeredFromMemory(key) ? undefined : letThrough(request, reply);
    },

    async onAuthenticationFailure(request: FastifyRequest, reply: FastifyReply, ticket: Ticket) {
      if (typeof ticket !== 'string') return;
      if (ticket === 'vouched') {
        const fingerprint = fingerprintOf(request);
        if (fingerprint) await limiter.forgetVerified(fingerprint);
      }
      const counted = await limiter.reserveAuth(request.ip);
      if (!counted.reservation) refuse(reply, counted.state);
    },

    // A lookup that could not be made says nothing about the credentials.
    async onAuthenticationError(_request: FastifyRequest, _reply: FastifyReply, ticket: Ticket) {
      if (typeof ticket !== 'string') await limiter.releaseAuth(ticket);
    },

    async afterAuthentication(request: FastifyRequest, reply: FastifyReply, auth: Authenticated, ticket: Ticket) {
      const release = typeof ticket === 'string' ? undefined : ticket;
      let quota;
      try {
        quota = (await lookups.findOrganizationQuota(auth.organization.id)) ?? NO_QUOTA;
      } catch (error) {
        if (release) await limiter.releaseAuth(release);
        throw error;
      }
      const decision = await limiter.admit({
        apiKeyId: auth.key.id,
        organizationId: auth.organization.id,
        quota,
        release,
        // Renewed whenever the lookup reached the database: at least every API_KEY_CACHE_SECONDS of a key in use.
        verified: ticket === 'memory' ? undefined : fingerprintOf(request),
      });
      const { rate } = decision;
      reply.header('ratelimit-limit', String(rate.limit));
      reply.header('ratelimit-remaining', String(rate.remaining));
      reply.header('ratelimit-reset', String(seconds(rate.resetMs)));
      if (decision.outcome === 'accepted') {
        usage.record(auth.key.id, auth.organization.id);
        return;
      }
      // Shown to the organization's administrators as refused requests (dashboard, usage).
      usage.refuse(auth.key.id, auth.organization.id);
      if (decision.outcome === 'rate_limited') {
        reply.header('retry-after', String(seconds(rate.resetMs)));
        request.refusedBy = 'key-rate';
        throw new DomainError('rate_limited', `This API key may make ${rate.limit} requests per rolling minute.`);
      }
      const q = decision.quota!;
      request.refusedBy = 'quota';
      reply.header('retry-after', String(seconds(q.resetMs)));
      throw new DomainError(
        'quota_exceeded',
        `The organization's ${q.period === 'hour' ? 'hourly' : 'daily'} quota of ${q.limit} requests is spent; it renews at the start of the next UTC ${q.period}.`,
      );
    },
  };
}

/**
 * @module limits/lookup-cache
 * A short-lived cache in front of the lookups every authenticated request
 * makes (API key, its organization, the organization's quota), so the hot
 * path of an API call does not pay two or three database round trips
 * before its real work.
 *
 * Bound on staleness: an entry is trusted for at most `ttlMs`
 * (API_KEY_CACHE_SECONDS, default 5 s). A key revoked with `foyer key
 * revoke` — another process — therefore stops working on every instance
 * within that time; a revocation or quota change made through this same
 * store object takes effect at once (the entry is dropped). Unknown keys
 * are not cached, so a key is usable the moment it is created; floods of
 * unknown keys are stopped by the failed-authentication limit instead.
 *
 * Implemented as a Proxy, so every other Store method (including ones added
 * later) passes straight through.
 *
 * `store[LOOKUP_CACHE]` tells, before a lookup, whether it would be answered
 * from memory: the failed-authentication limit reserves a slot only for
 * lookups that would reach the database (see http/plugins/limits.ts).
 */
import type { Store } from '../store/store.ts';

const CACHED = new Set<PropertyKey>(['findApiKey', 'findOrganization', 'findOrganizationQuota']);
/** Misses of these are not cached (see the module comment). */
const POSITIVE_ONLY = new Set<PropertyKey>(['findApiKey']);
const MAX_ENTRIES = 10_000;
/**
 * A probe answers "from memory" only for entries this much short of expiring,
 * so it cannot be contradicted by the clock ticking before the lookup it
 * vouches for.
 */
const PROBE_MARGIN_MS = 100;

/** Read as `store[LOOKUP_CACHE]`; pass-through proxies around the cache forward it. */
export const LOOKUP_CACHE = Symbol('foyer.lookupCache');

export interface LookupCacheProbe {
  /**
   * Whether `findApiKey(publicKey)`, if called before anything else runs,
   * is answered without a database query: a fresh entry, settled or still
   * in flight (concurrent lookups of one key share one query).
   */
  answersKey(publicKey: string): boolean;
}

/** The probe of the lookup cache in front of `store`, if there is one. */
export function lookupCacheOf(store: object): LookupCacheProbe | undefined {
  return (store as { [LOOKUP_CACHE]?: LookupCacheProbe })[LOOKUP_CACHE];
}

interface Entry {
  expires: number;
  value: Promise<unknown>;
}

export function withLookupCache(store: Store, ttlMs: number, now: () => number = Date.now): Store {
  if (ttlMs <= 0) return store;
  const entries = new Map<string, Entry>();
  const wrapped = new Map<PropertyKey, unknown>();

  const cached = (name: PropertyKey, fn: (arg: string) => Promise<unknown>) => (arg: string) => {
    const id = `${String(name)}\u0000${arg}`;
    const t = now();
    const hit = entries.get(id);
    if (hit && hit.expires > t) return hit.value;
    if (entries.size >= MAX_ENTRIES) entries.clear();
    const value = fn(arg).then(
      (result) => {
        if (result === undefined && POSITIVE_ONLY.has(name)) entries.delete(id);
        return result;
      },
      (error: unknown) => {
        entries.delete(id);
        throw error;
      },
    );
    entries.set(id, { expires: t + ttlMs, value });
    return value;
  };

  const forget = (name: string, arg: string) => entries.delete(`${name}\u0000${arg}`);

  const probe: LookupCacheProbe = {
    answersKey(publicKey) {
      const hit = entries.get(`findApiKey\u0000${publicKey}`);
      return hit !== undefined && hit.expires - now() > PROBE_MARGIN_MS;
    },
  };
  wrapped.set(LOOKUP_CACHE, probe);

  return new Proxy(store, {
    get(target, prop, receiver) {
      const known = wrapped.get(prop);
      if (known !== undefined) return known;
      const original = Reflect.get(target, prop, receiver);
      if (typeof original !== 'function') return original;
      let fn: unknown;
      if (CACHED.has(prop)) {
        fn = cached(prop, (arg) => original.call(target, arg));
      } else if (prop === 'revokeApiKey') {
        fn = (publicKey: string, at: Date) => {
          forget('findApiKey', publicKey);
          return original.call(target, publicKey, at);
        };
      } else if (prop === 'setOrganizationQuota') {
        fn = (organizationId: string, ...rest: unknown[]) => {
          forget('findOrganizationQuota', organizationId);
          return original.call(target, organizationId, ...rest);
        };
      } else {
        fn = original.bind(target);
      }
      wrapped.set(prop, fn);
      return fn;
    },
  });
}

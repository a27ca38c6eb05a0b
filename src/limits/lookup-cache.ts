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
 * within that time. A revocation or quota change made in this process
 * takes effect at once: `listen` subscribes the cache to the domain's
 * `api_key.revoked` and `organization.quota_changed` events, which drop
 * the entry. Unknown keys are not cached, so a key is usable the moment it
 * is created; floods of unknown keys are stopped by the failed-
 * authentication limit instead.
 *
 * `answersKey` tells, before a lookup, whether it would be answered from
 * memory: the failed-authentication limit reserves a slot only for lookups
 * that would reach the database (see http/plugins/limits.ts).
 */
import type { EventPublisher } from '../domain/events.ts';
import type { ApiKeyStore, UsageStore } from '../domain/key-ports.ts';
import type { CredentialLookups } from '../domain/keys.ts';
import type { OrganizationStore } from '../domain/member-ports.ts';
import type { ApiKey, Organization, OrganizationQuota } from '../domain/types.ts';

const MAX_ENTRIES = 10_000;
/**
 * A probe answers "from memory" only for entries this much short of expiring,
 * so it cannot be contradicted by the clock ticking before the lookup it
 * vouches for.
 */
const PROBE_MARGIN_MS = 100;

type Source = Pick<ApiKeyStore, 'findApiKey'> & Pick<OrganizationStore, 'findOrganization'> & Pick<UsageStore, 'findOrganizationQuota'>;

interface Entry {
  expires: number;
  value: Promise<unknown>;
}

export class LookupCache implements CredentialLookups {
  private readonly entries = new Map<string, Entry>();

  /** `ttlMs` 0 turns caching off: every lookup reaches `source`. */
  constructor(
    private readonly source: Source,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  findApiKey(publicKey: string): Promise<ApiKey | undefined> {
    // Misses are not kept: a key created a moment ago must work at once.
    return this.cached(`key\u0000${publicKey}`, () => this.source.findApiKey(publicKey), false);
  }

  findOrganization(idOrSlug: string): Promise<Organization | undefined> {
    return this.cached(`org\u0000${idOrSlug}`, () => this.source.findOrganization(idOrSlug), true);
  }

  findOrganizationQuota(organizationId: string): Promise<OrganizationQuota | undefined> {
    return this.cached(`quota\u0000${organizationId}`, () => this.source.findOrganizationQuota(organizationId), true);
  }

  /**
   * Whether `findApiKey(publicKey)`, if called before anything else runs,
   * is answered without a database query: a fresh entry, settled or still
   * in flight (concurrent lookups of one key share one query).
   */
  answersKey(publicKey: string): boolean {
    const hit = this.entries.get(`key\u0000${publicKey}`);
    return hit !== undefined && hit.expires - this.now() > PROBE_MARGIN_MS;
  }

  forgetKey(publicKey: string): void {
    this.entries.delete(`key\u0000${publicKey}`);
  }

  forgetQuota(organizationId: string): void {
    this.entries.delete(`quota\u0000${organizationId}`);
  }

  /** Drops entries that this process's commands changed; returns the way to stop listening. */
  listen(events: EventPublisher): () => void {
    return events.subscribe((event) => {
      if (event.type === 'api_key.revoked') this.forgetKey(event.publicKey);
      else if (event.type === 'organization.quota_changed') this.forgetQuota(event.organizationId);
    });
  }

  private cached<T>(id: string, load: () => Promise<T>, keepMisses: boolean): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const t = this.now();
    const hit = this.entries.get(id);
    if (hit && hit.expires > t) return hit.value as Promise<T>;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const value = load().then(
      (result) => {
        if (result === undefined && !keepMisses) this.entries.delete(id);
        return result;
      },
      (error: unknown) => {
        this.entries.delete(id);
        throw error;
      },
    );
    this.entries.set(id, { expires: t + this.ttlMs, value });
    return value;
  }
}

/**
 * @module domain/key-ports
 * The API keys' port (`KeyPorts`): keys, and their usage totals and
 * quotas, for keys.ts, usage.ts and usage-history.ts.
 */
import type { Transactional } from './ports/transactional.ts';
import type { ApiKey, DailyUsage, HourlyUsage, OrganizationQuota, UsageIncrement } from './types.ts';

export interface ApiKeyStore {
  insertApiKey(key: ApiKey): Promise<void>;
  /** Across organizations: a request names only its public key. */
  findApiKey(publicKey: string): Promise<ApiKey | undefined>;
  /** By id, within the organization: another organization's key is not found. */
  findApiKeyById(organizationId: string, id: string): Promise<ApiKey | undefined>;
  /** Oldest first. */
  listApiKeys(organizationId: string): Promise<ApiKey[]>;
  /** Returns the key as revoked, or undefined when the organization has no such key. Revoking twice keeps the first time. */
  revokeApiKey(organizationId: string, publicKey: string, at: Date): Promise<ApiKey | undefined>;
}

export interface UsageStore {
  /**
   * Adds each increment to its (key, hour) totals, in one transaction;
   * increments must be unique per (key, hour). Moves each key's
   * `lastUsedAt` forward to the latest `lastUsedAt` given for it, never back.
   */
  recordUsage(increments: UsageIncrement[]): Promise<void>;
  /** Hourly totals of an organization's keys with hourStart in [from, to), oldest first. */
  listHourlyUsage(organizationId: string, from: Date, to: Date): Promise<HourlyUsage[]>;
  /** Daily totals (UTC days) of an organization's keys, from the hours in [from, to), oldest first. */
  listDailyUsage(organizationId: string, from: Date, to: Date): Promise<DailyUsage[]>;
  findOrganizationQuota(organizationId: string): Promise<OrganizationQuota | undefined>;
  setOrganizationQuota(organizationId: string, quota: OrganizationQuota): Promise<void>;
}

/** API keys and their usage totals and quotas (keys.ts, usage.ts, usage-history.ts). */
export interface KeyPorts extends ApiKeyStore, UsageStore, Transactional {}

/**
 * @module domain/usage-history
 * An organization's request history as its administrators see it: per
 * UTC hour over the last 48 hours and per UTC day over the last 30 (the
 * current hour and day included, as far as flushed), in total and per
 * key, accepted and refused (429) requests apart, with its quotas.
 *
 * Periods without requests are zeros, not gaps, so every series has one
 * value per period and charts and tables line up. Only keys with requests
 * in a window get a series in it.
 */
import type { Actor } from './actors.ts';
import type { DomainContext } from './context.ts';
import type { KeyPorts } from './key-ports.ts';
import { authorize } from './policies.ts';
import type { ApiKey, OrganizationQuota } from './types.ts';
import { DAY_MS, dayStart, getOrganizationQuota, HOUR_MS, hourStart } from './usage.ts';

export const HISTORY_HOURS = 48;
export const HISTORY_DAYS = 30;

export interface KeySeries {
  apiKeyId: string;
  requests: number[];
  refused: number[];
}

export interface UsageSeries {
  /** Period starts, epoch ms, oldest first; the last is the current period. */
  starts: number[];
  requests: number[];
  refused: number[];
  /** Keys with requests (accepted or refused) in the window, in the order of `UsageHistory.keys`. */
  keys: KeySeries[];
}

export interface UsageHistory {
  quota: OrganizationQuota;
  hours: UsageSeries;
  days: UsageSeries;
  /** Every key of the organization, oldest first. */
  keys: ApiKey[];
}

interface Row {
  apiKeyId: string;
  start: number;
  requests: number;
  refused: number;
}

function series(starts: number[], rows: Row[], keyOrder: string[]): UsageSeries {
  const index = new Map(starts.map((start, i) => [start, i]));
  const zeros = () => starts.map(() => 0);
  const result: UsageSeries = { starts, requests: zeros(), refused: zeros(), keys: [] };
  const byKey = new Map<string, KeySeries>();
  for (const row of rows) {
    const i = index.get(row.start);
    if (i === undefined) continue;
    let key = byKey.get(row.apiKeyId);
    if (!key) {
      key = { apiKeyId: row.apiKeyId, requests: zeros(), refused: zeros() };
      byKey.set(row.apiKeyId, key);
    }
    key.requests[i]! += row.requests;
    key.refused[i]! += row.refused;
    result.requests[i]! += row.requests;
    result.refused[i]! += row.refused;
  }
  // Keys of the organization in their order; rows of keys it no longer lists (none today) after them.
  const rank = (id: string) => {
    const at = keyOrder.indexOf(id);
    return at === -1 ? keyOrder.length : at;
  };
  result.keys = [...byKey.values()].sort((a, b) => rank(a.apiKeyId) - rank(b.apiKeyId));
  return result;
}

function periods(last: number, count: number, step: number): number[] {
  return Array.from({ length: count }, (_, i) => last - (count - 1 - i) * step);
}

export async function usageHistory(ctx: DomainContext<KeyPorts>, actor: Actor): Promise<UsageHistory> {
  authorize(actor, 'usage.read');
  const orgId = actor.organization.id;
  const now = ctx.now().getTime();
  const hourStarts = periods(hourStart(now), HISTORY_HOURS, HOUR_MS);
  const dayStarts = periods(dayStart(now), HISTORY_DAYS, DAY_MS);
  const [hourly, daily, keys, quota] = await Promise.all([
    ctx.store.listHourlyUsage(orgId, new Date(hourStarts[0]!), new Date(hourStart(now) + HOUR_MS)),
    ctx.store.listDailyUsage(orgId, new Date(dayStarts[0]!), new Date(dayStart(now) + DAY_MS)),
    ctx.store.listApiKeys(orgId),
    getOrganizationQuota(ctx, actor),
  ]);
  const order = keys.map((k) => k.id);
  return {
    quota,
    hours: series(hourStarts, hourly.map((r) => ({ ...r, start: r.hourStart })), order),
    days: series(dayStarts, daily.map((r) => ({ ...r, start: r.dayStart })), order),
    keys,
  };
}

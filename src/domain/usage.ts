/**
 * @module domain/usage
 * Request totals and request quotas of organizations (spec, Limits: "requests
 * made with API_KEY also reduce the account's daily and hourly totals").
 *
 * Totals are kept per API key and per UTC hour; an organization's totals
 * and every daily figure are sums of those hours, so there is one source of
 * truth and no second counter that could disagree. Hours and days are UTC,
 * so every instance (and the operator) agrees on where a period starts.
 *
 * Quotas are optional per organization and set only by the operator. The
 * counting itself happens in src/limits (in memory, flushed in batches).
 */
import type { Actor } from './actors.ts';
import { raise, transact, type DomainContext } from './context.ts';
import { ValidationError, type FieldError } from './errors.ts';
import type { KeyPorts } from './key-ports.ts';
import { authorize } from './policies.ts';
import type { OrganizationQuota } from './types.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export type QuotaPeriod = 'hour' | 'day';

export const NO_QUOTA: OrganizationQuota = Object.freeze({ hourly: null, daily: null });

export function hourStart(ms: number): number {
  return ms - (ms % HOUR_MS);
}

export function dayStart(ms: number): number {
  return ms - (ms % DAY_MS);
}

export const MAX_QUOTA = 1_000_000_000;

/**
 * Validates and stores an organization's quotas. `undefined` keeps the
 * current value of that period, `null` removes it.
 */
export async function setOrganizationQuota(
  ctx: DomainContext<KeyPorts>,
  actor: Actor,
  change: { hourly?: number | null; daily?: number | null },
): Promise<OrganizationQuota> {
  authorize(actor, 'quota.manage');
  const org = actor.organization;
  const errors: FieldError[] = [];
  for (const field of ['hourly', 'daily'] as const) {
    const value = change[field];
    if (value === undefined || value === null) continue;
    if (!Number.isInteger(value) || value < 1 || value > MAX_QUOTA) {
      errors.push({ field, message: `${field} must be a whole number from 1 to ${MAX_QUOTA}.` });
    }
  }
  if (errors.length) throw new ValidationError(errors);
  return transact(ctx, async (tx) => {
    const current = (await tx.store.findOrganizationQuota(org.id)) ?? NO_QUOTA;
    const next: OrganizationQuota = {
      hourly: change.hourly === undefined ? current.hourly : change.hourly,
      daily: change.daily === undefined ? current.daily : change.daily,
    };
    await tx.store.setOrganizationQuota(org.id, next);
    raise(tx, { type: 'organization.quota_changed', organizationId: org.id, at: tx.now() });
    return next;
  });
}

export async function getOrganizationQuota(ctx: DomainContext<KeyPorts>, actor: Actor): Promise<OrganizationQuota> {
  authorize(actor, 'usage.read');
  return (await ctx.store.findOrganizationQuota(actor.organization.id)) ?? NO_QUOTA;
}

export interface PeriodTotal {
  /** ISO start of the period (UTC). */
  start: string;
  requests: number;
}

export interface UsageReport {
  organizationId: string;
  quota: OrganizationQuota;
  /** The current UTC hour and day, as far as flushed to the database. */
  currentHour: PeriodTotal;
  currentDay: PeriodTotal;
  /** Last `days` UTC days, newest first, each with its hours that had requests. */
  days: Array<PeriodTotal & { hours: PeriodTotal[] }>;
  /** Per key: totals of the current hour and day. */
  keys: Array<{ apiKeyId: string; publicKey: string; currentHour: number; currentDay: number; total: number }>;
}

/**
 * Totals of an organization over the last `days` UTC days (today included).
 * Only flushed counts are in the database; a running server writes its
 * counts every USAGE_FLUSH_SECONDS and on shutdown.
 */
export async function usageReport(ctx: DomainContext<KeyPorts>, actor: Actor, days = 7): Promise<UsageReport> {
  authorize(actor, 'usage.read');
  const org = actor.organization;
  const now = ctx.now().getTime();
  const today = dayStart(now);
  const thisHour = hourStart(now);
  const from = today - (days - 1) * DAY_MS;
  const rows = await ctx.store.listHourlyUsage(org.id, new Date(from), new Date(today + DAY_MS));
  const keys = await ctx.store.listApiKeys(org.id);

  const byDay = new Map<number, { requests: number; hours: Map<number, number> }>();
  const byKey = new Map<string, { currentHour: number; currentDay: number; total: number }>();
  for (const row of rows) {
    const d = dayStart(row.hourStart);
    const day = byDay.get(d) ?? { requests: 0, hours: new Map<number, number>() };
    day.requests += row.requests;
    day.hours.set(row.hourStart, (day.hours.get(row.hourStart) ?? 0) + row.requests);
    byDay.set(d, day);
    const k = byKey.get(row.apiKeyId) ?? { currentHour: 0, currentDay: 0, total: 0 };
    k.total += row.requests;
    if (row.hourStart === thisHour) k.currentHour += row.requests;
    if (d === today) k.currentDay += row.requests;
    byKey.set(row.apiKeyId, k);
  }

  const iso = (ms: number) => new Date(ms).toISOString();
  const reportDays: UsageReport['days'] = [];
  for (let d = today; d >= from; d -= DAY_MS) {
    const day = byDay.get(d);
    const hours = [...(day?.hours ?? new Map<number, number>()).entries()]
      .sort((a, b) => b[0] - a[0])
      .map(([h, requests]) => ({ start: iso(h), requests }));
    reportDays.push({ start: iso(d), requests: day?.requests ?? 0, hours });
  }

  return {
    organizationId: org.id,
    quota: await getOrganizationQuota(ctx, actor),
    currentHour: { start: iso(thisHour), requests: byDay.get(today)?.hours.get(thisHour) ?? 0 },
    currentDay: { start: iso(today), requests: byDay.get(today)?.requests ?? 0 },
    days: reportDays,
    keys: keys.map((key) => ({
      apiKeyId: key.id,
      publicKey: key.publicKey,
      ...(byKey.get(key.id) ?? { currentHour: 0, currentDay: 0, total: 0 }),
    })),
  };
}

/**
 * @module scripts/seeds/keys
 * API keys and their usage for screenshots of the dashboard's keys and
 * usage sections: named keys (one expiring, one expired, one revoked, the
 * seeded unnamed one), and 30 days of hourly request totals with a
 * working-day rhythm and a few refused (429) requests, as the request
 * counter would have written them.
 *
 *   node --import tsx scripts/dashboard-shots.ts --seed scripts/seeds/keys.ts /dashboard/keys /dashboard/usage
 */
import type { Actor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { createApiKey, revokeApiKey } from '../../src/domain/keys.ts';
import type { Organization, UsageIncrement } from '../../src/domain/types.ts';
import { DAY_MS, HOUR_MS, hourStart } from '../../src/domain/usage.ts';

export default async function seedKeys(ctx: DomainContext, org: Organization, operator: Actor): Promise<Record<string, string>> {
  const now = Date.now();
  const at = (msAgo: number): DomainContext => ({ ...ctx, now: () => new Date(now - msAgo) });
  const practice = (await createApiKey(at(40 * DAY_MS), operator, { name: 'Practice software', expiresAt: null })).key;
  const portal = (await createApiKey(at(12 * DAY_MS), operator, { name: 'Patient portal (staging)', expiresAt: new Date(now + 20 * DAY_MS) })).key;
  const old = (await createApiKey(at(400 * DAY_MS), operator, { name: 'Old booking system', expiresAt: new Date(now - 35 * DAY_MS) })).key;
  const leaked = (await createApiKey(at(20 * DAY_MS), operator, { name: 'Laptop test key', expiresAt: null })).key;
  await revokeApiKey(at(9 * DAY_MS), operator, { id: leaked.id });

  const rows: UsageIncrement[] = [];
  const thisHour = hourStart(now);
  for (let h = 0; h < 30 * 24; h++) {
    const start = thisHour - h * HOUR_MS;
    const hourOfDay = new Date(start).getUTCHours();
    const weekday = new Date(start).getUTCDay() % 6 !== 0;
    const busy = hourOfDay >= 7 && hourOfDay <= 17 ? (weekday ? 1 : 0.25) : 0.03;
    const wave = 0.75 + 0.25 * Math.sin(h / 7);
    const requests = Math.round(180 * busy * wave);
    if (requests > 0) rows.push({ apiKeyId: practice.id, organizationId: org.id, hourStart: start, requests, lastUsedAt: start + 1_000 });
    if (h < 12 * 24 && busy > 0.5) {
      rows.push({ apiKeyId: portal.id, organizationId: org.id, hourStart: start, requests: Math.round(40 * wave), refused: h % 29 === 3 ? 17 : 0, lastUsedAt: start + 2_000 });
    }
    if (h >= 9 * 24 && h < 20 * 24 && busy > 0.5) rows.push({ apiKeyId: leaked.id, organizationId: org.id, hourStart: start, requests: 6, lastUsedAt: start });
  }
  await ctx.store.recordUsage(rows);
  // The old key's last use was long ago.
  await ctx.store.recordUsage([{ apiKeyId: old.id, organizationId: org.id, hourStart: hourStart(now - 60 * DAY_MS), requests: 1, lastUsedAt: now - 60 * DAY_MS }]);
  await ctx.store.setOrganizationQuota(org.id, { hourly: 500, daily: 5000 });
  return { practice: practice.id };
}

/**
 * @module store/queries/usage
 * Request totals per API key and UTC hour (accepted and refused), the
 * keys' last use, and organizations' quotas.
 */
import { sql } from 'kysely';
import type { UsageStore } from '../../domain/key-ports.ts';
import { DAY_MS } from '../../domain/usage.ts';
import { toMillis } from '../mappers.ts';
import { atomically, translated, type QueryContext } from './db.ts';

/** Rows per usage upsert: 5 parameters each, well under SQLite's 32766-parameter cap. */
const USAGE_CHUNK = 500;

/** The start of a row's UTC day; a literal, so both databases compute it in the row's own integer type. */
const dayOfHour = sql<number>`hour_start - (hour_start % ${sql.lit(DAY_MS)})`;

export const usageQueries: UsageStore & ThisType<QueryContext> = {
  async recordUsage(increments) {
    if (increments.length === 0) return;
    // Each key's newest use in the batch: one update per key, not per row.
    const lastUse = new Map<string, number>();
    for (const u of increments) {
      if (u.lastUsedAt !== undefined && u.lastUsedAt > (lastUse.get(u.apiKeyId) ?? -1)) lastUse.set(u.apiKeyId, u.lastUsedAt);
    }
    await translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        // Chunked: SQLite caps bound parameters per statement.
        for (let i = 0; i < increments.length; i += USAGE_CHUNK) {
          const rows = increments.slice(i, i + USAGE_CHUNK).map((u) => ({
            api_key_id: u.apiKeyId,
            organization_id: u.organizationId,
            hour_start: u.hourStart,
            requests: u.requests,
            refused: u.refused ?? 0,
          }));
          await trx
            .insertInto('usage_hourly')
            .values(rows)
            // Adds rather than overwrites, so several instances flushing the same hour all count.
            .onConflict((oc) =>
              oc.columns(['api_key_id', 'hour_start']).doUpdateSet((eb) => ({
                requests: eb('usage_hourly.requests', '+', eb.ref('excluded.requests')),
                refused: eb('usage_hourly.refused', '+', eb.ref('excluded.refused')),
              })),
            )
            .execute();
        }
        // Only forward: another instance may have written a later use already.
        for (const [id, at] of lastUse) {
          await trx
            .updateTable('api_keys')
            .set({ last_used_at: at })
            .where('id', '=', id)
            .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
            .execute();
        }
      }),
    );
  },

  async listHourlyUsage(organizationId, from, to) {
    const rows = await this.db
      .selectFrom('usage_hourly')
      .select(['api_key_id', 'hour_start', 'requests', 'refused'])
      .where('organization_id', '=', organizationId)
      .where('hour_start', '>=', toMillis(from))
      .where('hour_start', '<', toMillis(to))
      .orderBy('hour_start')
      .orderBy('api_key_id')
      .execute();
    return rows.map((r) => ({
      apiKeyId: r.api_key_id,
      hourStart: Number(r.hour_start),
      requests: Number(r.requests),
      refused: Number(r.refused),
    }));
  },

  async listDailyUsage(organizationId, from, to) {
    const rows = await this.db
      .selectFrom('usage_hourly')
      .select((eb) => [
        'api_key_id',
        dayOfHour.as('day_start'),
        eb.fn.sum<number | string>('requests').as('requests'),
        eb.fn.sum<number | string>('refused').as('refused'),
      ])
      .where('organization_id', '=', organizationId)
      .where('hour_start', '>=', toMillis(from))
      .where('hour_start', '<', toMillis(to))
      .groupBy(['api_key_id', dayOfHour])
      .orderBy(dayOfHour)
      .orderBy('api_key_id')
      .execute();
    // PostgreSQL sums bigints as numeric, which arrives as a string.
    return rows.map((r) => ({
      apiKeyId: r.api_key_id,
      dayStart: Number(r.day_start),
      requests: Number(r.requests),
      refused: Number(r.refused),
    }));
  },

  async findOrganizationQuota(organizationId) {
    const row = await this.db
      .selectFrom('organization_quotas')
      .select(['hourly_limit', 'daily_limit'])
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!row) return undefined;
    const n = (v: number | null) => (v === null ? null : Number(v));
    return { hourly: n(row.hourly_limit), daily: n(row.daily_limit) };
  },

  async setOrganizationQuota(organizationId, quota) {
    const row = { organization_id: organizationId, hourly_limit: quota.hourly, daily_limit: quota.daily };
    await translated(this.translate, () =>
      this.db
        .insertInto('organization_quotas')
        .values(row)
        .onConflict((oc) => oc.column('organization_id').doUpdateSet({ hourly_limit: quota.hourly, daily_limit: quota.daily }))
        .execute(),
    );
  },
};

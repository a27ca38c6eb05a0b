/**
 * @module store/queries/usage
 * Request totals per API key and UTC hour, and organizations' quotas.
 */
import type { UsageStore } from '../../domain/ports/store.ts';
import { toMillis } from '../mappers.ts';
import { atomically, translated, type Db, type QueryContext } from './db.ts';

/** Rows per usage upsert: 4 parameters each, well under SQLite's 32766-parameter cap. */
const USAGE_CHUNK = 500;

export const usageQueries: UsageStore & ThisType<QueryContext> = {
  async recordUsage(increments) {
    if (increments.length === 0) return;
    await translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        // Chunked: SQLite caps bound parameters per statement.
        for (let i = 0; i < increments.length; i += USAGE_CHUNK) {
          const rows = increments.slice(i, i + USAGE_CHUNK).map((u) => ({
            api_key_id: u.apiKeyId,
            organization_id: u.organizationId,
            hour_start: u.hourStart,
            requests: u.requests,
          }));
          await trx
            .insertInto('usage_hourly')
            .values(rows)
            // Adds rather than overwrites, so several instances flushing the same hour all count.
            .onConflict((oc) =>
              oc.columns(['api_key_id', 'hour_start']).doUpdateSet((eb) => ({
                requests: eb('usage_hourly.requests', '+', eb.ref('excluded.requests')),
              })),
            )
            .execute();
        }
      }),
    );
  },

  async listHourlyUsage(organizationId, from, to) {
    const rows = await this.db
      .selectFrom('usage_hourly')
      .select(['api_key_id', 'hour_start', 'requests'])
      .where('organization_id', '=', organizationId)
      .where('hour_start', '>=', toMillis(from))
      .where('hour_start', '<', toMillis(to))
      .orderBy('hour_start')
      .execute();
    return rows.map((r) => ({ apiKeyId: r.api_key_id, hourStart: Number(r.hour_start), requests: Number(r.requests) }));
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

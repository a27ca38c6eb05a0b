/**
 * @module store/migrations/003_usage
 * Request totals per API key and UTC hour, and operator-set request quotas
 * per organization. Hourly rows are the only counters: an
 * organization's totals and daily totals are sums over them, so there is
 * nothing that could drift apart. Counts are flushed in batches by an
 * upsert that adds to `requests`, so several instances can write the same
 * row without losing increments.
 */
import type { Kysely, Migration } from 'kysely';

export const usage: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('usage_hourly')
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('hour_start', 'bigint', (c) => c.notNull())
      .addColumn('requests', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_hourly_pkey', ['api_key_id', 'hour_start'])
      .addForeignKeyConstraint('usage_hourly_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();
    // `foyer usage` and quota seeding read one organization's hours in a time range.
    await db.schema
      .createIndex('usage_hourly_organization_hour_idx')
      .on('usage_hourly')
      .columns(['organization_id', 'hour_start'])
      .execute();

    await db.schema
      .createTable('organization_quotas')
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('hourly_limit', 'bigint')
      .addColumn('daily_limit', 'bigint')
      .addPrimaryKeyConstraint('organization_quotas_pkey', ['organization_id'])
      .addForeignKeyConstraint('organization_quotas_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('organization_quotas').execute();
    await db.schema.dropTable('usage_hourly').execute();
  },
};

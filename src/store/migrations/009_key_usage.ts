/**
 * @module store/migrations/009_key_usage
 * What the dashboard shows of API keys and their use:
 * - `api_keys.name`: a label an administrator gives a key ('' for keys
 *   issued before keys had names);
 * - `api_keys.last_used_at`: the last authenticated request of the key,
 *   written with the batched usage totals (so at most one flush interval
 *   old), never once per request;
 * - `usage_hourly.refused`: requests of the key in that hour refused with
 *   429 (its rate limit or the organization's quota). `requests` stays
 *   the accepted ones only, since quotas are sums of it.
 */
import type { Kysely, Migration } from 'kysely';

export const keyUsage: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('api_keys').addColumn('name', 'text', (c) => c.notNull().defaultTo('')).execute();
    await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
    await db.schema.alterTable('usage_hourly').addColumn('refused', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('usage_hourly').dropColumn('refused').execute();
    await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
    await db.schema.alterTable('api_keys').dropColumn('name').execute();
  },
};

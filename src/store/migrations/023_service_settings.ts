/**
 * @module store/migrations/023_service_settings
 * `service_settings`: facts about the service as a whole that every
 * process on this database shares, by name; first the public URL the
 * server runs at, written at its start, so the operator's CLI prints
 * links that lead there whatever shell it runs in.
 */
import type { Kysely, Migration } from 'kysely';

export const serviceSettings: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('service_settings')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('service_settings').execute();
  },
};

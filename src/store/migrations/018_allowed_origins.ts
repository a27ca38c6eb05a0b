/**
 * @module store/migrations/018_allowed_origins
 * `allowed_origins`: the origins an organization allows to embed its
 * pages (CSP frame-ancestors, and where the pages post events), one row
 * each, in the order set.
 */
import type { Kysely, Migration } from 'kysely';

export const allowedOrigins: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('allowed_origins')
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('allowed_origins_pkey', ['organization_id', 'origin'])
      .addForeignKeyConstraint('allowed_origins_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) => fk.onDelete('cascade'))
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('allowed_origins').execute();
  },
};

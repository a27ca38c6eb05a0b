/**
 * @module store/migrations/017_organization_changes
 * The record of changes to an organization's members and settings:
 * `organization_changes`, one row per change (who, what, when), read
 * newest first per organization. Who acted and whom it concerned are
 * kept as text as they were then, so the record outlives them; `detail`
 * is a JSON object.
 */
import type { Kysely, Migration } from 'kysely';

export const organizationChanges: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('organization_changes')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('actor_kind', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('actor_label', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text')
      .addColumn('subject_label', 'text')
      .addColumn('detail', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('organization_changes_pkey', ['id'])
      .addForeignKeyConstraint('organization_changes_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) => fk.onDelete('cascade'))
      .execute();
    await db.schema
      .createIndex('organization_changes_organization_created_idx')
      .on('organization_changes')
      .columns(['organization_id', 'created_at', 'id'])
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('organization_changes').execute();
  },
};

/**
 * @module store/migrations/015_lists
 * Indexes for the dashboard's newest-first lists of an organization's
 * meetings, rooms, boards and queues: each page is a range of one index,
 * however many objects the organization has made.
 */
import type { Kysely, Migration } from 'kysely';

export const lists: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.createIndex('meetings_organization_created_idx').on('meetings').columns(['organization_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('rooms_organization_created_idx').on('rooms').columns(['organization_id', 'created_at', 'id']).execute();
    await db.schema
      .createIndex('spaces_organization_kind_created_idx')
      .on('spaces')
      .columns(['organization_id', 'kind', 'created_at', 'id'])
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    for (const index of ['spaces_organization_kind_created_idx', 'rooms_organization_created_idx', 'meetings_organization_created_idx']) {
      await db.schema.dropIndex(index).execute();
    }
  },
};

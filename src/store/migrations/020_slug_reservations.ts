/**
 * @module store/migrations/020_slug_reservations
 * A slug an organization gives up (a board or queue renamed or deleted)
 * stays its own for a while, so its old links never lead into another
 * organization's place. The row stays in `slugs` (its primary key keeps
 * anyone else from taking the slug, race-free) with:
 * - `organization_id`: whose slug it is (filled in for existing slugs);
 * - `released_at`, `reserved_until`: when it was given up and until when it
 *   stays reserved (both null while in use);
 * - `released_as`: `moved` (renamed: `object_id` still names the place,
 *   whose current slug the old link points to) or `ended` (deleted).
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const slugReservations: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('slugs').addColumn('organization_id', 'text').execute();
    await db.schema.alterTable('slugs').addColumn('released_at', 'bigint').execute();
    await db.schema.alterTable('slugs').addColumn('reserved_until', 'bigint').execute();
    await db.schema.alterTable('slugs').addColumn('released_as', 'text').execute();
    await sql`UPDATE slugs SET organization_id = (SELECT organization_id FROM rooms WHERE rooms.id = slugs.object_id) WHERE kind = 'room'`.execute(db);
    await sql`UPDATE slugs SET organization_id = (SELECT organization_id FROM spaces WHERE spaces.id = slugs.object_id) WHERE kind <> 'room'`.execute(db);
    await db.schema.createIndex('slugs_object_idx').on('slugs').column('object_id').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.deleteFrom('slugs').where('reserved_until', 'is not', null).execute();
    await db.schema.dropIndex('slugs_object_idx').execute();
    for (const column of ['released_as', 'reserved_until', 'released_at', 'organization_id']) {
      await db.schema.alterTable('slugs').dropColumn(column).execute();
    }
  },
};

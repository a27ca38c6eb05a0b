/**
 * @module store/migrations/014_meeting_admin
 * What the meeting admin (the owner, or an organization ADMIN for meetings
 * without one) decides, kept in the database so every instance agrees:
 * - `meetings.lock_state`: `open`, `locked` (arrivals knock), or
 *   `until_owner` (locked until the owner first joins: the default of a
 *   CONSULTATION created with an owner);
 * - `presence.is_host` and `presence.guest_key`: whether a participant is
 *   the meeting's admin (decided from their session at join), and who they
 *   are across reconnects (their member id, or the hash of the browser's
 *   participant cookie), so a removed participant is recognised;
 * - `meeting_knocks`: arrivals waiting to be let in, one per connection;
 * - `meeting_removals`: who was removed from which meeting, until let in again.
 */
import type { Kysely, Migration } from 'kysely';

export const meetingAdmin: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('meetings').addColumn('lock_state', 'text', (c) => c.notNull().defaultTo('open')).execute();
    await db.schema.alterTable('presence').addColumn('is_host', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('presence').addColumn('guest_key', 'text').execute();

    await db.schema
      .createTable('meeting_knocks')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('meeting_id', 'text', (c) => c.notNull())
      .addColumn('instance_id', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('guest_key', 'text')
      .addColumn('was_removed', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('arrived_at', 'bigint', (c) => c.notNull())
      .addColumn('decided_at', 'bigint')
      .addPrimaryKeyConstraint('meeting_knocks_pkey', ['id'])
      .execute();
    await db.schema.createIndex('meeting_knocks_meeting_idx').on('meeting_knocks').columns(['meeting_id', 'state']).execute();

    await db.schema
      .createTable('meeting_removals')
      .addColumn('meeting_id', 'text', (c) => c.notNull())
      .addColumn('guest_key', 'text', (c) => c.notNull())
      .addColumn('removed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('meeting_removals_pkey', ['meeting_id', 'guest_key'])
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('meeting_removals').execute();
    await db.schema.dropTable('meeting_knocks').execute();
    await db.schema.alterTable('presence').dropColumn('guest_key').execute();
    await db.schema.alterTable('presence').dropColumn('is_host').execute();
    await db.schema.alterTable('meetings').dropColumn('lock_state').execute();
  },
};

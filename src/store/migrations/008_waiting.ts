/**
 * @module store/migrations/008_waiting
 * Live waiting lists of boards and queues:
 * - `waiting_entries`: one row per client who asked to be seen, from arrival
 *   to the end of their call (or their leaving), kept afterwards as the
 *   history that estimates waits and the audit of who accepted whom. The
 *   list lives here, not in an instance's memory, so nobody is lost when an
 *   instance restarts and every instance serves the same list.
 * - `member_consoles`: the open consoles of members (who is online for a
 *   space), counted only while their instance is alive, like presence.
 * - `space_members.current_entry_id`: the client a member is serving or has
 *   reserved; set by one conditional update, so a member never gets two.
 */
import type { Kysely, Migration } from 'kysely';

export const waiting: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('waiting_entries')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('space_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('arrived_at', 'bigint', (c) => c.notNull())
      .addColumn('connection_id', 'text')
      .addColumn('instance_id', 'text')
      .addColumn('disconnected_at', 'bigint')
      .addColumn('served_by', 'text')
      .addColumn('reserved_until', 'bigint')
      .addColumn('meeting_id', 'text')
      .addColumn('accepted_at', 'bigint')
      .addColumn('call_started_at', 'bigint')
      .addColumn('ended_at', 'bigint')
      .addColumn('outcome', 'text')
      .addColumn('message', 'text')
      .addPrimaryKeyConstraint('waiting_entries_pkey', ['id'])
      .execute();
    await db.schema.createIndex('waiting_entries_space_state_idx').on('waiting_entries').columns(['space_id', 'state', 'arrived_at']).execute();
    await db.schema.createIndex('waiting_entries_connection_idx').on('waiting_entries').column('connection_id').execute();
    await db.schema.createIndex('waiting_entries_meeting_idx').on('waiting_entries').column('meeting_id').execute();
    await db.schema.createIndex('waiting_entries_state_idx').on('waiting_entries').columns(['state', 'reserved_until']).execute();

    await db.schema
      .createTable('member_consoles')
      .addColumn('connection_id', 'text', (c) => c.notNull())
      .addColumn('space_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('instance_id', 'text', (c) => c.notNull())
      .addColumn('opened_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('member_consoles_pkey', ['connection_id'])
      .execute();
    await db.schema.createIndex('member_consoles_space_idx').on('member_consoles').columns(['space_id', 'user_id']).execute();
    await db.schema.createIndex('member_consoles_instance_idx').on('member_consoles').column('instance_id').execute();

    await db.schema.alterTable('space_members').addColumn('current_entry_id', 'text').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('space_members').dropColumn('current_entry_id').execute();
    await db.schema.dropTable('member_consoles').execute();
    await db.schema.dropTable('waiting_entries').execute();
  },
};

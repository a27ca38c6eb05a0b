/**
 * @module store/migrations/021_waiting_presence
 * Two columns of `waiting_entries` that bound what one address can do to a
 * line: `address_key` (a keyed hash of the client's address, never the
 * address itself) for the per-address cap, and `answered_at` (when the
 * client's page first answered its view) for the grace period, which only
 * a page that really was there gets.
 */
import type { Kysely, Migration } from 'kysely';

export const waitingPresence: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('waiting_entries').addColumn('address_key', 'text').execute();
    await db.schema.alterTable('waiting_entries').addColumn('answered_at', 'bigint').execute();
    await db.schema.createIndex('waiting_entries_address_idx').on('waiting_entries').columns(['space_id', 'address_key', 'state']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('waiting_entries_address_idx').execute();
    await db.schema.alterTable('waiting_entries').dropColumn('answered_at').execute();
    await db.schema.alterTable('waiting_entries').dropColumn('address_key').execute();
  },
};

/**
 * @module store/migrations/016_sfu_placements
 * `sfu_placements`: the Janus server (by label) and the VideoRoom room on
 * it that each place (meeting or room session) uses once it moved to the SFU, one row per
 * place (`place_kind`/`place_id` as in `presence`), so that every instance
 * routes a meeting to the same Janus. No secret is stored: a room's secret
 * is derived from the server's API secret, which lives in the configuration.
 */
import type { Kysely, Migration } from 'kysely';

export const sfuPlacements: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('sfu_placements')
      .addColumn('place_kind', 'text', (c) => c.notNull())
      .addColumn('place_id', 'text', (c) => c.notNull())
      .addColumn('server', 'text', (c) => c.notNull())
      .addColumn('room', 'bigint', (c) => c.notNull())
      .addColumn('placed_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('sfu_placements_pkey', ['place_kind', 'place_id'])
      .execute();
    await db.schema.createIndex('sfu_placements_server_idx').on('sfu_placements').columns(['server', 'placed_at']).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('sfu_placements').execute();
  },
};

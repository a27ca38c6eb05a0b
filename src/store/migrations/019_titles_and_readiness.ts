/**
 * @module store/migrations/019_titles_and_readiness
 * `meetings.title`: an optional title the call page shows (a v3 and
 * dashboard extension, at most 100 characters). `waiting_entries.readiness`:
 * the device and network check a waiting client's page reported, as JSON
 * (`{"camera","microphone","network"}`), null until reported.
 */
import type { Kysely, Migration } from 'kysely';

export const titlesAndReadiness: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('meetings').addColumn('title', 'text').execute();
    await db.schema.alterTable('waiting_entries').addColumn('readiness', 'text').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('waiting_entries').dropColumn('readiness').execute();
    await db.schema.alterTable('meetings').dropColumn('title').execute();
  },
};

/**
 * @module store/migrations/002_presence
 * Shared presence and meeting-place sessions, so that the
 * lifecycle deadlines live in the database and every instance agrees on
 * who is present:
 * - `instances`: each running Foyer process and its last heartbeat. A
 *   presence row only counts while its instance is alive, so a crashed
 *   instance's participants are noticed by the others (and by a restart).
 * - `presence`: one row per connected participant, in a meeting
 *   (`place_kind` 'meeting', `place_id` = meeting id) or in a session of a
 *   room or board (`place_kind` 'session', `place_id` = session id).
 * - `place_sessions`: a room's (or board's) current and past sessions. At
 *   most one open session per place, enforced by a partial unique index.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const presence: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('instances')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('seen_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('instances_pkey', ['id'])
      .execute();

    await db.schema
      .createTable('presence')
      .addColumn('connection_id', 'text', (c) => c.notNull())
      .addColumn('instance_id', 'text', (c) => c.notNull())
      .addColumn('place_kind', 'text', (c) => c.notNull())
      .addColumn('place_id', 'text', (c) => c.notNull())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('audio', 'integer', (c) => c.notNull())
      .addColumn('video', 'integer', (c) => c.notNull())
      .addColumn('screen', 'integer', (c) => c.notNull())
      .addColumn('joined_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('presence_pkey', ['connection_id'])
      .execute();
    await db.schema.createIndex('presence_place_idx').on('presence').columns(['place_kind', 'place_id']).execute();
    await db.schema.createIndex('presence_instance_idx').on('presence').column('instance_id').execute();

    await db.schema
      .createTable('place_sessions')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('place_kind', 'text', (c) => c.notNull())
      .addColumn('place_id', 'text', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('closes_at', 'bigint')
      .addColumn('closed_at', 'bigint')
      .addPrimaryKeyConstraint('place_sessions_pkey', ['id'])
      .execute();
    // Both SQLite and PostgreSQL support partial unique indexes with this syntax.
    await sql`create unique index place_sessions_open_key on place_sessions (place_kind, place_id) where closed_at is null`.execute(db);
    await db.schema.createIndex('place_sessions_closes_at_idx').on('place_sessions').column('closes_at').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    for (const table of ['place_sessions', 'presence', 'instances']) {
      await db.schema.dropTable(table).execute();
    }
  },
};

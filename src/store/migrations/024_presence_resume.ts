/**
 * @module store/migrations/024_presence_resume
 * A participant whose socket dropped is kept for a grace period and may
 * take their place back with a resume token (docs/signalling.md, "Coming
 * back"). On `presence`:
 * - `socket_id`: the connection that holds the participant now (their
 *   first one, or the one that resumed them); null while they are away.
 *   A close or leave of an older socket changes nothing.
 * - `detached_until`: while away, when the grace ends and they leave.
 * - `resume_hash`: SHA-256 of their current resume token (never the
 *   token); replaced at every resume, so a token is good once.
 */
import { sql, type Kysely, type Migration } from 'kysely';

export const presenceResume: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('presence').addColumn('socket_id', 'text').execute();
    await db.schema.alterTable('presence').addColumn('detached_until', 'bigint').execute();
    await db.schema.alterTable('presence').addColumn('resume_hash', 'text').execute();
    await sql`update presence set socket_id = connection_id`.execute(db);
    await db.schema.createIndex('presence_resume_hash_idx').on('presence').column('resume_hash').execute();
    await db.schema.createIndex('presence_detached_until_idx').on('presence').column('detached_until').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('presence_detached_until_idx').execute();
    await db.schema.dropIndex('presence_resume_hash_idx').execute();
    for (const column of ['resume_hash', 'detached_until', 'socket_id']) await db.schema.alterTable('presence').dropColumn(column).execute();
  },
};

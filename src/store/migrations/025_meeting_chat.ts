/**
 * @module store/migrations/025_meeting_chat
 * `meetings.chat_off`: the host turned the meeting's chat off (1) or it is
 * on (0, every meeting until then). Only the switch is stored: the chat's
 * messages never are.
 */
import type { Kysely, Migration } from 'kysely';

export const meetingChat: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('meetings').addColumn('chat_off', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('meetings').dropColumn('chat_off').execute();
  },
};

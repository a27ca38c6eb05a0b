/**
 * @module store/queries/meetings
 * Meetings as the API sees them: scoped by organization, deleted ones gone.
 * (The meeting pages' lookups across organizations are in place-records.ts.)
 */
import type { MeetingStore } from '../../domain/meeting-ports.ts';
import { meetingToRow, rowToMeeting, toMillis } from '../mappers.ts';
import { atomically, olderThan, translated, type QueryContext } from './db.ts';

export const meetingQueries: MeetingStore & ThisType<QueryContext> = {
  async insertMeeting(meeting) {
    await translated(this.translate, () => this.db.insertInto('meetings').values(meetingToRow(meeting)).execute());
  },

  async findMeeting(organizationId, id) {
    const row = await this.db
      .selectFrom('meetings')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && rowToMeeting(row);
  },

  async deleteMeeting(organizationId, id, at) {
    return translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        const row = await trx
          .selectFrom('meetings')
          .selectAll()
          .where('id', '=', id)
          .where('organization_id', '=', organizationId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!row) return undefined;
        const result = await trx
          .updateTable('meetings')
          .set({ deleted_at: toMillis(at) })
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        // A concurrent delete won the race: for this caller it no longer exists.
        if (Number(result.numUpdatedRows) === 0) return undefined;
        return { ...rowToMeeting(row), deletedAt: at };
      }),
    );
  },

  async closeMeeting(id, at) {
    const ms = toMillis(at);
    const row = await this.db
      .updateTable('meetings')
      .set({ closed_at: ms, closes_at: null })
      .where('id', '=', id)
      .where('closed_at', 'is', null)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('closes_at', 'is', null), eb('closes_at', '>', ms)]))
      .returningAll()
      .executeTakeFirst();
    return row && rowToMeeting(row);
  },

  async markMeetingStarted(meetingId, at) {
    const result = await this.db
      .updateTable('meetings')
      .set({ started_at: toMillis(at) })
      .where('id', '=', meetingId)
      .where('started_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async listMeetings(organizationId, page) {
    let query = this.db.selectFrom('meetings').selectAll().where('organization_id', '=', organizationId);
    if (page.before) query = query.where(olderThan(page.before));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
    return rows.map(rowToMeeting);
  },

  async countOpenMeetings(at) {
    const ms = toMillis(at);
    const row = await this.db
      .selectFrom('meetings')
      .select((eb) => eb.fn.countAll<number>().as('open'))
      .where('closed_at', 'is', null)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('closes_at', 'is', null), eb('closes_at', '>', ms)]))
      .executeTakeFirstOrThrow();
    return Number(row.open);
  },
};

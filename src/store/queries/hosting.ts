/**
 * @module store/queries/hosting
 * The host's state: the lock, knocks, removals. Decisions are
 * conditional updates (`WHERE state = 'knocking'`), so two hosts acting
 * on one knock at once cannot both decide it.
 */
import type { HostingStore, Knock } from '../../domain/hosting-ports.ts';
import { toBool, toInt } from '../mappers.ts';
import type { MeetingKnocksTable } from '../schema.ts';
import type { QueryContext } from './db.ts';

export const hostingQueries: HostingStore & ThisType<QueryContext> = {
  async setMeetingLock(meetingId, to, from) {
    let query = this.db.updateTable('meetings').set({ lock_state: to }).where('id', '=', meetingId).where('lock_state', '!=', to);
    if (from) query = query.where('lock_state', 'in', [...from]);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async insertKnock(knock) {
    await this.db
      .insertInto('meeting_knocks')
      .values({
        id: knock.id,
        meeting_id: knock.meetingId,
        instance_id: knock.instanceId,
        display_name: knock.displayName,
        guest_key: knock.guestKey,
        was_removed: toInt(knock.wasRemoved),
        state: knock.state,
        arrived_at: knock.arrivedAt.getTime(),
        decided_at: null,
      })
      .execute();
  },

  async listKnocks(meetingId, staleBefore) {
    const rows = await this.db
      .selectFrom('meeting_knocks')
      .innerJoin('instances', 'instances.id', 'meeting_knocks.instance_id')
      .selectAll('meeting_knocks')
      .where('meeting_knocks.meeting_id', '=', meetingId)
      .where('meeting_knocks.state', '=', 'knocking')
      .where('instances.seen_at', '>=', staleBefore.getTime())
      .orderBy('meeting_knocks.arrived_at')
      .orderBy('meeting_knocks.id')
      .execute();
    return rows.map(rowToKnock);
  },

  async holdOpenWhileKnocking(now, until, staleBefore) {
    const untilMs = until.getTime();
    await this.db
      .updateTable('meetings')
      .set({ closes_at: untilMs })
      .where('closed_at', 'is', null)
      .where('deleted_at', 'is', null)
      .where('closes_at', 'is not', null)
      .where('closes_at', '>', now.getTime())
      .where('closes_at', '<', untilMs)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('meeting_knocks')
            .innerJoin('instances', 'instances.id', 'meeting_knocks.instance_id')
            .select('meeting_knocks.id')
            .whereRef('meeting_knocks.meeting_id', '=', 'meetings.id')
            .where('meeting_knocks.state', '=', 'knocking')
            .where('instances.seen_at', '>=', staleBefore.getTime()),
        ),
      )
      .execute();
  },

  async decideKnock(meetingId, knockId, state, at) {
    const row = await this.db
      .updateTable('meeting_knocks')
      .set({ state, decided_at: at.getTime() })
      .where('id', '=', knockId)
      .where('meeting_id', '=', meetingId)
      .where('state', '=', 'knocking')
      .returningAll()
      .executeTakeFirst();
    return row && rowToKnock(row);
  },

  async deleteKnock(knockId) {
    const row = await this.db.deleteFrom('meeting_knocks').where('id', '=', knockId).returningAll().executeTakeFirst();
    return row && rowToKnock(row);
  },

  async insertRemoval(meetingId, guestKey, at) {
    await this.db
      .insertInto('meeting_removals')
      .values({ meeting_id: meetingId, guest_key: guestKey, removed_at: at.getTime() })
      .onConflict((oc) => oc.columns(['meeting_id', 'guest_key']).doUpdateSet({ removed_at: at.getTime() }))
      .execute();
  },

  async isRemoved(meetingId, guestKey) {
    const row = await this.db
      .selectFrom('meeting_removals')
      .select('meeting_id')
      .where('meeting_id', '=', meetingId)
      .where('guest_key', '=', guestKey)
      .executeTakeFirst();
    return row !== undefined;
  },

  async deleteRemoval(meetingId, guestKey) {
    await this.db.deleteFrom('meeting_removals').where('meeting_id', '=', meetingId).where('guest_key', '=', guestKey).execute();
  },
};

function rowToKnock(r: MeetingKnocksTable): Knock {
  return {
    id: r.id,
    meetingId: r.meeting_id,
    instanceId: r.instance_id,
    displayName: r.display_name,
    guestKey: r.guest_key,
    wasRemoved: toBool(r.was_removed),
    state: r.state,
    arrivedAt: new Date(Number(r.arrived_at)),
  };
}

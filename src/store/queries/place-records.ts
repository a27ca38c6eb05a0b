/**
 * @module store/queries/place-records
 * The meeting places as the front end and the sweeper see them, across
 * organizations: meetings by link, places by slug, what is due to close
 * and what has ended.
 */
import { sql } from 'kysely';
import type { ClosedPlace, LiveStore } from '../../domain/place-ports.ts';
import type { PlaceRef } from '../../domain/presence.ts';
import { rowToMeeting, toBool } from '../mappers.ts';
import type { Db, QueryContext } from './db.ts';
import { rowToSession } from './presence.ts';

export type PlaceRecordQueries = Pick<
  LiveStore,
  'closeDue' | 'endedPlaces' | 'findMeetingRecord' | 'findSession' | 'findSlugPlace' | 'findPlaceOrganization'
>;

export const placeRecordQueries: PlaceRecordQueries & ThisType<QueryContext> = {
  async closeDue(at) {
    const ms = at.getTime();
    const meetings = await this.db
      .updateTable('meetings')
      // Closed when the deadline passed, not when a sweeper happened to notice.
      .set({ closed_at: sql<number>`closes_at` })
      .where('closed_at', 'is', null)
      .where('deleted_at', 'is', null)
      .where('closes_at', 'is not', null)
      .where('closes_at', '<=', ms)
      .returning(['id', 'organization_id'])
      .execute();
    const sessions = await this.db
      .updateTable('place_sessions')
      .set({ closed_at: sql<number>`closes_at` })
      .where('closed_at', 'is', null)
      .where('closes_at', 'is not', null)
      .where('closes_at', '<=', ms)
      .returning('id')
      .execute();
    const owners = await sessionOrganizations(this.db, sessions.map((s) => s.id));
    const closed: ClosedPlace[] = meetings.map((m) => ({ place: { kind: 'meeting', id: m.id }, organizationId: m.organization_id }));
    for (const s of sessions) {
      // A session of a place deleted meanwhile has no organization left to tell.
      const organizationId = owners.get(s.id);
      if (organizationId) closed.push({ place: { kind: 'session', id: s.id }, organizationId });
    }
    return closed;
  },

  async endedPlaces(places, at) {
    const ms = at.getTime();
    const meetingIds = places.filter((p) => p.kind === 'meeting').map((p) => p.id);
    const sessionIds = places.filter((p) => p.kind === 'session').map((p) => p.id);
    const ended: PlaceRef[] = [];
    if (meetingIds.length) {
      const open = await this.db
        .selectFrom('meetings')
        .select('id')
        .where('id', 'in', meetingIds)
        .where('deleted_at', 'is', null)
        .where('closed_at', 'is', null)
        .where((eb) => eb.or([eb('closes_at', 'is', null), eb('closes_at', '>', ms)]))
        .execute();
      const openIds = new Set(open.map((r) => r.id));
      for (const id of meetingIds) if (!openIds.has(id)) ended.push({ kind: 'meeting', id });
    }
    if (sessionIds.length) {
      const open = await this.db
        .selectFrom('place_sessions')
        .select('id')
        .where('id', 'in', sessionIds)
        .where('closed_at', 'is', null)
        .where((eb) => eb.or([eb('closes_at', 'is', null), eb('closes_at', '>', ms)]))
        .execute();
      const openIds = new Set(open.map((r) => r.id));
      for (const id of sessionIds) if (!openIds.has(id)) ended.push({ kind: 'session', id });
    }
    return ended;
  },

  async findMeetingRecord(by, options = {}) {
    let query = this.db.selectFrom('meetings').selectAll();
    query = 'id' in by ? query.where('id', '=', by.id) : query.where('short_code', '=', by.shortCode);
    if (options.lock && this.dialect === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row && rowToMeeting(row);
  },

  async findSession(id) {
    const row = await this.db.selectFrom('place_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && rowToSession(row);
  },

  async findSlugPlace(slug) {
    const room = await this.db.selectFrom('rooms').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (room) return { kind: 'room', id: room.id, organizationId: room.organization_id, slug: room.slug, title: room.title };
    const space = await this.db.selectFrom('spaces').selectAll().where('slug', '=', slug).executeTakeFirst();
    if (!space) return undefined;
    return {
      kind: space.kind,
      id: space.id,
      organizationId: space.organization_id,
      slug: space.slug,
      name: space.name,
      isActive: toBool(space.is_active),
      closingMessage: space.closing_message,
      hasWaitingList: toBool(space.has_waiting_list),
    };
  },

  async findPlaceOrganization(place) {
    if (place.kind === 'meeting') {
      const row = await this.db.selectFrom('meetings').select('organization_id').where('id', '=', place.id).executeTakeFirst();
      return row?.organization_id;
    }
    return (await sessionOrganizations(this.db, [place.id])).get(place.id);
  },
};

/** Organizations of room and board sessions, by session id. */
async function sessionOrganizations(db: Db, sessionIds: string[]): Promise<Map<string, string>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('place_sessions')
    .leftJoin('rooms', (join) => join.onRef('rooms.id', '=', 'place_sessions.place_id').on('place_sessions.place_kind', '=', 'room'))
    .leftJoin('spaces', (join) => join.onRef('spaces.id', '=', 'place_sessions.place_id').on('place_sessions.place_kind', '=', 'board'))
    .select(['place_sessions.id', 'rooms.organization_id as room_org', 'spaces.organization_id as space_org'])
    .where('place_sessions.id', 'in', sessionIds)
    .execute();
  const result = new Map<string, string>();
  for (const r of rows) {
    const org = r.room_org ?? r.space_org;
    if (org) result.set(r.id, org);
  }
  return result;
}

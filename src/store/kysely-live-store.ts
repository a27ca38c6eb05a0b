/**
 * @module store/kysely-live-store
 * `LiveStore` on SQLite and PostgreSQL, in Kysely.
 *
 * Concurrency argument (PostgreSQL, READ COMMITTED; SQLite serializes all
 * writes anyway):
 * - Entering a meeting first runs `UPDATE meetings SET closes_at = NULL
 *   WHERE <still open>`; that takes the meeting row's lock and fails when
 *   the sweeper got there first. The sweeper's close is the opposite
 *   condition (`closes_at <= now`) on the same row, so exactly one wins.
 * - Leaving deletes the presence row, then locks the meeting row (a no-op
 *   UPDATE) before counting who is left. A concurrent join holds that lock
 *   until it commits its presence row, so the count (a new statement, a new
 *   snapshot) sees it, and no deadline is set while someone is inside.
 * - Closing is `UPDATE … SET closed_at … WHERE closed_at IS NULL AND
 *   closes_at <= now RETURNING id`: a row is returned to one caller only.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { LiveClock, MediaState, Participant, PlaceRef, PlaceSession, SessionOwnerKind } from '../domain/presence.ts';
import type { Meeting } from '../domain/types.ts';
import type { LiveDatabase, PlaceSessionsTable, PresenceTable } from './live-schema.ts';
import type { LiveStore, NewParticipant, SlugPlace } from './live-store.ts';
import { rowToMeeting, toBool, toDateOrNull, toInt } from './mappers.ts';
import type { Database } from './schema.ts';

type Db = Kysely<LiveDatabase> | Transaction<LiveDatabase>;

export class KyselyLiveStore implements LiveStore {
  private readonly db: Kysely<LiveDatabase>;

  constructor(db: Kysely<Database>) {
    // Same connection, wider typings: the tables of migration 002.
    this.db = db as unknown as Kysely<LiveDatabase>;
  }

  async heartbeat(instanceId: string, at: Date): Promise<boolean> {
    const ms = at.getTime();
    const updated = await this.db.updateTable('instances').set({ seen_at: ms }).where('id', '=', instanceId).executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return true;
    await this.db
      .insertInto('instances')
      .values({ id: instanceId, started_at: ms, seen_at: ms })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: ms }))
      .execute();
    return false;
  }

  async enterMeeting(meetingId: string, participant: NewParticipant, at: Date): Promise<boolean> {
    const ms = at.getTime();
    return this.db.transaction().execute(async (trx) => {
      const opened = await trx
        .updateTable('meetings')
        .set({ closes_at: null })
        .where('id', '=', meetingId)
        .where('deleted_at', 'is', null)
        .where('closed_at', 'is', null)
        .where((eb) => eb.or([eb('closes_at', 'is', null), eb('closes_at', '>', ms)]))
        .executeTakeFirst();
      if (Number(opened.numUpdatedRows) === 0) return false;
      await trx.insertInto('presence').values(presenceRow(participant, { kind: 'meeting', id: meetingId })).execute();
      return true;
    });
  }

  async enterSession(
    ownerKind: SessionOwnerKind,
    ownerId: string,
    participant: NewParticipant,
    at: Date,
  ): Promise<PlaceSession> {
    const ms = at.getTime();
    // Two first visitors may both try to start a session; the partial
    // unique index lets one insert win and the other retries and joins it.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          // A session past its deadline is over even if no sweeper has run yet.
          await trx
            .updateTable('place_sessions')
            .set({ closed_at: sql<number>`closes_at` })
            .where('place_kind', '=', ownerKind)
            .where('place_id', '=', ownerId)
            .where('closed_at', 'is', null)
            .where('closes_at', 'is not', null)
            .where('closes_at', '<=', ms)
            .execute();
          let row = await trx
            .updateTable('place_sessions')
            .set({ closes_at: null })
            .where('place_kind', '=', ownerKind)
            .where('place_id', '=', ownerId)
            .where('closed_at', 'is', null)
            .returningAll()
            .executeTakeFirst();
          if (!row) {
            row = { id: randomUUID(), place_kind: ownerKind, place_id: ownerId, started_at: ms, closes_at: null, closed_at: null };
            await trx.insertInto('place_sessions').values(row).execute();
          }
          await trx.insertInto('presence').values(presenceRow(participant, { kind: 'session', id: row.id })).execute();
          return rowToSession(row);
        });
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
  }

  async leave(connectionId: string, clock: LiveClock): Promise<PlaceRef | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('presence')
        .where('connection_id', '=', connectionId)
        .returning(['place_kind', 'place_id'])
        .executeTakeFirst();
      if (!row) return undefined;
      const place = toPlace(row);
      await releaseIfEmpty(trx, place, clock.at.getTime() + clock.idleMs, clock.staleBefore.getTime());
      return place;
    });
  }

  async setMedia(connectionId: string, media: MediaState): Promise<void> {
    await this.db
      .updateTable('presence')
      .set({ audio: toInt(media.audio), video: toInt(media.video), screen: toInt(media.screen) })
      .where('connection_id', '=', connectionId)
      .execute();
  }

  async listPresent(place: PlaceRef, staleBefore: Date): Promise<Participant[]> {
    const rows = await this.db
      .selectFrom('presence')
      .innerJoin('instances', 'instances.id', 'presence.instance_id')
      .selectAll('presence')
      .where('presence.place_kind', '=', place.kind)
      .where('presence.place_id', '=', place.id)
      .where('instances.seen_at', '>=', staleBefore.getTime())
      .orderBy('presence.joined_at')
      .orderBy('presence.connection_id')
      .execute();
    return rows.map(rowToParticipant);
  }

  async reapInstances(clock: LiveClock): Promise<PlaceRef[]> {
    const dead = await this.db
      .selectFrom('instances')
      .select(['id', 'seen_at'])
      .where('seen_at', '<', clock.staleBefore.getTime())
      .execute();
    // Presence rows whose instance row is gone altogether (never expected, but cheap to heal).
    const orphans = await this.db
      .selectFrom('presence')
      .select('instance_id')
      .distinct()
      .where((eb) => eb.not(eb.exists(eb.selectFrom('instances').select('id').whereRef('instances.id', '=', 'presence.instance_id'))))
      .execute();
    const changed: PlaceRef[] = [];
    const staleBefore = clock.staleBefore.getTime();
    for (const instance of dead) {
      const lastSeen = Number(instance.seen_at);
      changed.push(...(await this.dropInstance(instance.id, lastSeen + clock.idleMs, staleBefore, staleBefore)));
    }
    for (const orphan of orphans) {
      changed.push(...(await this.dropInstance(orphan.instance_id, clock.at.getTime() + clock.idleMs, staleBefore)));
    }
    return uniquePlaces(changed);
  }

  async removeInstance(instanceId: string, clock: LiveClock): Promise<PlaceRef[]> {
    return this.dropInstance(instanceId, clock.at.getTime() + clock.idleMs, clock.staleBefore.getTime());
  }

  /**
   * Deletes an instance and its presence and releases its places. With
   * `onlyIfSeenBefore`, does nothing unless the instance row is still stale:
   * it may have beaten again, or another instance may have reaped it first.
   */
  private async dropInstance(instanceId: string, deadline: number, staleBefore: number, onlyIfSeenBefore?: number): Promise<PlaceRef[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx.deleteFrom('instances').where('id', '=', instanceId);
      if (onlyIfSeenBefore !== undefined) query = query.where('seen_at', '<', onlyIfSeenBefore);
      const removed = await query.executeTakeFirst();
      if (onlyIfSeenBefore !== undefined && Number(removed.numDeletedRows) === 0) return [];
      const rows = await trx
        .deleteFrom('presence')
        .where('instance_id', '=', instanceId)
        .returning(['place_kind', 'place_id'])
        .execute();
      const places = uniquePlaces(rows.map(toPlace));
      for (const place of places) await releaseIfEmpty(trx, place, deadline, staleBefore);
      return places;
    });
  }

  async closeDue(at: Date): Promise<PlaceRef[]> {
    const ms = at.getTime();
    const meetings = await this.db
      .updateTable('meetings')
      // Closed when the deadline passed, not when a sweeper happened to notice.
      .set({ closed_at: sql<number>`closes_at` })
      .where('closed_at', 'is', null)
      .where('deleted_at', 'is', null)
      .where('closes_at', 'is not', null)
      .where('closes_at', '<=', ms)
      .returning('id')
      .execute();
    const sessions = await this.db
      .updateTable('place_sessions')
      .set({ closed_at: sql<number>`closes_at` })
      .where('closed_at', 'is', null)
      .where('closes_at', 'is not', null)
      .where('closes_at', '<=', ms)
      .returning('id')
      .execute();
    return [
      ...meetings.map((m) => ({ kind: 'meeting' as const, id: m.id })),
      ...sessions.map((s) => ({ kind: 'session' as const, id: s.id })),
    ];
  }

  async endedPlaces(places: PlaceRef[], at: Date): Promise<PlaceRef[]> {
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
  }

  async findMeetingRecord(by: { id: string } | { shortCode: string }): Promise<Meeting | undefined> {
    let query = this.db.selectFrom('meetings').selectAll();
    query = 'id' in by ? query.where('id', '=', by.id) : query.where('short_code', '=', by.shortCode);
    const row = await query.executeTakeFirst();
    return row && rowToMeeting(row);
  }

  async findSession(id: string): Promise<PlaceSession | undefined> {
    const row = await this.db.selectFrom('place_sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && rowToSession(row);
  }

  async findSlugPlace(slug: string): Promise<SlugPlace | undefined> {
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
  }
}

/**
 * Gives `place` the deadline `deadline` when nobody is present there on a
 * live instance. Locks the place's row first (see the module comment).
 */
async function releaseIfEmpty(trx: Db, place: PlaceRef, deadline: number, staleBefore: number): Promise<void> {
  if (place.kind === 'meeting') {
    await trx.updateTable('meetings').set({ closes_at: sql<number | null>`closes_at` }).where('id', '=', place.id).execute();
  } else {
    await trx.updateTable('place_sessions').set({ closes_at: sql<number | null>`closes_at` }).where('id', '=', place.id).execute();
  }
  const present = await trx
    .selectFrom('presence')
    .innerJoin('instances', 'instances.id', 'presence.instance_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('presence.place_kind', '=', place.kind)
    .where('presence.place_id', '=', place.id)
    .where('instances.seen_at', '>=', staleBefore)
    .executeTakeFirstOrThrow();
  if (Number(present.n) > 0) return;
  if (place.kind === 'meeting') {
    await trx
      .updateTable('meetings')
      .set({ closes_at: deadline })
      .where('id', '=', place.id)
      .where('closes_at', 'is', null)
      .where('closed_at', 'is', null)
      .where('deleted_at', 'is', null)
      .where('is_infinite', '=', 0)
      .execute();
  } else {
    await trx
      .updateTable('place_sessions')
      .set({ closes_at: deadline })
      .where('id', '=', place.id)
      .where('closes_at', 'is', null)
      .where('closed_at', 'is', null)
      .execute();
  }
}

function presenceRow(p: NewParticipant, place: PlaceRef): PresenceTable {
  return {
    connection_id: p.id,
    instance_id: p.instanceId,
    place_kind: place.kind,
    place_id: place.id,
    display_name: p.displayName,
    audio: toInt(p.audio),
    video: toInt(p.video),
    screen: toInt(p.screen),
    joined_at: p.joinedAt.getTime(),
  };
}

function rowToParticipant(r: PresenceTable): Participant {
  return {
    id: r.connection_id,
    instanceId: r.instance_id,
    place: toPlace(r),
    displayName: r.display_name,
    audio: toBool(r.audio),
    video: toBool(r.video),
    screen: toBool(r.screen),
    joinedAt: new Date(Number(r.joined_at)),
  };
}

function rowToSession(r: PlaceSessionsTable): PlaceSession {
  return {
    id: r.id,
    ownerKind: r.place_kind,
    ownerId: r.place_id,
    startedAt: new Date(Number(r.started_at)),
    closesAt: toDateOrNull(r.closes_at),
    closedAt: toDateOrNull(r.closed_at),
  };
}

function toPlace(r: { place_kind: string; place_id: string }): PlaceRef {
  return { kind: r.place_kind === 'session' ? 'session' : 'meeting', id: r.place_id };
}

function uniquePlaces(places: PlaceRef[]): PlaceRef[] {
  const seen = new Map<string, PlaceRef>();
  for (const p of places) seen.set(`${p.kind}:${p.id}`, p);
  return [...seen.values()];
}

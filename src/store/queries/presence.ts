/**
 * @module store/queries/presence
 * Who is where, shared by every instance: instances and their heartbeats,
 * participants entering and leaving meetings and room sessions, and the
 * deadlines that leaving sets.
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
 * - Two first visitors of a room may both start a session: the partial
 *   unique index on open sessions lets one insert land, the other's insert
 *   does nothing (after waiting for the first to commit), and both then
 *   join the one open session.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { LiveStore, NewParticipant, RemovedPresence } from '../../domain/place-ports.ts';
import type { MediaState, Participant, PlaceRef, PlaceSession } from '../../domain/presence.ts';
import { toBool, toDateOrNull, toInt } from '../mappers.ts';
import type { PlaceSessionsTable, PresenceTable } from '../schema.ts';
import { atomically, type Db, type QueryContext } from './db.ts';

export type PresenceQueries = Pick<
  LiveStore,
  'heartbeat' | 'enterMeeting' | 'enterSession' | 'leave' | 'setMedia' | 'dropHost' | 'listPresent' | 'reapInstances' | 'removeInstance'
>;

export const presenceQueries: PresenceQueries & ThisType<QueryContext> = {
  async heartbeat(instanceId, at) {
    const ms = at.getTime();
    const updated = await this.db.updateTable('instances').set({ seen_at: ms }).where('id', '=', instanceId).executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return true;
    await this.db
      .insertInto('instances')
      .values({ id: instanceId, started_at: ms, seen_at: ms })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: ms }))
      .execute();
    return false;
  },

  async enterMeeting(meetingId, participant, at) {
    const ms = at.getTime();
    return atomically(this.db, async (trx) => {
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
  },

  async enterSession(ownerKind, ownerId, participant, at) {
    const ms = at.getTime();
    return atomically(this.db, async (trx) => {
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
      const fresh = { id: randomUUID(), place_kind: ownerKind, place_id: ownerId, started_at: ms, closes_at: null, closed_at: null };
      await trx
        .insertInto('place_sessions')
        .values(fresh)
        .onConflict((oc) => oc.columns(['place_kind', 'place_id']).where('closed_at', 'is', null).doNothing())
        .execute();
      const row = await trx
        .updateTable('place_sessions')
        .set({ closes_at: null })
        .where('place_kind', '=', ownerKind)
        .where('place_id', '=', ownerId)
        .where('closed_at', 'is', null)
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx.insertInto('presence').values(presenceRow(participant, { kind: 'session', id: row.id })).execute();
      return rowToSession(row);
    });
  },

  async leave(connectionId, clock) {
    return atomically(this.db, async (trx) => {
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
  },

  async setMedia(connectionId, media: MediaState) {
    await this.db
      .updateTable('presence')
      .set({ audio: toInt(media.audio), video: toInt(media.video), screen: toInt(media.screen) })
      .where('connection_id', '=', connectionId)
      .execute();
  },

  async dropHost(connectionId) {
    await this.db.updateTable('presence').set({ is_host: 0 }).where('connection_id', '=', connectionId).execute();
  },

  async listPresent(place, staleBefore) {
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
  },

  async reapInstances(clock) {
    const dead = await this.db.selectFrom('instances').select(['id', 'seen_at']).where('seen_at', '<', clock.staleBefore.getTime()).execute();
    // Presence rows whose instance row is gone altogether (never expected, but cheap to heal).
    const orphans = await this.db
      .selectFrom('presence')
      .select('instance_id')
      .distinct()
      .where((eb) => eb.not(eb.exists(eb.selectFrom('instances').select('id').whereRef('instances.id', '=', 'presence.instance_id'))))
      .execute();
    const removed: RemovedPresence[] = [];
    const staleBefore = clock.staleBefore.getTime();
    for (const instance of dead) {
      const lastSeen = Number(instance.seen_at);
      removed.push(...(await dropInstance(this.db, instance.id, lastSeen + clock.idleMs, staleBefore, staleBefore)));
    }
    for (const orphan of orphans) {
      removed.push(...(await dropInstance(this.db, orphan.instance_id, clock.at.getTime() + clock.idleMs, staleBefore)));
    }
    return removed;
  },

  async removeInstance(instanceId, clock) {
    return dropInstance(this.db, instanceId, clock.at.getTime() + clock.idleMs, clock.staleBefore.getTime());
  },
};

/**
 * Deletes an instance and its presence and releases its places. With
 * `onlyIfSeenBefore`, does nothing unless the instance row is still stale:
 * it may have beaten again, or another instance may have reaped it first.
 */
function dropInstance(db: Db, instanceId: string, deadline: number, staleBefore: number, onlyIfSeenBefore?: number): Promise<RemovedPresence[]> {
  return atomically(db, async (trx) => {
    let query = trx.deleteFrom('instances').where('id', '=', instanceId);
    if (onlyIfSeenBefore !== undefined) query = query.where('seen_at', '<', onlyIfSeenBefore);
    const removed = await query.executeTakeFirst();
    if (onlyIfSeenBefore !== undefined && Number(removed.numDeletedRows) === 0) return [];
    const rows = await trx
      .deleteFrom('presence')
      .where('instance_id', '=', instanceId)
      .returning(['connection_id', 'place_kind', 'place_id'])
      .execute();
    // Knocks held by the instance went with it (the lists already leave them out).
    await trx.deleteFrom('meeting_knocks').where('instance_id', '=', instanceId).execute();
    const gone = rows.map((r) => ({ connectionId: r.connection_id, place: toPlace(r) }));
    for (const place of uniquePlaces(gone.map((g) => g.place))) await releaseIfEmpty(trx, place, deadline, staleBefore);
    return gone;
  });
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
    is_host: toInt(p.host),
    guest_key: p.guestKey,
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
    host: toBool(r.is_host),
    guestKey: r.guest_key,
  };
}

export function rowToSession(r: PlaceSessionsTable): PlaceSession {
  return {
    id: r.id,
    ownerKind: r.place_kind,
    ownerId: r.place_id,
    startedAt: new Date(Number(r.started_at)),
    closesAt: toDateOrNull(r.closes_at),
    closedAt: toDateOrNull(r.closed_at),
  };
}

export function toPlace(r: { place_kind: string; place_id: string }): PlaceRef {
  return { kind: r.place_kind === 'session' ? 'session' : 'meeting', id: r.place_id };
}

function uniquePlaces(places: PlaceRef[]): PlaceRef[] {
  const seen = new Map<string, PlaceRef>();
  for (const p of places) seen.set(`${p.kind}:${p.id}`, p);
  return [...seen.values()];
}

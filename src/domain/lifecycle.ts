/**
 * @module domain/lifecycle
 * The spec's "States and transitions", made real:
 *
 * | state | trigger                                   | next   |
 * |-------|-------------------------------------------|--------|
 * | open  | idle time after creation, nobody joined   | closed |
 * | open  | idle time after the last participant left | closed |
 * | open  | v3 MEETING with isInfinite                | open   |
 *
 * Deadlines live in the database (`closes_at`): creation sets one (see
 * meetings.ts), the first participant clears it, the last one leaving sets
 * it again (see places.ts), and a sweeper in every instance closes what is
 * due, raising `meeting.ended` (reason `closed`) as a delete raises it
 * (reason `deleted`). A meeting whose deadline has passed counts as closed
 * even before a sweeper runs, so nothing depends on timers surviving a
 * restart. Rooms (and boards without a waiting list) follow the same
 * timing per session.
 */
import { raise, transact, type DomainContext } from './context.ts';
import type { HostingPorts } from './hosting-ports.ts';
import type { PlacePorts, RemovedPresence } from './place-ports.ts';
import type { Store } from './ports/store.ts';
import type { Transactional } from './ports/transactional.ts';
import type { LiveClock, PlaceRef } from './presence.ts';
import type { Meeting } from './types.ts';

export type MeetingState = 'open' | 'closed' | 'deleted';

export function meetingState(meeting: Meeting, now: Date): MeetingState {
  if (meeting.deletedAt) return 'deleted';
  if (meeting.closedAt) return 'closed';
  if (meeting.closesAt && meeting.closesAt.getTime() <= now.getTime()) return 'closed';
  return 'open';
}

/**
 * The domain context of an instance that holds live connections; `S` is
 * the storage its command may touch, as for `DomainContext`.
 */
export interface LiveContext<S extends Transactional = Store> extends DomainContext<S> {
  /** This process's id in the `instances` table. */
  instanceId: string;
  /** An instance not heard from for this long is gone, with its participants. */
  instanceTtlMs: number;
}

export function liveContext<S extends Transactional>(ctx: DomainContext<S>, instance: { instanceId: string; instanceTtlMs: number }): LiveContext<S> {
  return { ...ctx, instanceId: instance.instanceId, instanceTtlMs: instance.instanceTtlMs };
}

export function liveClock(ctx: Pick<LiveContext<Transactional>, 'now' | 'idleCloseSeconds' | 'instanceTtlMs'>): LiveClock {
  const at = ctx.now();
  return { at, idleMs: ctx.idleCloseSeconds * 1000, staleBefore: new Date(at.getTime() - ctx.instanceTtlMs) };
}

export interface SweepResult {
  /** False when this instance had been reaped as dead: its connections must rejoin. */
  instanceKnown: boolean;
  /** Places that lost participants of a dead instance. */
  changed: PlaceRef[];
  /** Meetings and sessions this sweep closed (each closed by exactly one instance). */
  closed: PlaceRef[];
}

/**
 * One round of the lifecycle sweeper, run by every instance: heartbeat,
 * reap instances that stopped heartbeating, close what is due.
 */
export async function sweep(ctx: LiveContext<PlacePorts & HostingPorts>): Promise<SweepResult> {
  const clock = liveClock(ctx);
  const instanceKnown = await ctx.store.live.heartbeat(ctx.instanceId, clock.at);
  const changed = await transact(ctx, async (tx) => departed(tx, await tx.store.live.reapInstances(clock), clock.at));
  // Someone knocking at a locked meeting is there, waiting: the idle rule must not close it under them.
  await ctx.store.holdOpenWhileKnocking(clock.at, new Date(clock.at.getTime() + clock.idleMs), clock.staleBefore);
  const closed = await transact(ctx, async (tx) => {
    const due = await tx.store.live.closeDue(clock.at);
    for (const { place, organizationId } of due) {
      raise(
        tx,
        place.kind === 'meeting'
          ? { type: 'meeting.ended', organizationId, meetingId: place.id, reason: 'closed', at: clock.at }
          : { type: 'room.session.ended', organizationId, sessionId: place.id, at: clock.at },
      );
    }
    return due.map((d) => d.place);
  });
  return { instanceKnown, changed, closed };
}

/** A clean shutdown: this instance's participants leave now. Returns the places they left. */
export async function retireInstance(ctx: LiveContext<PlacePorts>): Promise<PlaceRef[]> {
  const clock = liveClock(ctx);
  return transact(ctx, async (tx) => departed(tx, await tx.store.live.removeInstance(ctx.instanceId, clock), clock.at));
}

/** Raises `participant.left` for participants the store removed; returns their places, once each. */
async function departed(ctx: DomainContext<PlacePorts>, removed: RemovedPresence[], at: Date): Promise<PlaceRef[]> {
  const places = new Map<string, { place: PlaceRef; organizationId: string | undefined }>();
  for (const { connectionId, place } of removed) {
    const key = `${place.kind}:${place.id}`;
    let entry = places.get(key);
    if (!entry) {
      entry = { place, organizationId: await ctx.store.live.findPlaceOrganization(place) };
      places.set(key, entry);
    }
    if (entry.organizationId) raise(ctx, { type: 'participant.left', organizationId: entry.organizationId, place, participantId: connectionId, at });
  }
  return [...places.values()].map((p) => p.place);
}

/**
 * Of the places this instance has connections in, those that ended
 * elsewhere (closed or deleted by another instance): the safety net behind
 * the bus, so they end here within one sweep even without Redis.
 */
export async function endedElsewhere(ctx: LiveContext<PlacePorts>, places: PlaceRef[]): Promise<Array<{ place: PlaceRef; reason: 'closed' | 'deleted' }>> {
  if (places.length === 0) return [];
  const ended = await ctx.store.live.endedPlaces(places, ctx.now());
  const result: Array<{ place: PlaceRef; reason: 'closed' | 'deleted' }> = [];
  for (const place of ended) {
    let reason: 'closed' | 'deleted' = 'closed';
    if (place.kind === 'meeting') {
      const meeting = await ctx.store.live.findMeetingRecord({ id: place.id });
      if (meeting?.deletedAt) reason = 'deleted';
    }
    result.push({ place, reason });
  }
  return result;
}

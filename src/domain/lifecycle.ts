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
 * it again, and a sweeper in every instance closes what is due. A meeting
 * whose deadline has passed counts as closed even before a sweeper runs,
 * so nothing depends on timers surviving a restart. Rooms (and boards
 * without a waiting list) follow the same timing per session.
 */
import type { DomainContext } from './context.ts';
import { ValidationError } from './errors.ts';
import { isUuidV4 } from './ids.ts';
import type { LiveClock, MediaState, Participant, PlaceRef } from './presence.ts';
import type { Meeting } from './types.ts';

export type MeetingState = 'open' | 'closed' | 'deleted';

export function meetingState(meeting: Meeting, now: Date): MeetingState {
  if (meeting.deletedAt) return 'deleted';
  if (meeting.closedAt) return 'closed';
  if (meeting.closesAt && meeting.closesAt.getTime() <= now.getTime()) return 'closed';
  return 'open';
}

/** What the realtime layer adds to the domain context. */
export interface LiveContext extends DomainContext {
  /** This process's id in the `instances` table. */
  instanceId: string;
  /** An instance not heard from for this long is gone, with its participants. */
  instanceTtlMs: number;
}

export function liveClock(ctx: LiveContext): LiveClock {
  const at = ctx.now();
  return { at, idleMs: ctx.idleCloseSeconds * 1000, staleBefore: new Date(at.getTime() - ctx.instanceTtlMs) };
}

export const DISPLAY_NAME_MAX = 64;

/** Trimmed, 1 to 64 characters, no control characters. */
export function checkDisplayName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '';
  // eslint-disable-next-line no-control-regex
  if (name.length === 0 || [...name].length > DISPLAY_NAME_MAX || /[\u0000-\u001f\u007f]/.test(name)) {
    throw ValidationError.field('name', `A display name has 1 to ${DISPLAY_NAME_MAX} characters.`);
  }
  return name;
}

/** Where a participant asks to go: a meeting by id, or a room or board by slug. */
export type JoinTarget = { meetingId: string } | { slug: string };

export type JoinRefusal = 'not_found' | 'closed' | 'deleted' | 'inactive' | 'waiting_list';

export type JoinResult =
  | { ok: true; participant: Participant; place: PlaceRef; title: string | null }
  | { ok: false; reason: JoinRefusal };

export interface Joiner extends MediaState {
  /** The connection's id, unique across instances. */
  id: string;
  displayName: string;
}

/** Adds a participant to a meeting or to a room's current session (starting one if needed). */
export async function enterPlace(ctx: LiveContext, target: JoinTarget, joiner: Joiner): Promise<JoinResult> {
  const at = ctx.now();
  const participant = { ...joiner, instanceId: ctx.instanceId, joinedAt: at };
  const live = ctx.store.live;

  if ('meetingId' in target) {
    const id = target.meetingId.toLowerCase();
    const meeting = isUuidV4(id) ? await live.findMeetingRecord({ id }) : undefined;
    if (!meeting) return { ok: false, reason: 'not_found' };
    const state = meetingState(meeting, at);
    if (state !== 'open') return { ok: false, reason: state };
    if (!(await live.enterMeeting(id, participant, at))) {
      // Closed or deleted between the read and the write.
      const now = await live.findMeetingRecord({ id });
      return { ok: false, reason: now?.deletedAt ? 'deleted' : 'closed' };
    }
    const place: PlaceRef = { kind: 'meeting', id };
    return { ok: true, participant: { ...participant, place }, place, title: null };
  }

  const found = await live.findSlugPlace(target.slug);
  if (!found) return { ok: false, reason: 'not_found' };
  if (found.kind === 'queue' || (found.kind === 'board' && found.hasWaitingList)) return { ok: false, reason: 'waiting_list' };
  if (found.kind === 'board' && !found.isActive) return { ok: false, reason: 'inactive' };
  const session = await live.enterSession(found.kind, found.id, participant, at);
  const place: PlaceRef = { kind: 'session', id: session.id };
  const title = found.kind === 'room' ? found.title : found.name;
  return { ok: true, participant: { ...participant, place }, place, title };
}

/** Removes a participant; the place gets its deadline when it is now empty everywhere. */
export async function leavePlace(ctx: LiveContext, connectionId: string): Promise<PlaceRef | undefined> {
  return ctx.store.live.leave(connectionId, liveClock(ctx));
}

export async function participantsOf(ctx: LiveContext, place: PlaceRef): Promise<Participant[]> {
  return ctx.store.live.listPresent(place, liveClock(ctx).staleBefore);
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
export async function sweep(ctx: LiveContext): Promise<SweepResult> {
  const clock = liveClock(ctx);
  const live = ctx.store.live;
  const instanceKnown = await live.heartbeat(ctx.instanceId, clock.at);
  const changed = await live.reapInstances(clock);
  const closed = await live.closeDue(clock.at);
  return { instanceKnown, changed, closed };
}

/** A clean shutdown: this instance's participants leave now. */
export async function retireInstance(ctx: LiveContext): Promise<PlaceRef[]> {
  return ctx.store.live.removeInstance(ctx.instanceId, liveClock(ctx));
}

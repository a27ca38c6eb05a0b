/**
 * @module domain/waiting/calls
 * The private call between a member and the client they took: it starts
 * when the member joins it (their `joinedCallAt` is set), and ends when
 * either hangs up, when the client leaves, or when the member is gone
 * (their console and the call both away past the grace period, or a
 * reservation they never took up) — then the client goes back to the
 * front of the line rather than being lost.
 */
import type { Actor } from '../actors.ts';
import { raise, transact, type DomainContext } from '../context.ts';
import type { MeetingPorts } from '../meeting-ports.ts';
import { endMeeting } from '../meetings.ts';
import type { WaitingListPorts } from './ports.ts';
import type { WaitingEntry } from './types.ts';

export type CallEnding = 'hung_up' | 'client_left' | 'client_gone' | 'member_gone' | 'deleted';

/** Which state an entry ends in, by why its call ended. */
const FINAL: Record<CallEnding, 'served' | 'left' | 'waiting' | 'closed'> = {
  hung_up: 'served',
  client_left: 'left',
  client_gone: 'left',
  member_gone: 'waiting',
  deleted: 'closed',
};

/**
 * Ends the call (or reservation) of `entry`: frees the member, closes the
 * private meeting for both, and puts the entry where `why` says. Does
 * nothing when someone else ended it first.
 */
export async function endCall(ctx: DomainContext<WaitingListPorts & MeetingPorts>, entry: WaitingEntry, why: CallEnding): Promise<WaitingEntry | undefined> {
  const at = ctx.now();
  const next = FINAL[why];
  const ended = await transact(ctx, async (tx) => {
    const change =
      next === 'waiting'
        ? { state: next, servedBy: null, meetingId: null, reservedUntil: null, acceptedAt: null, callStartedAt: null }
        : { state: next, outcome: why, endedAt: at, reservedUntil: null };
    const changed = await tx.store.updateWaitingEntry(entry.id, { from: ['reserved', 'in_call'] }, change);
    if (!changed) return undefined;
    if (entry.servedBy) await tx.store.releaseMember(entry.spaceId, entry.servedBy, entry.id);
    if (next !== 'waiting' && why !== 'member_gone') {
      raise(tx, { type: 'waiting.client.left', organizationId: changed.organizationId, spaceId: changed.spaceId, entryId: changed.id, state: next, outcome: why, at });
    }
    raise(tx, { type: 'waiting.changed', organizationId: changed.organizationId, spaceId: changed.spaceId, at });
    return changed;
  });
  if (ended && entry.meetingId) await endMeeting(ctx, entry.meetingId);
  return ended;
}

/**
 * A member joined the meeting of a client they reserved: the call has
 * started. Only the member who took the client counts; anyone else joining
 * (the client, a stray link) changes nothing.
 */
export async function memberJoinedCall(ctx: DomainContext<WaitingListPorts>, actor: Actor, meetingId: string): Promise<WaitingEntry | undefined> {
  if (actor.kind !== 'member') return undefined;
  const entry = await ctx.store.findWaitingEntryByMeeting(meetingId);
  if (!entry || entry.servedBy !== actor.user.id) return undefined;
  const at = ctx.now();
  return transact(ctx, async (tx) => {
    // A rejoin (a reload, a new network) during the call also clears a pending "member gone" deadline.
    const started = await tx.store.updateWaitingEntry(
      entry.id,
      { from: ['reserved', 'in_call'] },
      entry.state === 'in_call' ? { reservedUntil: null } : { state: 'in_call', callStartedAt: at, reservedUntil: null },
    );
    if (!started) return undefined;
    if (entry.state === 'reserved') await tx.store.setMemberCallStarted(entry.spaceId, actor.user.id, at);
    raise(tx, { type: 'waiting.changed', organizationId: started.organizationId, spaceId: started.spaceId, at });
    return started;
  });
}

/** Either side hung up the call of `meetingId` (a waiting-list call); other meetings are not affected. */
export async function hangUp(ctx: DomainContext<WaitingListPorts & MeetingPorts>, meetingId: string): Promise<WaitingEntry | undefined> {
  const entry = await ctx.store.findWaitingEntryByMeeting(meetingId);
  return entry && endCall(ctx, entry, 'hung_up');
}

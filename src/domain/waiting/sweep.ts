/**
 * @module domain/waiting/sweep
 * The waiting lists' part of the lifecycle sweep, run by every instance
 * (each step is a conditional update, so running it twice changes nothing
 * twice):
 * - clients whose instance stopped are disconnected (their grace starts);
 * - consoles of stopped instances are closed;
 * - a reservation that lapsed, or a call whose member stayed away past the
 *   grace period, hands the client back to the front of the line;
 * - a client away past the grace period leaves (a waiting client is
 *   removed, a call they were in ends);
 * - a place whose page never answered within UNANSWERED_SECONDS ends;
 * - free auto-accepting members are given the next client.
 */
import { liveClock, type LiveContext } from '../lifecycle.ts';
import type { MeetingPorts } from '../meeting-ports.ts';
import type { MemberPorts } from '../member-ports.ts';
import type { PlacePorts } from '../place-ports.ts';
import { removeFromLine, UNANSWERED_SECONDS } from './arrival.ts';
import { endCall } from './calls.ts';
import { reapConsoles } from './consoles.ts';
import type { WaitingListPorts } from './ports.ts';
import { dispatchAutoAccept, type Assignment } from './serving.ts';

export async function sweepWaiting(ctx: LiveContext<WaitingListPorts & MeetingPorts & MemberPorts & PlacePorts>): Promise<Assignment[]> {
  const { at, staleBefore } = liveClock(ctx);
  await ctx.store.disconnectStaleEntries(staleBefore, at);
  await reapConsoles(ctx);
  for (const entry of await ctx.store.listLapsedReservations(at)) await endCall(ctx, entry, 'member_gone');
  const graceStart = new Date(at.getTime() - ctx.waiting.graceSeconds * 1000);
  for (const entry of await ctx.store.listAbandonedEntries(graceStart)) {
    if (entry.state === 'waiting') await removeFromLine(ctx, entry, 'left', 'grace_expired');
    else await endCall(ctx, entry, 'client_gone');
  }
  for (const entry of await ctx.store.listUnansweredEntries(new Date(at.getTime() - UNANSWERED_SECONDS * 1000))) {
    await removeFromLine(ctx, entry, 'left', 'unanswered');
  }
  const assignments: Assignment[] = [];
  for (const { spaceId, organizationId } of await ctx.store.listSpacesWithWaiting()) {
    assignments.push(...(await dispatchAutoAccept(ctx, organizationId, spaceId)));
  }
  return assignments;
}

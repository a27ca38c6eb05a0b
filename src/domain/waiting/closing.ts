/**
 * @module domain/waiting/closing
 * What happens to a waiting list when its board or queue changes under it:
 * deactivated, its waiting clients are told and their wait ends (calls in
 * progress go on); deleted, every wait and call ends; a member removed,
 * the client they had reserved or were with goes back to the front.
 */
import type { DomainContext } from '../context.ts';
import type { MeetingPorts } from '../meeting-ports.ts';
import type { Space } from '../types.ts';
import { removeFromLine } from './arrival.ts';
import { endCall } from './calls.ts';
import type { WaitingListPorts } from './ports.ts';
import { ACTIVE_STATES } from './types.ts';

export async function closeLine(ctx: DomainContext<WaitingListPorts & MeetingPorts>, space: Space, why: 'deactivated' | 'deleted'): Promise<void> {
  for (const entry of await ctx.store.listWaitingEntries(space.id, why === 'deleted' ? ACTIVE_STATES : ['waiting'])) {
    if (entry.state === 'waiting') await removeFromLine(ctx, entry, 'closed', why);
    else await endCall(ctx, entry, 'deleted');
  }
}

export async function membersRemoved(ctx: DomainContext<WaitingListPorts & MeetingPorts>, space: Space, userIds: readonly string[]): Promise<void> {
  for (const userId of userIds) {
    const current = await ctx.store.memberCurrentEntry(space.id, userId);
    const entry = current ? await ctx.store.findWaitingEntry(current) : undefined;
    if (entry) await endCall(ctx, entry, 'member_gone');
  }
}

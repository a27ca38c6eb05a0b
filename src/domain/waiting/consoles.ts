/**
 * @module domain/waiting/consoles
 * Members online: a member's console for a board or queue is open while
 * their page is connected. Closing the last console of a member who is in
 * a call (or has reserved a client) starts the grace period: if they are
 * not back in time, their client returns to the front of the line.
 */
import type { Actor } from '../actors.ts';
import { raise, transact } from '../context.ts';
import { liveClock, type LiveContext } from '../lifecycle.ts';
import type { Space, SpaceKind } from '../types.ts';
import type { WaitingListPorts } from './ports.ts';
import { servedSpace } from './serving.ts';
import type { MemberConsole } from './types.ts';

export async function openConsole(ctx: LiveContext<WaitingListPorts>, actor: Actor, kind: SpaceKind, spaceId: string, connectionId: string): Promise<Space> {
  const { space, member } = await servedSpace(ctx, actor, kind, spaceId);
  const at = ctx.now();
  await transact(ctx, async (tx) => {
    await tx.store.openConsole({
      connectionId,
      spaceId: space.id,
      organizationId: space.organizationId,
      userId: member.userId,
      instanceId: ctx.instanceId,
      openedAt: at,
    });
    // Back in time: a call they were in goes on.
    const current = await tx.store.memberCurrentEntry(space.id, member.userId);
    if (current) await tx.store.updateWaitingEntry(current, { from: ['in_call'] }, { reservedUntil: null });
    raise(tx, { type: 'waiting.changed', organizationId: space.organizationId, spaceId: space.id, at });
  });
  return space;
}

export async function closeConsole(ctx: LiveContext<WaitingListPorts>, connectionId: string): Promise<void> {
  const closed = await ctx.store.closeConsole(connectionId);
  if (closed) await memberAway(ctx, closed);
}

/** Consoles of instances that stopped heartbeating are closed like any other. */
export async function reapConsoles(ctx: LiveContext<WaitingListPorts>): Promise<void> {
  for (const gone of await ctx.store.reapConsoles(liveClock(ctx).staleBefore)) await memberAway(ctx, gone);
}

async function memberAway(ctx: LiveContext<WaitingListPorts>, gone: MemberConsole): Promise<void> {
  const at = ctx.now();
  const stillOnline = (await ctx.store.listConsoles(gone.spaceId, liveClock(ctx).staleBefore)).some((c) => c.userId === gone.userId);
  await transact(ctx, async (tx) => {
    const current = stillOnline ? null : await tx.store.memberCurrentEntry(gone.spaceId, gone.userId);
    const entry = current ? await tx.store.findWaitingEntry(current) : undefined;
    if (entry?.state === 'in_call' && !entry.reservedUntil) {
      await tx.store.updateWaitingEntry(entry.id, { from: ['in_call'] }, { reservedUntil: new Date(at.getTime() + tx.waiting.graceSeconds * 1000) });
    }
    raise(tx, { type: 'waiting.changed', organizationId: gone.organizationId, spaceId: gone.spaceId, at });
  });
}

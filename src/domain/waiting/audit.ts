/**
 * @module domain/waiting/audit
 * Who served whom, and when: a board's or queue's clients whose wait ended
 * recently, newest first, for the organization's administrators. The
 * waiting list keeps every ended entry (who took the client, when they were
 * taken, when the call started and ended, and how the wait ended), so the
 * audit is a reading of it, not a second record that could disagree.
 */
import type { Actor } from '../actors.ts';
import type { DomainContext } from '../context.ts';
import { authorize } from '../policies.ts';
import { getSpace } from '../spaces.ts';
import type { Space, SpaceKind } from '../types.ts';
import type { WaitingListPorts } from './ports.ts';
import type { WaitingState } from './types.ts';

const DAY_MS = 24 * 3_600_000;

export interface AuditEntry {
  id: string;
  clientName: string;
  state: WaitingState;
  /** How the wait ended, in a word (`hung_up`, `declined`, `grace_expired`, …). */
  outcome: string | null;
  arrivedAt: Date;
  servedBy: string | null;
  servedByName: string | null;
  acceptedAt: Date | null;
  callStartedAt: Date | null;
  endedAt: Date | null;
  message: string | null;
}

export async function waitingAudit(
  ctx: DomainContext<WaitingListPorts>,
  actor: Actor,
  kind: SpaceKind,
  id: string,
  { days = 30, limit = 200 }: { days?: number; limit?: number } = {},
): Promise<{ space: Space; entries: AuditEntry[] }> {
  authorize(actor, 'space.audit');
  const space = await getSpace(ctx, actor, kind, id);
  const ended = await ctx.store.listEndedWaitingEntries(space.id, new Date(ctx.now().getTime() - days * DAY_MS), limit);
  // Members removed since keep their name out of the list, not their part in it.
  const names = new Map(space.members.map((m) => [m.userId, m.fullName]));
  return {
    space,
    entries: ended.map((e) => ({
      id: e.id,
      clientName: e.displayName,
      state: e.state,
      outcome: e.outcome,
      arrivedAt: e.arrivedAt,
      servedBy: e.servedBy,
      servedByName: e.servedBy ? (names.get(e.servedBy) ?? null) : null,
      acceptedAt: e.acceptedAt,
      callStartedAt: e.callStartedAt,
      endedAt: e.endedAt,
      message: e.message,
    })),
  };
}

/**
 * @module domain/waiting/views
 * What the people of a waiting list see, from one snapshot of it: a client
 * their place ("you are number 3"), an honest estimate when there is
 * history for one, and whether anyone is available; a member the line, who
 * is online and busy, and their own client.
 *
 * The line counts only clients who are there or within the grace period,
 * in arrival order. Estimate: with at least five calls ended in the last
 * seven days, a client's wait is their place times the median call length
 * divided by the members available (online and active); otherwise none.
 */
import type { Actor } from '../actors.ts';
import { liveClock, type LiveContext } from '../lifecycle.ts';
import type { Space } from '../types.ts';
import type { WaitingListPorts } from './ports.ts';
import { ACTIVE_STATES, type Readiness, type WaitingEntry, type WaitingState } from './types.ts';

const HISTORY_MS = 7 * 24 * 3_600_000;
const MIN_HISTORY = 5;

export interface WaitingListSnapshot {
  space: Space;
  /** Active entries in line order. */
  entries: WaitingEntry[];
  /** Members with a console open. */
  online: Set<string>;
  /** Median call length, when there is history enough. */
  medianCallMs: number | null;
  at: Date;
  graceMs: number;
}

export async function waitingListSnapshot(ctx: LiveContext<WaitingListPorts>, organizationId: string, spaceId: string): Promise<WaitingListSnapshot | undefined> {
  const space = await ctx.store.findSpaceById(organizationId, spaceId);
  if (!space) return undefined;
  const clock = liveClock(ctx);
  const [entries, consoles, history] = await Promise.all([
    ctx.store.listWaitingEntries(spaceId, ACTIVE_STATES),
    ctx.store.listConsoles(spaceId, clock.staleBefore),
    ctx.store.listEndedWaitingEntries(spaceId, new Date(clock.at.getTime() - HISTORY_MS), 200),
  ]);
  const lengths = history
    .filter((e) => e.state === 'served' && e.callStartedAt && e.endedAt)
    .map((e) => e.endedAt!.getTime() - e.callStartedAt!.getTime())
    .sort((a, b) => a - b);
  return {
    space,
    entries,
    online: new Set(consoles.map((c) => c.userId)),
    medianCallMs: lengths.length >= MIN_HISTORY ? lengths[Math.floor(lengths.length / 2)]! : null,
    at: clock.at,
    graceMs: ctx.waiting.graceSeconds * 1000,
  };
}

function present(snapshot: WaitingListSnapshot, entry: WaitingEntry): boolean {
  return entry.disconnectedAt === null || entry.disconnectedAt.getTime() >= snapshot.at.getTime() - snapshot.graceMs;
}

/** Clients in line who are there (or within grace), first first. */
export function waitingListOf(snapshot: WaitingListSnapshot): WaitingEntry[] {
  return snapshot.entries.filter((e) => e.state === 'waiting' && present(snapshot, e));
}

function availableMembers(snapshot: WaitingListSnapshot): number {
  return snapshot.space.members.filter((m) => m.isActive && snapshot.online.has(m.userId)).length;
}

export interface ClientView {
  state: WaitingState;
  /** 1 for the first in line; null when not waiting. */
  position: number | null;
  estimateMinutes: number | null;
  /** Somebody is online and active to take clients. */
  available: boolean;
  space: { name: string; kind: 'board' | 'queue'; isActive: boolean; closingMessage: string | null; hasWaitingList: boolean };
  /** The private call to join, once taken. */
  meetingId: string | null;
  servedByName: string | null;
  /** A board member's message to a declined client. */
  message: string | null;
}

export function clientView(snapshot: WaitingListSnapshot, entry: WaitingEntry): ClientView {
  const line = waitingListOf(snapshot);
  const index = line.findIndex((e) => e.id === entry.id);
  const available = availableMembers(snapshot);
  const position = entry.state === 'waiting' && index >= 0 ? index + 1 : null;
  const estimate =
    position !== null && snapshot.medianCallMs !== null && available > 0 ? Math.max(1, Math.ceil((position * snapshot.medianCallMs) / available / 60_000)) : null;
  const { space } = snapshot;
  return {
    state: entry.state,
    position,
    estimateMinutes: estimate,
    available: available > 0,
    space: { name: space.name, kind: space.kind, isActive: space.isActive, closingMessage: space.closingMessage, hasWaitingList: space.kind === 'queue' || space.hasWaitingList },
    meetingId: entry.state === 'reserved' || entry.state === 'in_call' ? entry.meetingId : null,
    servedByName: space.members.find((m) => m.userId === entry.servedBy)?.fullName ?? null,
    message: entry.message,
  };
}

export interface ConsoleView {
  space: { id: string; kind: 'board' | 'queue'; name: string; isActive: boolean; hasWaitingList: boolean };
  me: { userId: string; isActive: boolean; isAutoAccepting: boolean; current: { entryId: string; meetingId: string | null; clientName: string; state: WaitingState } | null };
  members: Array<{ userId: string; fullName: string; isActive: boolean; isAutoAccepting: boolean; online: boolean; joinedCallAt: string | null }>;
  /** The line, then the clients being served. */
  waiting: Array<{ id: string; name: string; arrivedAt: string; position: number; connected: boolean; readiness: Readiness | null }>;
  serving: Array<{ id: string; name: string; state: WaitingState; servedBy: string | null; servedByName: string | null; acceptedAt: string | null }>;
}

export function consoleView(snapshot: WaitingListSnapshot, userId: string): ConsoleView {
  const { space } = snapshot;
  const names = new Map(space.members.map((m) => [m.userId, m.fullName]));
  const me = space.members.find((m) => m.userId === userId);
  const mine = snapshot.entries.find((e) => e.servedBy === userId && (e.state === 'reserved' || e.state === 'in_call'));
  return {
    space: { id: space.id, kind: space.kind, name: space.name, isActive: space.isActive, hasWaitingList: space.kind === 'queue' || space.hasWaitingList },
    me: {
      userId,
      isActive: me?.isActive ?? false,
      isAutoAccepting: me?.isAutoAccepting ?? false,
      current: mine ? { entryId: mine.id, meetingId: mine.meetingId, clientName: mine.displayName, state: mine.state } : null,
    },
    members: space.members.map((m) => ({
      userId: m.userId,
      fullName: m.fullName,
      isActive: m.isActive,
      isAutoAccepting: m.isAutoAccepting,
      online: snapshot.online.has(m.userId),
      joinedCallAt: m.joinedCallAt?.toISOString() ?? null,
    })),
    waiting: waitingListOf(snapshot).map((e, i) => ({ id: e.id, name: e.displayName, arrivedAt: e.arrivedAt.toISOString(), position: i + 1, connected: e.connectionId !== null, readiness: e.readiness })),
    serving: snapshot.entries
      .filter((e) => e.state !== 'waiting')
      .map((e) => ({ id: e.id, name: e.displayName, state: e.state, servedBy: e.servedBy, servedByName: e.servedBy ? (names.get(e.servedBy) ?? null) : null, acceptedAt: e.acceptedAt?.toISOString() ?? null })),
  };
}

/** The entry a client's connection holds, with its line. */
export async function clientSnapshot(ctx: LiveContext<WaitingListPorts>, entryId: string): Promise<{ entry: WaitingEntry; view: ClientView } | undefined> {
  const entry = await ctx.store.findWaitingEntry(entryId);
  if (!entry) return undefined;
  const snapshot = await waitingListSnapshot(ctx, entry.organizationId, entry.spaceId);
  return snapshot && { entry, view: clientView(snapshot, entry) };
}

/** A client's view in `snapshot`: from the line when they are in it, or (a final state) from their entry. */
export async function clientViewIn(ctx: LiveContext<WaitingListPorts>, snapshot: WaitingListSnapshot, entryId: string): Promise<ClientView | undefined> {
  const entry = snapshot.entries.find((e) => e.id === entryId) ?? (await ctx.store.findWaitingEntry(entryId));
  return entry && clientView(snapshot, entry);
}

/** For a member's console: the line of a space they serve. */
export async function memberSnapshot(ctx: LiveContext<WaitingListPorts>, actor: Actor, spaceId: string): Promise<ConsoleView | undefined> {
  if (actor.kind !== 'member') return undefined;
  const snapshot = await waitingListSnapshot(ctx, actor.organization.id, spaceId);
  return snapshot && consoleView(snapshot, actor.user.id);
}

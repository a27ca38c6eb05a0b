/**
 * @module domain/waiting/arrival
 * The client's side of a waiting list: arriving (or coming back after a
 * reload with the token their page kept), answering (the page is really
 * there), losing the connection (the grace period starts), and leaving.
 *
 * What one address can do to a line is bounded (docs/security.md,
 * "Waiting lists"): it holds at most `perAddress` places of a line at
 * once, a line at most `perList`; a place whose page never answered its
 * first view ends when its connection does (no grace period), or after
 * UNANSWERED_SECONDS if the connection stays silent.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { raise, transact, type DomainContext } from '../context.ts';
import { newId } from '../ids.ts';
import type { LiveContext } from '../lifecycle.ts';
import type { MeetingPorts } from '../meeting-ports.ts';
import type { PlacePorts, SlugPlace } from '../place-ports.ts';
import { placeAtSlug, slugAdmission } from '../places.ts';
import { endCall } from './calls.ts';
import type { WaitingListPorts } from './ports.ts';
import { ACTIVE_STATES, type Readiness, type WaitingEntry, type WaitingOutcome } from './types.ts';

export type SpacePlace = Extract<SlugPlace, { kind: 'board' | 'queue' }>;

export type ArrivalResult =
  | { ok: true; entry: WaitingEntry; space: SpacePlace; token: string; returned: boolean }
  | { ok: false; reason: 'not_found' | 'inactive' | 'no_waiting_list' | 'too_many_waiting' | 'line_full'; space?: SpacePlace };

/** A place whose page has not answered its first view by then is given up (a real page answers at once). */
export const UNANSWERED_SECONDS = 30;

export function clientTokenHash(token: string): string {
  return createHash('sha256').update(`waiting:${token}`).digest('hex');
}

/** The client's address as stored: keyed, so the table never holds addresses (which are personal data). */
export function addressKey(ctx: Pick<DomainContext<WaitingListPorts>, 'secretPepper'>, address: string): string {
  return createHmac('sha256', ctx.secretPepper).update(`waiting-address:${address}`).digest('base64url').slice(0, 32);
}

/**
 * A client arrives at `slug`. With the token of an entry still in line (a
 * reload, a new network), they take that place back; otherwise they join
 * the end of the line.
 */
export async function arrive(
  ctx: LiveContext<PlacePorts & WaitingListPorts>,
  input: { slug: string; displayName: string; connectionId: string; token?: string | undefined; readiness?: Readiness | null | undefined; address?: string | null | undefined },
): Promise<ArrivalResult> {
  const place = await placeAtSlug(ctx, input.slug);
  if (!place || place.kind === 'room') return { ok: false, reason: 'not_found' };
  if (slugAdmission(place) === 'enter') return { ok: false, reason: 'no_waiting_list', space: place };
  if (!place.isActive) return { ok: false, reason: 'inactive', space: place };
  const at = ctx.now();

  if (input.token && input.token.length <= 100) {
    const tokenHash = clientTokenHash(input.token);
    const returned = await transact(ctx, async (tx) => {
      const found = (await tx.store.listWaitingEntries(place.id, ACTIVE_STATES)).find((e) => e.tokenHash === tokenHash);
      if (!found) return undefined;
      const entry = await tx.store.updateWaitingEntry(
        found.id,
        { from: ACTIVE_STATES },
        { connectionId: input.connectionId, instanceId: ctx.instanceId, disconnectedAt: null, displayName: input.displayName, ...(input.readiness ? { readiness: input.readiness } : {}) },
      );
      if (entry) raise(tx, { type: 'waiting.changed', organizationId: entry.organizationId, spaceId: entry.spaceId, at });
      return entry;
    });
    if (returned) return { ok: true, entry: returned, space: place, token: input.token, returned: true };
  }

  const token = randomBytes(24).toString('base64url');
  const fromAddress = input.address ? addressKey(ctx, input.address) : null;
  const entry: WaitingEntry = {
    id: newId(),
    spaceId: place.id,
    organizationId: place.organizationId,
    displayName: input.displayName,
    tokenHash: clientTokenHash(token),
    state: 'waiting',
    arrivedAt: at,
    connectionId: input.connectionId,
    instanceId: ctx.instanceId,
    disconnectedAt: null,
    servedBy: null,
    reservedUntil: null,
    meetingId: null,
    acceptedAt: null,
    callStartedAt: null,
    endedAt: null,
    outcome: null,
    message: null,
    readiness: input.readiness ?? null,
    addressKey: fromAddress,
    answeredAt: null,
  };
  const refused = await transact(ctx, async (tx) => {
    // The space's row lock (PostgreSQL) makes concurrent arrivals count one after the other, so a cap holds exactly.
    await tx.store.findSpace(place.organizationId, place.kind, place.id, { lock: true });
    const { perAddress, perList } = tx.waiting;
    if (perList > 0 && (await tx.store.countActiveEntries(place.id)) >= perList) return 'line_full' as const;
    if (fromAddress && perAddress > 0 && (await tx.store.countActiveEntries(place.id, fromAddress)) >= perAddress) return 'too_many_waiting' as const;
    await tx.store.insertWaitingEntry(entry);
    raise(tx, {
      type: 'waiting.client.joined',
      organizationId: entry.organizationId,
      spaceId: entry.spaceId,
      entryId: entry.id,
      displayName: entry.displayName,
      readiness: entry.readiness,
      at,
    });
    raise(tx, { type: 'waiting.changed', organizationId: entry.organizationId, spaceId: entry.spaceId, at });
    return undefined;
  });
  if (refused) return { ok: false, reason: refused, space: place };
  return { ok: true, entry, space: place, token, returned: false };
}

/**
 * The client's page checked their devices and network again (the waiting
 * screen runs the check too, and a client may fix their camera while they
 * wait): the members' consoles show it from now on. A report that changes
 * nothing changes nothing.
 */
export async function clientReadiness(ctx: DomainContext<WaitingListPorts>, connectionId: string, readiness: Readiness): Promise<void> {
  const at = ctx.now();
  await transact(ctx, async (tx) => {
    const entry = await tx.store.findWaitingEntryByConnection(connectionId);
    if (!entry || JSON.stringify(entry.readiness) === JSON.stringify(readiness)) return;
    const changed = await tx.store.updateWaitingEntry(entry.id, { from: ACTIVE_STATES, connectionId }, { readiness });
    if (changed) raise(tx, { type: 'waiting.changed', organizationId: changed.organizationId, spaceId: changed.spaceId, at });
  });
}

/** The client's page answered its view: it is really there, and from now on keeps its place through a lost connection. */
export async function clientAnswered(ctx: DomainContext<WaitingListPorts>, connectionId: string): Promise<void> {
  const entry = await ctx.store.findWaitingEntryByConnection(connectionId);
  if (!entry || entry.answeredAt) return;
  await ctx.store.updateWaitingEntry(entry.id, { from: ACTIVE_STATES, connectionId }, { answeredAt: ctx.now() });
}

/**
 * The client's waiting page lost its connection: they keep their place for
 * the grace period, if their page ever answered; a place nobody's page
 * answered for ends now.
 */
export async function clientDisconnected(ctx: DomainContext<WaitingListPorts>, connectionId: string): Promise<void> {
  const at = ctx.now();
  const found = await ctx.store.findWaitingEntryByConnection(connectionId);
  if (found && !found.answeredAt && found.state === 'waiting') {
    await removeFromLine(ctx, found, 'left', 'unanswered');
    return;
  }
  await transact(ctx, async (tx) => {
    const entry = await tx.store.findWaitingEntryByConnection(connectionId);
    if (!entry) return;
    const changed = await tx.store.updateWaitingEntry(entry.id, { from: ACTIVE_STATES, connectionId }, { connectionId: null, instanceId: null, disconnectedAt: at });
    if (changed) raise(tx, { type: 'waiting.changed', organizationId: changed.organizationId, spaceId: changed.spaceId, at });
  });
}

/** The client leaves the line (or hangs up their call, which ends it). */
export async function clientLeaves(ctx: DomainContext<WaitingListPorts & MeetingPorts>, connectionId: string): Promise<void> {
  const entry = await ctx.store.findWaitingEntryByConnection(connectionId);
  if (!entry) return;
  if (entry.state === 'in_call' || entry.state === 'reserved') {
    await endCall(ctx, entry, 'client_left');
    return;
  }
  await removeFromLine(ctx, entry, 'left', 'client_left');
}

/** Ends a waiting client's wait: they left, were declined, or the line closed. Frees nobody: they had no member yet. */
export async function removeFromLine(
  ctx: DomainContext<WaitingListPorts>,
  entry: WaitingEntry,
  state: 'left' | 'declined' | 'closed',
  outcome: WaitingOutcome,
  message: string | null = null,
  /** The member who decided (a decline): kept for the audit of who did what. */
  by: string | null = null,
): Promise<WaitingEntry | undefined> {
  const at = ctx.now();
  return transact(ctx, async (tx) => {
    const ended = await tx.store.updateWaitingEntry(entry.id, { from: ['waiting'] }, { state, outcome, message, endedAt: at, ...(by ? { servedBy: by } : {}) });
    if (!ended) return undefined;
    raise(tx, { type: 'waiting.client.left', organizationId: ended.organizationId, spaceId: ended.spaceId, entryId: ended.id, state, outcome, at });
    raise(tx, { type: 'waiting.changed', organizationId: ended.organizationId, spaceId: ended.spaceId, at });
    return ended;
  });
}

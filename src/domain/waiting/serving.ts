/**
 * @module domain/waiting/serving
 * The members' side of a waiting list: accepting a client (boards), taking
 * the next one (queues, and boards too), declining (boards), switching
 * one's own status, and auto-accept giving the next client to a free,
 * active, auto-accepting member who has their console open.
 *
 * Exactly one member gets a client: taking a client is a transaction that
 * claims the member (only if they serve nobody) and moves the entry from
 * `waiting` to `reserved` (only if it is still waiting); if either update
 * finds its row changed, the transaction is rolled back and the caller is
 * told the client is gone (or that they are busy). The reservation is a
 * lease: a member who never joins the call hands the client back to the
 * front of the line (see sweep.ts).
 */
import { memberActor, type Actor } from '../actors.ts';
import { raise, transact, type DomainContext } from '../context.ts';
import { ConflictError, DomainError, NotFoundError, ValidationError } from '../errors.ts';
import { newId } from '../ids.ts';
import { liveClock, type LiveContext } from '../lifecycle.ts';
import type { MeetingPorts } from '../meeting-ports.ts';
import { createMeeting } from '../meetings.ts';
import type { MemberPorts } from '../member-ports.ts';
import type { PlacePorts } from '../place-ports.ts';
import { authorize } from '../policies.ts';
import type { Member, Space, SpaceKind } from '../types.ts';
import { removeFromLine } from './arrival.ts';
import type { WaitingListPorts } from './ports.ts';
import type { WaitingEntry } from './types.ts';

export const DECLINE_MESSAGE_MAX = 500;

export interface Assignment {
  entry: WaitingEntry;
  meetingId: string;
  memberId: string;
}

/** The space as a member of it acting; not found for anyone else (another organization, not a member). */
export async function servedSpace(ctx: DomainContext<WaitingListPorts>, actor: Actor, kind: SpaceKind, spaceId: string): Promise<{ space: Space; member: Member }> {
  authorize(actor, 'space.serve');
  const space = await ctx.store.findSpace(actor.organization.id, kind, spaceId);
  const member = actor.kind === 'member' ? space?.members.find((m) => m.userId === actor.user.id) : undefined;
  if (!space || !member) throw new NotFoundError(kind);
  return { space, member };
}

function mustServe(space: Space, member: Member): void {
  if (!space.isActive) throw new DomainError('conflict', `This ${space.kind} is not active.`);
  if (!member.isActive) throw new DomainError('conflict', 'Set yourself active to take clients.');
}

/** What taking a client touches: the line, the member, and the consultation opened for them (createMeeting). */
type TakePorts = WaitingListPorts & MemberPorts & MeetingPorts & PlacePorts;

/**
 * Reserves `entry` for the member and opens the private call. Throws
 * ConflictError when the client was taken (or left) meanwhile, or when the
 * member already serves someone.
 */
async function take(ctx: DomainContext<TakePorts>, space: Space, memberId: string, pick: (tx: DomainContext<WaitingListPorts>) => Promise<WaitingEntry | undefined>): Promise<Assignment | undefined> {
  const meetingId = newId();
  const at = ctx.now();
  return transact(ctx, async (tx) => {
    const entry = await pick(tx);
    if (!entry) return undefined;
    if (!(await tx.store.claimMember(space.id, memberId, entry.id))) throw new ConflictError('member', 'You are already with a client.');
    const reserved = await tx.store.updateWaitingEntry(
      entry.id,
      { from: ['waiting'] },
      { state: 'reserved', servedBy: memberId, meetingId, acceptedAt: at, reservedUntil: new Date(at.getTime() + tx.waiting.leaseSeconds * 1000) },
    );
    if (!reserved) throw new ConflictError('entry', 'This client was taken by someone else or has left.');
    const owner = await tx.store.findUser(space.organizationId, memberId);
    const org = await tx.store.findOrganization(space.organizationId);
    if (!owner || !org) throw new NotFoundError('member');
    // The member's own consultation: they are its owner, and so its host. The
    // client was let in by being taken, so it does not wait for the owner.
    await createMeeting(tx, memberActor(org, owner), { type: 'CONSULTATION', ownerEmail: owner.email, meetingId, waitForOwner: false });
    raise(tx, { type: 'waiting.client.accepted', organizationId: space.organizationId, spaceId: space.id, entryId: entry.id, userId: memberId, meetingId, at });
    raise(tx, { type: 'waiting.changed', organizationId: space.organizationId, spaceId: space.id, at });
    return { entry: reserved, meetingId, memberId };
  });
}

/** A board member accepts a specific client. Queues serve strictly in order: there one takes the next. */
export async function acceptClient(ctx: DomainContext<TakePorts>, actor: Actor, spaceId: string, entryId: string): Promise<Assignment> {
  const { space, member } = await servedSpace(ctx, actor, 'board', spaceId);
  mustServe(space, member);
  const assignment = await take(ctx, space, member.userId, async (tx) => {
    const entry = await tx.store.findWaitingEntry(entryId);
    return entry && entry.spaceId === space.id ? entry : undefined;
  });
  if (!assignment) throw new NotFoundError('client', 'This client is no longer waiting.');
  return assignment;
}

/** The member takes the first client in line who is there (or within the grace period); undefined when nobody waits. */
export async function takeNext(ctx: DomainContext<TakePorts>, actor: Actor, kind: SpaceKind, spaceId: string): Promise<Assignment | undefined> {
  const { space, member } = await servedSpace(ctx, actor, kind, spaceId);
  mustServe(space, member);
  return takeNextFor(ctx, space, member.userId);
}

function takeNextFor(ctx: DomainContext<TakePorts>, space: Space, memberId: string): Promise<Assignment | undefined> {
  const since = new Date(ctx.now().getTime() - ctx.waiting.graceSeconds * 1000);
  return take(ctx, space, memberId, (tx) => tx.store.lockFirstWaiting(space.id, since));
}

/** A board member turns a waiting client away, with an optional message shown to them. */
export async function declineClient(ctx: DomainContext<WaitingListPorts>, actor: Actor, spaceId: string, entryId: string, message?: string): Promise<void> {
  const { space, member } = await servedSpace(ctx, actor, 'board', spaceId);
  const text = message?.trim() || null;
  if (text && text.length > DECLINE_MESSAGE_MAX) throw ValidationError.field('message', `A message has at most ${DECLINE_MESSAGE_MAX} characters.`);
  const entry = await ctx.store.findWaitingEntry(entryId);
  if (!entry || entry.spaceId !== space.id || !(await removeFromLine(ctx, entry, 'declined', 'declined', text, member.userId))) {
    throw new NotFoundError('client', 'This client is no longer waiting.');
  }
}

/**
 * A member takes a client out of the line, on a board or a queue: someone
 * who is not a real client (a flood of places, a test, a duplicate). The
 * client's page says they could not be admitted; outcome `removed`.
 */
export async function removeClient(ctx: DomainContext<WaitingListPorts>, actor: Actor, kind: SpaceKind, spaceId: string, entryId: string): Promise<void> {
  const { space, member } = await servedSpace(ctx, actor, kind, spaceId);
  const entry = await ctx.store.findWaitingEntry(entryId);
  if (!entry || entry.spaceId !== space.id || !(await removeFromLine(ctx, entry, 'declined', 'removed', null, member.userId))) {
    throw new NotFoundError('client', 'This client is no longer waiting.');
  }
}

/** The member's own switches: active or not, auto-accepting or not. */
export async function setMemberStatus(
  ctx: DomainContext<WaitingListPorts>,
  actor: Actor,
  kind: SpaceKind,
  spaceId: string,
  status: { isActive?: boolean | undefined; isAutoAccepting?: boolean | undefined },
): Promise<Member> {
  const { space, member } = await servedSpace(ctx, actor, kind, spaceId);
  const next = { isActive: status.isActive ?? member.isActive, isAutoAccepting: status.isAutoAccepting ?? member.isAutoAccepting };
  const at = ctx.now();
  await transact(ctx, async (tx) => {
    await tx.store.setMemberStatus(space.id, member.userId, next);
    raise(tx, { type: 'member.status.changed', organizationId: space.organizationId, spaceId: space.id, userId: member.userId, ...next, at });
    raise(tx, { type: 'waiting.changed', organizationId: space.organizationId, spaceId: space.id, at });
  });
  return { ...member, ...next };
}

/**
 * Gives waiting clients to the members who asked for them: active,
 * auto-accepting, with a console open and nobody to serve. Safe to run on
 * every instance at once: each assignment is one `take`, so a client or a
 * member is assigned once.
 */
export async function dispatchAutoAccept(ctx: LiveContext<TakePorts>, organizationId: string, spaceId: string): Promise<Assignment[]> {
  const space = await ctx.store.findSpaceById(organizationId, spaceId);
  if (!space?.isActive || (space.kind === 'board' && !space.hasWaitingList)) return [];
  const online = new Set((await ctx.store.listConsoles(space.id, liveClock(ctx).staleBefore)).map((c) => c.userId));
  const assignments: Assignment[] = [];
  for (const member of space.members) {
    if (!member.isActive || !member.isAutoAccepting || !online.has(member.userId)) continue;
    if (await ctx.store.memberCurrentEntry(space.id, member.userId)) continue;
    try {
      const assignment = await takeNextFor(ctx, space, member.userId);
      if (!assignment) break;
      assignments.push(assignment);
    } catch (error) {
      // Another instance gave this member or this client away first: go on with the next member.
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  return assignments;
}

/**
 * @module domain/spaces
 * Boards and queues (v3), called spaces in the code: shared waiting rooms
 * served by several members. They are one concept with two kinds, so one set of
 * commands serves both; the kind decides only whether a waiting list can
 * be switched. Who may be a member and what state a new member starts in
 * are decided here, once.
 */
import type { Actor } from './actors.ts';
import { raise, transact, type DomainContext } from './context.ts';
import { NotFoundError, ValidationError, type FieldError } from './errors.ts';
import { newId } from './ids.ts';
import type { MeetingPorts } from './meeting-ports.ts';
import type { MemberPorts } from './member-ports.ts';
import { readPage, type Page } from './pages.ts';
import type { PageRequest } from './pages.ts';
import { authorize } from './policies.ts';
import { slugProblem, slugReservedUntil } from './slugs.ts';
import { checkText } from './text.ts';
import type { Member, Organization, Space, SpaceKind } from './types.ts';
import { closeLine, membersRemoved } from './waiting/closing.ts';
import type { MemberState, SpacePatch, WaitingListPorts } from './waiting/ports.ts';

export const SPACE_NAME_MAX = 200;
export const CLOSING_MESSAGE_MAX = 2000;
export const MEMBERS_MAX = 200;

export interface CreateSpaceInput {
  name?: string | undefined;
  slug?: string | undefined;
  closingMessage?: string | undefined;
  /** Boards only; a waiting list is on unless switched off. */
  hasWaitingList?: boolean | undefined;
}

export interface UpdateSpaceInput {
  name?: string | undefined;
  slug?: string | undefined;
  closingMessage?: string | undefined;
  /** Replaces the member list (the spec's `membersIds`). */
  memberIds?: string[] | undefined;
  isActive?: boolean | undefined;
  hasWaitingList?: boolean | undefined;
}

function checkSlug(errors: FieldError[], slug: string | undefined, required: boolean): void {
  if (slug === undefined) {
    if (required) errors.push({ field: 'slug', message: 'slug is required.' });
    return;
  }
  const problem = slugProblem(slug);
  if (problem) errors.push(problem);
}

/** The one membership rule: at most MEMBERS_MAX users of the space's organization, each once. */
async function checkMemberIds(ctx: DomainContext<MemberPorts>, org: Organization, kind: SpaceKind, ids: string[], errors: FieldError[]): Promise<void> {
  const field = 'memberIds';
  if (ids.length > MEMBERS_MAX) {
    errors.push({ field, message: `A ${kind} has at most ${MEMBERS_MAX} members.` });
  } else if (new Set(ids).size !== ids.length) {
    errors.push({ field, message: 'memberIds names a user twice.' });
  } else {
    const known = new Set((await ctx.store.listUsers(org.id)).map((u) => u.id));
    const unknown = ids.filter((memberId) => !known.has(memberId));
    if (unknown.length) errors.push({ field, message: `Not users of this organization: ${unknown.join(', ')}.` });
  }
}

/** New members start active, not auto-accepting and not in a call; members kept keep their state. */
export function nextMembers(current: readonly Member[], userIds: readonly string[]): MemberState[] {
  const byUser = new Map(current.map((m) => [m.userId, m]));
  return userIds.map((userId) => {
    const kept = byUser.get(userId);
    return kept
      ? { userId, isActive: kept.isActive, isAutoAccepting: kept.isAutoAccepting, joinedCallAt: kept.joinedCallAt }
      : { userId, isActive: true, isAutoAccepting: false, joinedCallAt: null };
  });
}

export async function createSpace(ctx: DomainContext<WaitingListPorts>, actor: Actor, kind: SpaceKind, input: CreateSpaceInput): Promise<Space> {
  authorize(actor, 'space.manage');
  const errors: FieldError[] = [];
  checkText(errors, 'name', input.name, { required: true, max: SPACE_NAME_MAX });
  checkSlug(errors, input.slug, true);
  checkText(errors, 'closingMessage', input.closingMessage, { max: CLOSING_MESSAGE_MAX });
  if (errors.length) throw new ValidationError(errors);

  const now = ctx.now();
  const space: Space = {
    id: newId(),
    organizationId: actor.organization.id,
    kind,
    name: input.name!.trim(),
    slug: input.slug!,
    isActive: true,
    closingMessage: input.closingMessage ?? null,
    hasWaitingList: kind === 'board' ? (input.hasWaitingList ?? true) : false,
    members: [],
    createdAt: now,
    updatedAt: now,
  };
  await ctx.store.insertSpace(space);
  return space;
}

export async function getSpace(ctx: DomainContext<WaitingListPorts>, actor: Actor, kind: SpaceKind, id: string): Promise<Space> {
  authorize(actor, 'space.manage');
  const space = await ctx.store.findSpace(actor.organization.id, kind, id);
  if (!space) throw new NotFoundError(kind);
  return space;
}

export async function updateSpace(
  ctx: DomainContext<WaitingListPorts & MemberPorts & MeetingPorts>,
  actor: Actor,
  kind: SpaceKind,
  id: string,
  input: UpdateSpaceInput,
): Promise<Space> {
  authorize(actor, 'space.manage');
  const errors: FieldError[] = [];
  checkText(errors, 'name', input.name, { required: input.name !== undefined, max: SPACE_NAME_MAX });
  checkSlug(errors, input.slug, false);
  checkText(errors, 'closingMessage', input.closingMessage, { max: CLOSING_MESSAGE_MAX });

  return transact(ctx, async (tx) => {
    // Looked up (and locked) before the members are checked, so a foreign id answers 404, not 400.
    const current = await tx.store.findSpace(actor.organization.id, kind, id, { lock: true });
    if (!current) throw new NotFoundError(kind);
    if (input.memberIds !== undefined) await checkMemberIds(tx, actor.organization, kind, input.memberIds, errors);
    if (errors.length) throw new ValidationError(errors);

    const patch: SpacePatch = {};
    if (input.name !== undefined) patch.name = input.name.trim();
    if (input.slug !== undefined && input.slug !== current.slug) {
      patch.slug = input.slug;
      patch.oldSlugReservedUntil = slugReservedUntil(tx.now(), tx.slugReservationDays);
    }
    if (input.closingMessage !== undefined) patch.closingMessage = input.closingMessage;
    if (input.isActive !== undefined) patch.isActive = input.isActive;
    if (input.hasWaitingList !== undefined && kind === 'board') patch.hasWaitingList = input.hasWaitingList;
    if (input.memberIds !== undefined) patch.members = nextMembers(current.members, input.memberIds);

    if (patch.members) {
      const kept = new Set(patch.members.map((m) => m.userId));
      await membersRemoved(tx, current, current.members.filter((m) => !kept.has(m.userId)).map((m) => m.userId));
    }
    const updated = await tx.store.updateSpace(actor.organization.id, kind, id, patch, tx.now());
    if (!updated) throw new NotFoundError(kind);
    if (current.isActive && !updated.isActive) await closeLine(tx, updated, 'deactivated');
    raise(tx, { type: 'space.changed', organizationId: updated.organizationId, spaceId: updated.id, deleted: false, at: tx.now() });
    return updated;
  });
}

/** Deletes a board or queue, ending every wait and call on it; returns it as it was. */
export async function deleteSpace(ctx: DomainContext<WaitingListPorts & MeetingPorts>, actor: Actor, kind: SpaceKind, id: string): Promise<Space> {
  authorize(actor, 'space.manage');
  return transact(ctx, async (tx) => {
    const current = await tx.store.findSpace(actor.organization.id, kind, id, { lock: true });
    if (!current) throw new NotFoundError(kind);
    await closeLine(tx, current, 'deleted');
    const space = await tx.store.deleteSpace(actor.organization.id, kind, id, { at: tx.now(), until: slugReservedUntil(tx.now(), tx.slugReservationDays) });
    if (!space) throw new NotFoundError(kind);
    raise(tx, { type: 'space.changed', organizationId: space.organizationId, spaceId: space.id, deleted: true, at: tx.now() });
    return space;
  });
}

/** The organization's boards or queues, newest first, with their members. */
export async function listSpaces(ctx: DomainContext<WaitingListPorts>, actor: Actor, kind: SpaceKind, page: PageRequest): Promise<Page<Space>> {
  authorize(actor, 'space.manage');
  return readPage(page, (p) => ctx.store.listSpaces(actor.organization.id, kind, p));
}

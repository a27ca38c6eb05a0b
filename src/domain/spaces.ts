/**
 * @module domain/spaces
 * Boards and queues (v3): shared waiting places served by several members.
 * They are one concept with two kinds, so one set of commands serves both;
 * the kind decides only whether a waiting list can be switched.
 */
import type { DomainContext } from './context.ts';
import { NotFoundError, ValidationError, type FieldError } from './errors.ts';
import { newId } from './ids.ts';
import { slugProblem } from './slugs.ts';
import { checkText } from './text.ts';
import type { SpacePatch } from '../store/store.ts';
import type { Organization, Space, SpaceKind } from './types.ts';

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
  membersIds?: string[] | undefined;
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

export async function createSpace(
  ctx: DomainContext,
  org: Organization,
  kind: SpaceKind,
  input: CreateSpaceInput,
): Promise<Space> {
  const errors: FieldError[] = [];
  checkText(errors, 'name', input.name, { required: true, max: SPACE_NAME_MAX });
  checkSlug(errors, input.slug, true);
  checkText(errors, 'closingMessage', input.closingMessage, { max: CLOSING_MESSAGE_MAX });
  if (errors.length) throw new ValidationError(errors);

  const now = ctx.now();
  const space: Space = {
    id: newId(),
    organizationId: org.id,
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

export async function getSpace(ctx: DomainContext, org: Organization, kind: SpaceKind, id: string): Promise<Space> {
  const space = await ctx.store.findSpace(org.id, kind, id);
  if (!space) throw new NotFoundError(kind);
  return space;
}

export async function updateSpace(
  ctx: DomainContext,
  org: Organization,
  kind: SpaceKind,
  id: string,
  input: UpdateSpaceInput,
): Promise<Space> {
  const errors: FieldError[] = [];
  checkText(errors, 'name', input.name, { required: input.name !== undefined, max: SPACE_NAME_MAX });
  checkSlug(errors, input.slug, false);
  checkText(errors, 'closingMessage', input.closingMessage, { max: CLOSING_MESSAGE_MAX });
  // Look the space up before checking members, so a foreign id answers 404, not 400.
  await getSpace(ctx, org, kind, id);

  if (input.membersIds !== undefined) {
    const ids = input.membersIds;
    if (ids.length > MEMBERS_MAX) {
      errors.push({ field: 'membersIds', message: `A ${kind} has at most ${MEMBERS_MAX} members.` });
    } else if (new Set(ids).size !== ids.length) {
      errors.push({ field: 'membersIds', message: 'membersIds names a user twice.' });
    } else {
      const known = new Set((await ctx.store.listUsers(org.id)).map((u) => u.id));
      const unknown = ids.filter((memberId) => !known.has(memberId));
      if (unknown.length) {
        errors.push({
          field: 'membersIds',
          message: `Not users of this organization: ${unknown.join(', ')}.`,
        });
      }
    }
  }
  if (errors.length) throw new ValidationError(errors);

  const patch: SpacePatch = {};
  if (input.name !== undefined) patch.name = input.name.trim();
  if (input.slug !== undefined) patch.slug = input.slug;
  if (input.closingMessage !== undefined) patch.closingMessage = input.closingMessage;
  if (input.isActive !== undefined) patch.isActive = input.isActive;
  if (input.hasWaitingList !== undefined && kind === 'board') patch.hasWaitingList = input.hasWaitingList;
  if (input.membersIds !== undefined) patch.memberIds = input.membersIds;

  const updated = await ctx.store.updateSpace(org.id, kind, id, patch, ctx.now());
  if (!updated) throw new NotFoundError(kind);
  return updated;
}

/** Deletes a board or queue; returns it as it was. */
export async function deleteSpace(ctx: DomainContext, org: Organization, kind: SpaceKind, id: string): Promise<Space> {
  const space = await ctx.store.deleteSpace(org.id, kind, id);
  if (!space) throw new NotFoundError(kind);
  return space;
}

/**
 * @module domain/waiting/dispatch
 * A waiting list served from the organization's own server (the API): the
 * line as it stands, and accepting, declining or taking the next client on
 * behalf of a space member. Each goes through the very command a member's
 * console uses (serving.ts), with that member as the actor, so the client
 * is admitted, the call opened and the events (and webhooks) raised exactly
 * as when the member clicks; a decline needs no member and is recorded as
 * the organization's.
 */
import { memberActor, type Actor } from '../actors.ts';
import type { DomainContext } from '../context.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { LiveContext } from '../lifecycle.ts';
import type { MeetingPorts } from '../meeting-ports.ts';
import type { MemberPorts } from '../member-ports.ts';
import type { PlacePorts } from '../place-ports.ts';
import { authorize } from '../policies.ts';
import type { Space, SpaceKind } from '../types.ts';
import { removeFromLine } from './arrival.ts';
import type { WaitingListPorts } from './ports.ts';
import { acceptClient, DECLINE_MESSAGE_MAX, takeNext, type Assignment } from './serving.ts';
import type { Readiness } from './types.ts';
import { waitingListOf, waitingListSnapshot } from './views.ts';

/** A client in line, as the API shows them. */
export interface WaitingClient {
  entryId: string;
  displayName: string;
  /** 1 for the first in line. */
  position: number;
  waitingSince: Date;
  /** Their waiting page is connected now (otherwise they are within the grace period). */
  connected: boolean;
  /** The device and network check their page reported last; null when it has not. */
  readiness: Readiness | null;
}

async function spaceOf(ctx: DomainContext<WaitingListPorts>, actor: Actor, kind: SpaceKind, spaceId: string): Promise<Space> {
  const space = await ctx.store.findSpace(actor.organization.id, kind, spaceId);
  if (!space) throw new NotFoundError(kind);
  return space;
}

/** The clients waiting in a board's or queue's line now, first first (those within the grace period included). */
export async function waitingClients(ctx: LiveContext<WaitingListPorts>, actor: Actor, kind: SpaceKind, spaceId: string): Promise<WaitingClient[]> {
  authorize(actor, 'space.manage');
  const space = await spaceOf(ctx, actor, kind, spaceId);
  const snapshot = await waitingListSnapshot(ctx, space.organizationId, space.id);
  if (!snapshot) throw new NotFoundError(kind);
  return waitingListOf(snapshot).map((e, i) => ({ entryId: e.id, displayName: e.displayName, position: i + 1, waitingSince: e.arrivedAt, connected: e.connectionId !== null, readiness: e.readiness }));
}

/** `userId` as the member acting: they must be listed on the space. */
async function spaceMember(ctx: DomainContext<MemberPorts>, actor: Actor, space: Space, userId: string): Promise<Actor> {
  const listed = space.members.some((m) => m.userId === userId);
  const user = listed ? await ctx.store.findUser(space.organizationId, userId) : undefined;
  if (!user) throw ValidationError.field('userId', `userId is not a member of this ${space.kind}.`);
  return memberActor(actor.organization, user);
}

/** Accepts a board's waiting client for the member `userId`, as their own Accept would. */
export async function acceptFor(ctx: DomainContext<WaitingListPorts & MemberPorts & MeetingPorts & PlacePorts>, actor: Actor, boardId: string, entryId: string, userId: string): Promise<Assignment> {
  authorize(actor, 'space.dispatch');
  const board = await spaceOf(ctx, actor, 'board', boardId);
  return acceptClient(ctx, await spaceMember(ctx, actor, board, userId), board.id, entryId);
}

/** Gives the member `userId` the next client of a queue, as their own "take next" would; undefined when nobody waits. */
export async function takeNextFor(ctx: DomainContext<WaitingListPorts & MemberPorts & MeetingPorts & PlacePorts>, actor: Actor, queueId: string, userId: string): Promise<Assignment | undefined> {
  authorize(actor, 'space.dispatch');
  const queue = await spaceOf(ctx, actor, 'queue', queueId);
  return takeNext(ctx, await spaceMember(ctx, actor, queue, userId), 'queue', queue.id);
}

/** Takes a client out of a board's or queue's line (outcome `removed`), as a member's Remove would; recorded as the organization's. */
export async function removeFor(ctx: DomainContext<WaitingListPorts>, actor: Actor, kind: SpaceKind, spaceId: string, entryId: string): Promise<void> {
  authorize(actor, 'space.dispatch');
  const space = await spaceOf(ctx, actor, kind, spaceId);
  const entry = await ctx.store.findWaitingEntry(entryId);
  if (!entry || entry.spaceId !== space.id || !(await removeFromLine(ctx, entry, 'declined', 'removed'))) {
    throw new NotFoundError('client', 'This client is no longer waiting.');
  }
}

/** Turns a board's waiting client away, with an optional message shown to them. */
export async function declineFor(ctx: DomainContext<WaitingListPorts>, actor: Actor, boardId: string, entryId: string, message?: string): Promise<void> {
  authorize(actor, 'space.dispatch');
  const board = await spaceOf(ctx, actor, 'board', boardId);
  const text = message?.trim() || null;
  if (text && text.length > DECLINE_MESSAGE_MAX) throw ValidationError.field('message', `A message has at most ${DECLINE_MESSAGE_MAX} characters.`);
  const entry = await ctx.store.findWaitingEntry(entryId);
  if (!entry || entry.spaceId !== board.id || !(await removeFromLine(ctx, entry, 'declined', 'declined', text))) {
    throw new NotFoundError('client', 'This client is no longer waiting.');
  }
}

/**
 * @module domain/ports/space-store
 * Boards and queues with their members (part of `WaitingListPorts`).
 */
import type { Member, Space, SpaceKind } from '../types.ts';
import type { PageRequest } from './page-request.ts';

/** A member's stored state; the name comes from the user. */
export type MemberState = Omit<Member, 'fullName'>;

/** A change to a board or queue; absent fields stay as they are. */
export interface SpacePatch {
  name?: string;
  slug?: string;
  closingMessage?: string | null;
  isActive?: boolean;
  hasWaitingList?: boolean;
  /** Replaces the member list, in this order, with these states. */
  members?: MemberState[];
  /** With a new `slug`: the old one stays reserved to the organization until then. */
  oldSlugReservedUntil?: Date;
}

export interface SpaceStore {
  /** Takes the space's slug in the shared namespace; stores its members (users of its organization). */
  insertSpace(space: Space): Promise<void>;
  /**
   * With `lock`, inside a transaction, concurrent writers of the space wait
   * until that transaction ends (PostgreSQL `FOR UPDATE`; SQLite runs one
   * write transaction at a time anyway).
   */
  findSpace(organizationId: string, kind: SpaceKind, id: string, options?: { lock?: boolean }): Promise<Space | undefined>;
  /** A board or a queue by id, whichever it is. */
  findSpaceById(organizationId: string, id: string): Promise<Space | undefined>;
  /** Applies the patch atomically; returns the updated space, or undefined when not found. */
  updateSpace(organizationId: string, kind: SpaceKind, id: string, patch: SpacePatch, at: Date): Promise<Space | undefined>;
  /**
   * Returns the space as it was before deletion, or undefined. Its slug
   * stays reserved to the organization until `slugReservedUntil` (freed at
   * once without it).
   */
  deleteSpace(organizationId: string, kind: SpaceKind, id: string, slugReservedUntil?: { at: Date; until: Date }): Promise<Space | undefined>;
  /** The organization's boards or queues, newest first, with their members. */
  listSpaces(organizationId: string, kind: SpaceKind, page: PageRequest): Promise<Space[]>;
}

/**
 * @module domain/waiting/ports
 * The waiting lists' port (`WaitingListPorts`): boards and queues with
 * their members (spaces.ts), and their live waiting lists (this folder).
 * Every state change of a line is one conditional update, so several
 * instances can race on the same client or member and exactly one wins.
 */
import type { PageRequest } from '../pages.ts';
import type { Transactional } from '../ports/transactional.ts';
import type { Member, Space, SpaceKind } from '../types.ts';
import type { MemberConsole, WaitingEntry, WaitingState } from './types.ts';

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

/** Boards and queues with their members. */
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

/** Live waiting lists: entries, members serving, consoles. */
export interface WaitingStore {
  insertWaitingEntry(entry: WaitingEntry): Promise<void>;
  findWaitingEntry(id: string): Promise<WaitingEntry | undefined>;
  findWaitingEntryByConnection(connectionId: string): Promise<WaitingEntry | undefined>;
  findWaitingEntryByMeeting(meetingId: string): Promise<WaitingEntry | undefined>;
  /** Entries of a space in these states, in line order (arrival, then id). */
  listWaitingEntries(spaceId: string, states: readonly WaitingState[]): Promise<WaitingEntry[]>;
  /** Entries of a space that ended since `since`, newest first: history for estimates and the audit. */
  listEndedWaitingEntries(spaceId: string, since: Date, limit: number): Promise<WaitingEntry[]>;

  /**
   * Changes an entry only if it is in one of `from` (and, with `connectionId`,
   * still held by that connection); returns the entry as changed, or
   * undefined when the condition failed (someone else got there first).
   */
  updateWaitingEntry(
    id: string,
    condition: { from: readonly WaitingState[]; connectionId?: string | null },
    change: Partial<Omit<WaitingEntry, 'id' | 'spaceId' | 'organizationId' | 'tokenHash' | 'arrivedAt'>>,
  ): Promise<WaitingEntry | undefined>;

  /**
   * Locks and returns the first entry of the line whose client is there
   * (connected, or disconnected since `connectedSince` or later), skipping
   * rows another transaction holds. Call inside a transaction.
   */
  lockFirstWaiting(spaceId: string, connectedSince: Date): Promise<WaitingEntry | undefined>;

  /** Active entries of a space (from one address, with `addressKey`): what the caps count. */
  countActiveEntries(spaceId: string, addressKey?: string): Promise<number>;
  /** Waiting entries whose page never answered, arrived before `arrivedBefore`. */
  listUnansweredEntries(arrivedBefore: Date): Promise<WaitingEntry[]>;
  /** Entries in `states` with a reservation that lapsed before `at`. */
  listLapsedReservations(at: Date): Promise<WaitingEntry[]>;
  /** Active entries whose client connection dropped before `before` (the grace period passed). */
  listAbandonedEntries(before: Date): Promise<WaitingEntry[]>;
  /** Marks active entries whose connection is on an instance not seen since `staleBefore` as disconnected at `at`. */
  disconnectStaleEntries(staleBefore: Date, at: Date): Promise<void>;
  /** Spaces with clients waiting, for the sweeper's auto-accept pass. */
  listSpacesWithWaiting(): Promise<Array<{ spaceId: string; organizationId: string }>>;

  /** Sets the member's current client if they have none; false when they are busy. */
  claimMember(spaceId: string, userId: string, entryId: string): Promise<boolean>;
  /** Frees the member if they are serving `entryId`; clears joinedCallAt. */
  releaseMember(spaceId: string, userId: string, entryId: string): Promise<void>;
  setMemberCallStarted(spaceId: string, userId: string, at: Date | null): Promise<void>;
  setMemberStatus(spaceId: string, userId: string, status: { isActive?: boolean; isAutoAccepting?: boolean }): Promise<boolean>;
  /** The member's current client, if any. */
  memberCurrentEntry(spaceId: string, userId: string): Promise<string | null>;

  openConsole(console: MemberConsole): Promise<void>;
  closeConsole(connectionId: string): Promise<MemberConsole | undefined>;
  /** Consoles of a space on instances seen since `staleBefore`. */
  listConsoles(spaceId: string, staleBefore: Date): Promise<MemberConsole[]>;
  /** Removes the consoles of instances not seen since `staleBefore`; returns them. */
  reapConsoles(staleBefore: Date): Promise<MemberConsole[]>;
}

/** Waiting lists: boards and queues, their members, entries and consoles (spaces.ts, waiting/). */
export interface WaitingListPorts extends SpaceStore, WaitingStore, Transactional {}

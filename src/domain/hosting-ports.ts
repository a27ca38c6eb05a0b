/**
 * @module domain/hosting-ports
 * The host's port (`HostingPorts`), for hosting.ts and
 * meeting-control.ts: the meeting's lock, the arrivals knocking at it,
 * and who was removed. Every decision is one conditional write, so of two
 * hosts (or two instances) acting on one knock at once exactly one
 * decides it.
 */
import type { Transactional } from './ports/transactional.ts';
import type { MeetingLock } from './types.ts';

export type KnockState = 'knocking' | 'admitted' | 'turned_away';

/** An arrival at a locked meeting (or a removed participant coming back), by their connection id. */
export interface Knock {
  id: string;
  meetingId: string;
  instanceId: string;
  displayName: string;
  guestKey: string | null;
  /** They had been removed from this meeting: letting them in lifts the removal. */
  wasRemoved: boolean;
  state: KnockState;
  arrivedAt: Date;
}

export interface HostingStore {
  /** Sets the lock when it is one of `from` (any, when absent); returns whether it changed. */
  setMeetingLock(meetingId: string, to: MeetingLock, from?: readonly MeetingLock[]): Promise<boolean>;

  insertKnock(knock: Knock): Promise<void>;
  /** Knocks still `knocking` whose instance has been seen since `staleBefore`, oldest first. */
  listKnocks(meetingId: string, staleBefore: Date): Promise<Knock[]>;
  /** Decides a knock still `knocking`; returns it decided, or undefined when it was not (any more). */
  decideKnock(meetingId: string, knockId: string, state: 'admitted' | 'turned_away', at: Date): Promise<Knock | undefined>;
  /** The knocker went away (or entered): the knock is forgotten. Returns it, or undefined. */
  deleteKnock(knockId: string): Promise<Knock | undefined>;
  /**
   * Moves the idle deadline of every open meeting with someone knocking (on
   * an instance seen since `staleBefore`) to `until`, when it is set and
   * between `now` and `until`: a knocker keeps a meeting attended.
   */
  holdOpenWhileKnocking(now: Date, until: Date, staleBefore: Date): Promise<void>;

  insertRemoval(meetingId: string, guestKey: string, at: Date): Promise<void>;
  isRemoved(meetingId: string, guestKey: string): Promise<boolean>;
  deleteRemoval(meetingId: string, guestKey: string): Promise<void>;
}

/** A meeting's host at work: the lock, knocks, removals (hosting.ts, meeting-control.ts). */
export interface HostingPorts extends HostingStore, Transactional {}

/**
 * @module domain/meeting-ports
 * The meetings aggregate's port (`MeetingPorts`): what meetings.ts,
 * rooms.ts and lifecycle.ts need from storage. `src/store/` implements it
 * as part of `Store` (ports/store.ts).
 */
import type { PageRequest } from './pages.ts';
import type { Transactional } from './ports/transactional.ts';
import type { Meeting, Room } from './types.ts';

export interface MeetingStore {
  insertMeeting(meeting: Meeting): Promise<void>;
  /** Deleted meetings are not found. */
  findMeeting(organizationId: string, id: string): Promise<Meeting | undefined>;
  /** Marks deleted; returns the meeting with `deletedAt` set, or undefined when not found (or already deleted). The id stays taken. */
  deleteMeeting(organizationId: string, id: string, at: Date): Promise<Meeting | undefined>;
  /** Closes an open meeting now (not past its deadline, not deleted); returns it closed, or undefined when it was not open. */
  closeMeeting(id: string, at: Date): Promise<Meeting | undefined>;
  /** Sets the meeting's first-participant time unless set; true the first time only. */
  markMeetingStarted(meetingId: string, at: Date): Promise<boolean>;
  /** The organization's meetings, newest first, deleted ones included (with `deletedAt`). */
  listMeetings(organizationId: string, page: PageRequest): Promise<Meeting[]>;
  /** Meetings of every organization neither closed nor deleted at `at` (for the operator's metrics). */
  countOpenMeetings(at: Date): Promise<number>;
}

/** A slug an organization gave up, still reserved to it. */
export interface ReleasedSlug {
  slug: string;
  organizationId: string;
  kind: 'room' | 'board' | 'queue';
  /** Where its place is now (renamed); null when the place was deleted. */
  currentSlug: string | null;
}

export interface RoomStore {
  /**
   * Takes the room's slug in the shared namespace: a slug in use, or
   * reserved to another organization, fails as taken (ConflictError); one
   * reserved to the room's own organization is taken back.
   */
  insertRoom(room: Room): Promise<void>;
  /** The slug, when it was given up and is reserved at `at` (to whichever organization). */
  findReleasedSlug(slug: string, at: Date): Promise<ReleasedSlug | undefined>;
  findRoom(organizationId: string, slug: string): Promise<Room | undefined>;
  /** The organization's rooms, newest first. */
  listRooms(organizationId: string, page: PageRequest): Promise<Room[]>;
}

/** Meetings and rooms: created, read, listed, started, closed, deleted (meetings.ts, rooms.ts, lifecycle.ts). */
export interface MeetingPorts extends MeetingStore, RoomStore, Transactional {}

/**
 * @module domain/place-ports
 * The places aggregate's port (`PlacePorts`): presence and meeting-place
 * deadlines (`store.live`), and where the SFU holds each place
 * (sfu/placement-store.ts), for places.ts, joining.ts, lifecycle.ts and
 * sfu/. Every state change of presence is one transaction or one
 * conditional UPDATE, so several instances can run the same steps
 * concurrently: a meeting is closed by exactly one of them, and a
 * deadline is set only when nobody is present on any live instance.
 */
import type { Transactional } from './ports/transactional.ts';
import type { LiveClock, MediaState, Participant, PlaceRef, PlaceSession, SessionOwnerKind } from './presence.ts';
import type { PlacementStore } from './sfu/placement-store.ts';
import type { Meeting } from './types.ts';

/** A slug resolved for the front end, across organizations. */
export type SlugPlace =
  | { kind: 'room'; id: string; organizationId: string; slug: string; title: string | null }
  | {
      kind: 'board' | 'queue';
      id: string;
      organizationId: string;
      slug: string;
      name: string;
      isActive: boolean;
      closingMessage: string | null;
      hasWaitingList: boolean;
    };

export type NewParticipant = Omit<Participant, 'place'>;

/** A participant taken out of a place by the store (a dead or retiring instance). */
export interface RemovedPresence {
  connectionId: string;
  place: PlaceRef;
}

/** A meeting or session the sweeper closed, with the organization it belongs to. */
export interface ClosedPlace {
  place: PlaceRef;
  organizationId: string;
}

/** Presence and meeting-place deadlines (`store.live`). */
export interface LiveStore {
  /** Records that `instanceId` is alive. Returns false when its row was missing (first beat, or it was reaped as dead). */
  heartbeat(instanceId: string, at: Date): Promise<boolean>;

  /**
   * Adds a participant to an open meeting and clears its deadline, in one
   * transaction. Returns false (and changes nothing) when the meeting is
   * unknown, deleted, closed, or past its deadline.
   */
  enterMeeting(meetingId: string, participant: NewParticipant, at: Date): Promise<boolean>;

  /**
   * Adds a participant to the open session of a room or board, starting a
   * new session when none is open (or the open one is past its deadline).
   * Returns the session.
   */
  enterSession(ownerKind: SessionOwnerKind, ownerId: string, participant: NewParticipant, at: Date): Promise<PlaceSession>;

  /**
   * Removes a participant; when nobody is left on a live instance, the place
   * gets its deadline (`at + idleMs`). Returns the place, or undefined when
   * the participant was not present.
   */
  leave(connectionId: string, clock: LiveClock): Promise<PlaceRef | undefined>;

  setMedia(connectionId: string, media: MediaState): Promise<void>;
  /** The participant is no longer shown as the host. */
  dropHost(connectionId: string): Promise<void>;

  /** Participants of a place on live instances, oldest first. */
  listPresent(place: PlaceRef, staleBefore: Date): Promise<Participant[]>;

  /**
   * Removes the presence of instances not seen since `clock.staleBefore`
   * (crashed or cut off) and gives their places deadlines from the last
   * heartbeat. Returns the participants removed.
   */
  reapInstances(clock: LiveClock): Promise<RemovedPresence[]>;

  /** A clean shutdown: removes the instance and its presence as of `clock.at`; returns the participants removed. */
  removeInstance(instanceId: string, clock: LiveClock): Promise<RemovedPresence[]>;

  /**
   * Closes every meeting and session whose deadline has passed, each by one
   * conditional UPDATE (so exactly one instance closes it). Returns them.
   */
  closeDue(at: Date): Promise<ClosedPlace[]>;

  /** Those of `places` that are closed, deleted or past their deadline. */
  endedPlaces(places: PlaceRef[], at: Date): Promise<PlaceRef[]>;

  /**
   * A meeting by id or short code, deleted ones included (the front end
   * answers 410 for those). With `lock`, inside a transaction, writers of
   * the meeting wait until that transaction ends (PostgreSQL `FOR UPDATE`;
   * SQLite runs one write transaction at a time anyway).
   */
  findMeetingRecord(by: { id: string } | { shortCode: string }, options?: { lock?: boolean }): Promise<Meeting | undefined>;
  findSession(id: string): Promise<PlaceSession | undefined>;
  /** The organization a meeting or session belongs to (deleted meetings included), or undefined. */
  findPlaceOrganization(place: PlaceRef): Promise<string | undefined>;
  /** The room, board or queue at `slug`, across organizations. */
  findSlugPlace(slug: string): Promise<SlugPlace | undefined>;
}

/** Places and presence: who is where, meeting-place deadlines, and where the SFU holds each place (places.ts, joining.ts, presence.ts, sfu/). */
export interface PlacePorts extends PlacementStore, Transactional {
  /** Presence and meeting-place deadlines. */
  readonly live: LiveStore;
}

/**
 * @module domain/presence
 * Who is in which meeting place right now. Presence is shared by every
 * Foyer instance through the database: a participant counts while the
 * instance holding their connection keeps heartbeating. Plain data only;
 * the rules that use it are in `lifecycle.ts`.
 */

/**
 * Where participants are together: a meeting, or one session of a room (or
 * of a board without a waiting list). Rooms are permanent addresses; each
 * period of use is its own session, so a room "closes" by ending its
 * session, and the next visitor starts a fresh one.
 */
export type PlaceRef = { kind: 'meeting'; id: string } | { kind: 'session'; id: string };

/** Sessions belong to a room or to a board without a waiting list. */
export type SessionOwnerKind = 'room' | 'board';

export interface MediaState {
  audio: boolean;
  video: boolean;
  screen: boolean;
}

export interface Participant extends MediaState {
  /** The signalling connection's id; also the participant's id for peers. */
  id: string;
  /** The Foyer instance holding the connection. */
  instanceId: string;
  place: PlaceRef;
  displayName: string;
  joinedAt: Date;
  /** The meeting's host (decided from their session when they joined); shown to everyone as the host. */
  host: boolean;
  /** Who they are across reconnects (member or browser), to recognise a removed participant; null when unknown. */
  guestKey: string | null;
  /** Their socket dropped and they may still come back (within the grace period): shown to others as reconnecting. */
  reconnecting: boolean;
}

export interface PlaceSession {
  id: string;
  ownerKind: SessionOwnerKind;
  ownerId: string;
  startedAt: Date;
  closesAt: Date | null;
  closedAt: Date | null;
}

/**
 * The clock of one lifecycle step: `at` is now, `idleMs` the spec's 15
 * minutes, and instances not seen since `staleBefore` count as gone.
 */
export interface LiveClock {
  at: Date;
  idleMs: number;
  staleBefore: Date;
}

export function placeKey(place: PlaceRef): string {
  return `${place.kind}:${place.id}`;
}

/**
 * @module domain/waiting/types
 * A client's way through a board's or queue's waiting list.
 *
 *   waiting ──accept / take next──▶ reserved ──member joins the call──▶ in_call ──call ends──▶ served
 *      │  ▲                             │                                   │
 *      │  └─── lease lapses, or the member is gone: back to the front ◀─────┘
 *      ├── the client leaves, or stays away past the grace period ──▶ left
 *      ├── a board member declines ──▶ declined
 *      └── the space is deactivated or deleted ──▶ closed
 *
 * The front of the line is the earliest arrival still waiting; a client who
 * returns to the line keeps their arrival time, so they are back at the
 * front, not the back.
 */

export type WaitingState = 'waiting' | 'reserved' | 'in_call' | 'served' | 'left' | 'declined' | 'closed';

/** The states a wait ends in. */
export type FinalWaitingState = 'served' | 'left' | 'declined' | 'closed';

/**
 * Why a wait ended, in a word, and the final state each leads to:
 * `hung_up` (served: either side hung up, or the call was ended for
 * everyone), `client_left` (left: the client's Leave, in line or in a
 * call), `grace_expired` (left: away from the line past the grace period),
 * `client_gone` (left: away from their call or reservation past it),
 * `declined` (declined: a board member turned them away), `deactivated`
 * (closed: the board or queue was switched off while they waited),
 * `deleted` (closed: it was deleted, in line or in a call).
 */
export type WaitingOutcome = 'hung_up' | 'client_left' | 'grace_expired' | 'client_gone' | 'declined' | 'deactivated' | 'deleted';

/** States in which a client is still somebody's concern. */
export const ACTIVE_STATES: readonly WaitingState[] = ['waiting', 'reserved', 'in_call'];

export interface WaitingEntry {
  id: string;
  spaceId: string;
  organizationId: string;
  displayName: string;
  /** SHA-256 of the token the client's page keeps, so a reload can take its place back. */
  tokenHash: string;
  state: WaitingState;
  arrivedAt: Date;
  /** The client's waiting-page connection, while connected. */
  connectionId: string | null;
  instanceId: string | null;
  /** When the connection dropped: the grace period runs from here. */
  disconnectedAt: Date | null;
  /** The member serving (or who reserved) the client. */
  servedBy: string | null;
  /** A reservation lapses at this moment unless the member has joined the call. */
  reservedUntil: Date | null;
  /** The private call's meeting. */
  meetingId: string | null;
  acceptedAt: Date | null;
  callStartedAt: Date | null;
  endedAt: Date | null;
  /** Why the entry ended, in a word (a WaitingOutcome; older rows may hold another word). */
  outcome: string | null;
  /** A board member's message to a declined client. */
  message: string | null;
}

/** An open member console: who is online for a space. */
export interface MemberConsole {
  connectionId: string;
  spaceId: string;
  organizationId: string;
  userId: string;
  instanceId: string;
  openedAt: Date;
}

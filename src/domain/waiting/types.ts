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
 * `unanswered` (left: a place whose page never answered its view, ended when
 * its socket closed or stayed silent), `removed` (declined: a member took
 * the place out of the line),
 * `client_gone` (left: away from their call or reservation past it),
 * `declined` (declined: a board member turned them away), `deactivated`
 * (closed: the board or queue was switched off while they waited),
 * `deleted` (closed: it was deleted, in line or in a call).
 */
export type WaitingOutcome =
  | 'hung_up'
  | 'client_left'
  | 'grace_expired'
  | 'unanswered'
  | 'client_gone'
  | 'declined'
  | 'removed'
  | 'deactivated'
  | 'deleted';

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
  /** The device and network check the client's page reported; null until it did. */
  readiness: Readiness | null;
  /** A keyed hash of the address the client arrived from, for the per-address cap (null: unknown). */
  addressKey: string | null;
  /** When the client's page first answered its view: only then does the entry get a grace period. */
  answeredAt: Date | null;
}

/** A device's state in the check: working, switched off by the client, blocked (permission), missing, or failed otherwise. */
export type DeviceReadiness = 'ok' | 'off' | 'blocked' | 'missing' | 'failed';
/** The signalling round trip: good under 150 ms, fair under 400 ms, poor above, unknown when it could not be measured. */
export type NetworkReadiness = 'good' | 'fair' | 'poor' | 'unknown';

/** A waiting client's device and network check, as it travels to the console, the webhook and the REST line. */
export interface Readiness {
  camera: DeviceReadiness;
  microphone: DeviceReadiness;
  network: NetworkReadiness;
}

const DEVICE: readonly string[] = ['ok', 'off', 'blocked', 'missing', 'failed'];
const NETWORK: readonly string[] = ['good', 'fair', 'poor', 'unknown'];

/** A readiness from a page, or null when it is not one (anything else is dropped, never stored). */
export function parseReadiness(value: unknown): Readiness | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { camera, microphone, network } = value as Record<string, unknown>;
  if (typeof camera !== 'string' || !DEVICE.includes(camera)) return null;
  if (typeof microphone !== 'string' || !DEVICE.includes(microphone)) return null;
  if (typeof network !== 'string' || !NETWORK.includes(network)) return null;
  return { camera, microphone, network } as Readiness;
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

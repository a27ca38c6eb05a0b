/**
 * @module realtime/session
 * The seams of a signalling connection, as interfaces (so that no module
 * imports one that imports it back):
 * - a `Session` is what a connection is for, decided by its first message:
 *   a meeting participant, a knocker, a waiting client, a member's
 *   console. Each role has its own handler table and its own close
 *   behaviour; a new role is a new session type (see sessions/), never a
 *   new branch in the connection.
 * - a `SessionHost` is the connection as its session sees it: transport,
 *   ordered queue, who opened it.
 * - `RealtimeServices` is what every session and handler may use of the
 *   instance: the live domain context, the bus, the registry of places,
 *   the participant lists held here, the waiting lines.
 */
import type { IceServer } from './ice.ts';
import type { Actor } from '../domain/actors.ts';
import type { LiveContext } from '../domain/lifecycle.ts';
import type { MediaState, PlaceRef } from '../domain/presence.ts';
import type { BusMessage } from './bus.ts';
import type { WaitingLists, Watched } from './waiting-lists.ts';
import type { ClientMessage, ServerMessage, VideoWant } from './protocol.ts';
import type { Registry } from './registry.ts';
import type { ParticipantLists } from './participant-lists.ts';
import type { SfuLinkRole } from './sfu-link-role.ts';
export type { SfuLinkRole } from './sfu-link-role.ts';
import type { SfuParking } from './sfu-parking.ts';
import type { SfuPlaces, SfuRouting } from './sfu-places.ts';
import type { SignInWatch } from './sign-in-watch.ts';

export type { Watched, SfuRouting };

export interface RealtimeLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface RealtimeServices {
  readonly ctx: LiveContext;
  readonly log: RealtimeLogger;
  /** Delivers to this instance and to every other one. */
  publish(message: BusMessage): void;
  /** Keeps `promise` in the set the instance waits for when it stops. */
  track<T>(promise: Promise<T>): Promise<T>;
  readonly registry: Registry;
  readonly participantLists: ParticipantLists;
  readonly waitingLists: WaitingLists;
  /** Which places here use the SFU; it tells their participants (sfu-places.ts). */
  readonly sfuPlaces: SfuPlaces;
  /** SFU links of participants whose socket dropped, kept through the resume grace (sfu-parking.ts). */
  readonly sfuParking: SfuParking;
  /** The Janus servers behind places of several people; absent when every place stays peer-to-peer. */
  sfu: SfuRouting | undefined;
  /** The ICE servers (with fresh TURN credentials) a participant is welcomed with. */
  iceServers(): IceServer[];
  /** ICE_TRANSPORT_POLICY: `relay` when every participant must use the TURN relay. */
  readonly iceTransportPolicy: 'all' | 'relay';
  /** The member rights held by this instance's sockets, and their end. */
  readonly signIns: SignInWatch;
  /** RESUME_GRACE_SECONDS in ms: how long a participant whose socket dropped is kept; 0: they leave at once. */
  readonly resumeGraceMs: number;
}


/** The connection, as its session (and the first message's handler) sees it. */
export interface SessionHost {
  readonly id: string;
  readonly services: RealtimeServices;
  /**
   * The signed-in member whose browser opened it (its session cookie, same
   * site only), if any; null again once that session ends (sign-in-watch.ts).
   */
  readonly member: Actor | null;
  /** Who this is across reconnects: the member, or the browser's participant cookie (hashed); null when unknown. */
  readonly guestKey: string | null;
  /** The client's address (as the HTTP side sees it, so behind TRUST_PROXY the forwarded one); null when unknown. */
  readonly address: string | null;
  /** The transport closed; whatever a step still does, its session's close undoes after it. */
  readonly gone: boolean;
  send(message: ServerMessage): void;
  /** Tells the client why (an `error` message), then closes with `code`. */
  refuse(code: number, errorCode: string, message: string): void;
  close(code: number, reason: string): void;
  /** Runs `step` after every message (and step) before it. */
  enqueue(step: () => Promise<void>): void;
  /** From now on the connection is `session`'s: its messages, its close. */
  become(session: Session): void;
  /** A member's pass was accepted for its join: it acts as that member from now on. */
  actAs(member: Actor): void;
  /** The member rights it held ended (sign-in-watch.ts): it acts as a guest from now on. */
  signedOut(): void;
}

export type SessionRole = 'participant' | 'knocker' | 'waiting' | 'console';

export type MessageOf<T extends ClientMessage['type']> = Extract<ClientMessage, { type: T }>;
export type Handler<S, T extends ClientMessage['type']> = (session: S, message: MessageOf<T>) => Promise<void> | void;
/** The messages a role takes; any other (but `ping`) is refused with `wrong_state`. */
export type HandlerTable<S> = { readonly [T in ClientMessage['type']]?: Handler<S, T> };

/** How a socket ended. */
export interface ClosedHow {
  /**
   * It dropped: it ended without a closing handshake (1006: the network
   * went, or the server ended a socket that stopped answering pings), not
   * by a close of this side (a `leave`, a refusal, an end). A participant
   * is then kept for the resume grace.
   */
  dropped: boolean;
}

export interface Session {
  readonly role: SessionRole;
  /** Its own role's table (typed for that role; the connection passes the session itself). */
  readonly handlers: HandlerTable<never>;
  /** The transport closed: undo what the role holds. Runs after every message in flight. */
  closed(how: ClosedHow): Promise<void>;
  /** The member rights the connection held ended (their session, or the member): act as a guest, or close. */
  signedOut?(): void;
}

/** A participant's session, as its message handlers use it. */
export interface ParticipantRole {
  readonly connection: SessionHost;
  /** Their participant id (their first socket's, kept across resumes): `from` of what they send. */
  readonly id: string;
  readonly place: PlaceRef;
  /** In a meeting as its host (until their member rights end). */
  readonly host: boolean;
  /** Their display name, as the others see it. */
  readonly name: string;
  /** Records the newest media state; written and announced at a bounded rate. */
  announceMedia(media: MediaState): void;
  /** Raises or lowers their hand; announced at a bounded rate, the newest state always. */
  raiseHand(raised: boolean): void;
  /** The host turned the place's chat off (as this instance last heard). */
  readonly chatOff: boolean;
  /** Whether one more chat message (or reaction) is within their rate; counts it when it is. */
  allow(kind: 'chat' | 'reaction'): boolean;
  /** The participant's link to the SFU (created on first use); undefined without an SFU. */
  sfuLink(): SfuLinkRole | undefined;
}

/** A waiting client's session, as its message handlers use it. */
export interface WaitingRole {
  readonly connection: SessionHost;
  readonly entryId: string;
}

/** A member's console, as its message handlers use it. */
export interface ConsoleRole {
  readonly connection: SessionHost;
  /** The member acting (a console exists only with a member's session). */
  readonly actor: Actor;
  readonly watched: Watched;
}

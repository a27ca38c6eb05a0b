/**
 * @module realtime/registry
 * The connections of this instance, and who of them is in which place: the
 * participants and the knockers, by place, for whatever the bus brings
 * (a relayed offer, a place's end, a host's decision). Knows no session
 * class, only what the bus router and the sweeper ask of a place's
 * members.
 */
import type { Actor } from '../domain/actors.ts';
import { placeKey, type PlaceRef } from '../domain/presence.ts';
import type { ServerMessage } from './protocol.ts';
import type { HeldLink } from './sfu-link-role.ts';

/** A connection, as the instance holds it. */
export interface Held {
  readonly id: string;
  close(code: number, reason: string): void;
  /** The transport is gone: the connection's session undoes what it holds. */
  closed(code?: number): void;
}

interface InPlace {
  /** The connection's id: the participant's (or knock's) id. */
  readonly id: string;
  readonly place: PlaceRef;
  /** The place ended: tell them, then close. */
  end(reason: 'closed' | 'deleted', byHost: boolean): void;
}

/** A participant in a place. */
export interface Participating extends InPlace {
  readonly role: 'participant';
  /** The meeting's host. */
  readonly host: boolean;
  readonly member: Actor | null;
  /** Their hand is raised. */
  readonly hand: boolean;
  /** The host lowered their hand. */
  lowerHand(): void;
  /** The meeting's chat is off: their messages are refused. */
  readonly chatOff: boolean;
  /** The host turned the meeting's chat off or on: their messages are refused or relayed from now on. */
  chatTurned(off: boolean): void;
  /** Tells every instance their hand's state again (a list read from the database has no hands). */
  reannounceHand(): void;
  send(message: ServerMessage): void;
  refuse(code: number, errorCode: string, message: string): void;
  /** The place uses the SFU: tell the browser (once), which then publishes to it. */
  useSfu(): void;
  /** The connection holding them (a participant resumed elsewhere is held by another). */
  readonly connection: { readonly id: string };
  /** They came back on another socket: this one closes, leaving nothing (and closing an SFU link not handed over). */
  takenOver(): void;
  /** They came back on another socket of this instance: their SFU link, if any, goes on with it. */
  handOverLink(): HeldLink | undefined;
}

/** Someone knocking at a meeting, waiting for its host. */
export interface Knocking extends InPlace {
  readonly role: 'knocker';
  /** The host let them in: they enter. */
  admitted(): void;
  /** The host turned them away. */
  turnedAway(): void;
}

export type PlaceMember = Participating | Knocking;

export class Registry {
  private readonly connections = new Map<string, Held>();
  private readonly byPlace = new Map<string, Map<string, PlaceMember>>();

  open(connection: Held): void {
    this.connections.set(connection.id, connection);
  }

  forget(connection: Held): void {
    this.connections.delete(connection.id);
  }

  /** Every local connection (for the sweeper's "rejoin" and for shutdown). */
  all(): Held[] {
    return [...this.connections.values()];
  }

  get size(): number {
    return this.connections.size;
  }

  enter(member: PlaceMember): void {
    const key = placeKey(member.place);
    let members = this.byPlace.get(key);
    if (!members) this.byPlace.set(key, (members = new Map()));
    members.set(member.id, member);
  }

  /** Removes `member` from its place; returns whether participants of the place remain here. */
  leave(member: PlaceMember): boolean {
    const key = placeKey(member.place);
    const members = this.byPlace.get(key);
    if (members?.get(member.id) === member) members.delete(member.id);
    if (members?.size === 0) this.byPlace.delete(key);
    return this.participants(member.place).length > 0;
  }

  /** Everyone of `place` on this instance: participants and knockers. */
  members(place: PlaceRef): PlaceMember[] {
    return [...(this.byPlace.get(placeKey(place))?.values() ?? [])];
  }

  participants(place: PlaceRef): Participating[] {
    return this.members(place).filter((m): m is Participating => m.role === 'participant');
  }

  member(place: PlaceRef, id: string): PlaceMember | undefined {
    return this.byPlace.get(placeKey(place))?.get(id);
  }

  /** The places this instance has someone in. */
  places(): PlaceRef[] {
    return [...this.byPlace.values()].flatMap((members) => {
      const first = members.values().next().value as PlaceMember | undefined;
      return first ? [first.place] : [];
    });
  }

  /** Ends everyone of `place` on this instance. */
  end(place: PlaceRef, reason: 'closed' | 'deleted', byHost = false): void {
    for (const member of this.members(place)) member.end(reason, byHost);
  }
}

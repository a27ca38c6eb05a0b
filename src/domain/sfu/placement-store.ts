/**
 * @module domain/sfu/placement-store
 * What SFU placement needs from storage (part of `Store`): which Janus
 * server (and which room on it) each place (meeting or room session) lives on, shared by
 * every Foyer instance so they all route a meeting to the same Janus.
 * Every change is one conditional statement, so of two instances placing
 * (or moving) one place at once exactly one decides, and the other reads
 * that decision.
 */
import type { PlaceRef } from '../presence.ts';

export interface Placement {
  place: PlaceRef;
  /** The server's label (`host:port` of a pool member, or `local@host`). */
  server: string;
  /** The VideoRoom room id on that server. */
  room: number;
  placedAt: Date;
}

/** One server's share of the placed places (from the database: every instance sees the same). */
export interface ServerLoad {
  server: string;
  rooms: number;
  participants: number;
}

export interface PlacementStore {
  findPlacement(place: PlaceRef): Promise<Placement | undefined>;
  /** Records `placement` unless its place has one already; returns the place's placement, this one or the earlier. */
  insertPlacement(placement: Placement): Promise<Placement>;
  /**
   * Moves the place to `to` when it is still on `fromServer`. Returns the
   * place's placement afterwards (moved by this call or by someone else),
   * or undefined when the place has none.
   */
  movePlacement(place: PlaceRef, fromServer: string, to: Omit<Placement, 'place'>): Promise<Placement | undefined>;
  /** Forgets the place's placement; returns it, or undefined when there was none. */
  deletePlacement(place: PlaceRef): Promise<Placement | undefined>;
  /** The places on `server`, oldest placement first. */
  listPlacements(server: string): Promise<Placement[]>;
  /**
   * Per server holding placements: its rooms, and the participants present
   * in them on instances seen since `staleBefore`.
   */
  placementLoads(staleBefore: Date): Promise<ServerLoad[]>;
}

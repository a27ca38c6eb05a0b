/**
 * @module domain/sfu/placement
 * Which Janus server carries a place (a meeting or a room session) once it uses the SFU. The
 * rules:
 * - a place is put on the live server with the fewest participants present
 *   (then the fewest rooms, then by name, so every instance agrees on ties);
 * - once placed, it stays there while that server is up, whatever the load
 *   elsewhere, so nobody's media moves without need;
 * - when its server is down (as the pool running this decides: a server it
 *   knows), the place is placed again, in a new room, on the least loaded
 *   live server; a place on a server this pool does not know is left alone
 *   (another deployment's view of the pool is not ours to overrule);
 * - with no live server the place has none, and stays peer-to-peer.
 * The decision is recorded in the database (PlacementStore) by one
 * conditional write, so concurrent instances end with the same answer.
 *
 * Janus itself is the caller's business: the room the placement names is
 * created on the server by whoever uses it first (creating it is
 * idempotent), after the placement is recorded, so a lost race wastes
 * nothing.
 */
import type { PlaceRef } from '../presence.ts';
import type { Placement, PlacementStore, ServerLoad } from './placement-store.ts';

export type { Placement, ServerLoad };

/** A server of the pool as its health watch sees it now. */
export interface PoolServer {
  label: string;
  up: boolean;
}

/** The live server that should take the next place, or undefined when none is up. */
export function leastLoaded(servers: readonly PoolServer[], loads: readonly ServerLoad[]): string | undefined {
  const byServer = new Map(loads.map((l) => [l.server, l]));
  const load = (label: string) => byServer.get(label) ?? { server: label, rooms: 0, participants: 0 };
  return servers
    .filter((s) => s.up)
    .map((s) => load(s.label))
    .sort((a, b) => a.participants - b.participants || a.rooms - b.rooms || (a.server < b.server ? -1 : a.server > b.server ? 1 : 0))[0]?.server;
}

export interface PlacementOptions {
  store: PlacementStore;
  servers: readonly PoolServer[];
  /** Presence on instances not seen since then does not count as load. */
  staleBefore: Date;
  /** A fresh room id (random: rooms of re-placed meetings never collide with old ones). */
  newRoom: () => number;
  at: Date;
}

export type PlacementOutcome =
  /** Where the place is now; `fresh` when this call put it there (a new or moved placement). */
  | { placement: Placement; fresh: boolean }
  /** No live server to put it on. */
  | { placement: undefined; fresh: false };

/** The place's placement: kept while its server is up, otherwise made (or made again) on the least loaded live server. */
export async function placeOf(place: PlaceRef, options: PlacementOptions): Promise<PlacementOutcome> {
  const { store, servers } = options;
  const existing = await store.findPlacement(place);
  if (existing) {
    const known = servers.find((s) => s.label === existing.server);
    if (!known || known.up) return { placement: existing, fresh: false };
  }
  const target = leastLoaded(servers, await store.placementLoads(options.staleBefore));
  if (!target) return existing ? { placement: existing, fresh: false } : { placement: undefined, fresh: false };
  const wanted: Placement = { place, server: target, room: options.newRoom(), placedAt: options.at };
  const result = existing ? await store.movePlacement(place, existing.server, wanted) : await store.insertPlacement(wanted);
  // Released meanwhile (the meeting ended): place it afresh.
  if (!result) return placeOf(place, options);
  return { placement: result, fresh: sameRoom(result, wanted) };
}

/**
 * Places again every place of a server that is down, each on the least
 * loaded live server at that moment. Returns the placements this call
 * made; places another instance moved first are left where it put them.
 */
export async function replaceFrom(deadServer: string, options: PlacementOptions): Promise<Placement[]> {
  const moved: Placement[] = [];
  for (const old of await options.store.listPlacements(deadServer)) {
    const outcome = await placeOf(old.place, options);
    if (outcome.fresh) moved.push(outcome.placement);
  }
  return moved;
}

function sameRoom(a: Placement, b: Placement): boolean {
  return a.server === b.server && a.room === b.room;
}

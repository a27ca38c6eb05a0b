/**
 * @module store/queries/placements
 * Where each place's SFU room is. Placing is an insert that does
 * nothing when the place is already placed, moving is an update on the
 * server the mover saw, and both then read the row back: of two instances
 * doing either at once, one writes and both return the same placement.
 */
import type { PlacementStore } from '../../domain/sfu/placement-store.ts';
import type { Placement } from '../../domain/sfu/placement-store.ts';
import type { PlaceRef } from '../../domain/presence.ts';
import { toDate } from '../mappers.ts';
import type { SfuPlacementsTable } from '../schema.ts';
import type { Db, QueryContext } from './db.ts';

function rowToPlacement(r: SfuPlacementsTable): Placement {
  const place = { kind: r.place_kind, id: r.place_id } as PlaceRef;
  return { place, server: r.server, room: Number(r.room), placedAt: toDate(r.placed_at) };
}

function find(db: Db, place: PlaceRef): Promise<SfuPlacementsTable | undefined> {
  return db.selectFrom('sfu_placements').selectAll().where('place_kind', '=', place.kind).where('place_id', '=', place.id).executeTakeFirst();
}

export const placementQueries: PlacementStore & ThisType<QueryContext> = {
  async findPlacement(place) {
    const row = await find(this.db, place);
    return row && rowToPlacement(row);
  },

  async insertPlacement(p) {
    await this.db
      .insertInto('sfu_placements')
      .values({ place_kind: p.place.kind, place_id: p.place.id, server: p.server, room: p.room, placed_at: p.placedAt.getTime() })
      .onConflict((oc) => oc.columns(['place_kind', 'place_id']).doNothing())
      .execute();
    const row = await find(this.db, p.place);
    // Deleted between the two statements (the meeting ended at that moment): report what was asked.
    return row ? rowToPlacement(row) : p;
  },

  async movePlacement(place, fromServer, to) {
    await this.db
      .updateTable('sfu_placements')
      .set({ server: to.server, room: to.room, placed_at: to.placedAt.getTime() })
      .where('place_kind', '=', place.kind)
      .where('place_id', '=', place.id)
      .where('server', '=', fromServer)
      .execute();
    const row = await find(this.db, place);
    return row && rowToPlacement(row);
  },

  async deletePlacement(place) {
    const row = await this.db
      .deleteFrom('sfu_placements')
      .where('place_kind', '=', place.kind)
      .where('place_id', '=', place.id)
      .returningAll()
      .executeTakeFirst();
    return row && rowToPlacement(row);
  },

  async listPlacements(server) {
    const rows = await this.db.selectFrom('sfu_placements').selectAll().where('server', '=', server).orderBy('placed_at').orderBy('place_id').execute();
    return rows.map(rowToPlacement);
  },

  async placementLoads(staleBefore) {
    const rows = await this.db
      .selectFrom('sfu_placements as p')
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('presence')
            .innerJoin('instances', 'instances.id', 'presence.instance_id')
            .select(['presence.place_kind', 'presence.place_id', 'presence.connection_id'])
            .where('instances.seen_at', '>=', staleBefore.getTime())
            .as('present'),
        (join) => join.onRef('present.place_kind', '=', 'p.place_kind').onRef('present.place_id', '=', 'p.place_id'),
      )
      .select((eb) => [
        'p.server',
        // Room ids are random per placement: one per place.
        eb.fn.count<number>('p.room').distinct().as('rooms'),
        eb.fn.count<number>('present.connection_id').as('participants'),
      ])
      .groupBy('p.server')
      .orderBy('p.server')
      .execute();
    return rows.map((r) => ({ server: r.server, rooms: Number(r.rooms), participants: Number(r.participants) }));
  },
};

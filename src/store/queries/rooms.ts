/**
 * @module store/queries/rooms
 * Rooms, and the slug namespace they share with boards and queues: every
 * insert takes its slug in `slugs` in the same transaction, so a slug
 * names at most one place.
 */
import type { RoomStore } from '../../domain/meeting-ports.ts';
import { roomToRow, rowToRoom } from '../mappers.ts';
import { atomically, olderThan, translated, type QueryContext } from './db.ts';
import { slugQueries, takeSlug } from './slugs.ts';

export const roomQueries: RoomStore & ThisType<QueryContext> = {
  ...slugQueries,

  async insertRoom(room) {
    await translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        await takeSlug(trx, { slug: room.slug, kind: 'room', objectId: room.id, organizationId: room.organizationId, at: room.createdAt });
        await trx.insertInto('rooms').values(roomToRow(room)).execute();
      }),
    );
  },

  async findRoom(organizationId, slug) {
    const row = await this.db
      .selectFrom('rooms')
      .selectAll()
      .where('slug', '=', slug)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return row && rowToRoom(row);
  },

  async listRooms(organizationId, page) {
    let query = this.db.selectFrom('rooms').selectAll().where('organization_id', '=', organizationId);
    if (page.before) query = query.where(olderThan(page.before));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
    return rows.map(rowToRoom);
  },
};

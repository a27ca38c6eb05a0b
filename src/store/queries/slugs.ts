/**
 * @module store/queries/slugs
 * The slug namespace shared by rooms, boards and queues (table `slugs`),
 * with the reservations of migration 020: a slug given up stays in the
 * table, reserved to its organization until `reserved_until`, so the
 * primary key keeps anyone else from taking it without a check that could
 * race. Taking a slug first clears a reservation the taker may clear (its
 * own organization's, or one that lapsed).
 */
import type { ReleasedSlug, RoomStore } from '../../domain/meeting-ports.ts';
import { toMillis } from '../mappers.ts';
import type { SlugsTable } from '../schema.ts';
import type { Db, QueryContext } from './db.ts';

/** Takes `slug` for an object of `organizationId`; fails on the primary key when someone else holds or reserves it. Call in a transaction. */
export async function takeSlug(db: Db, taken: { slug: string; kind: SlugsTable['kind']; objectId: string; organizationId: string; at: Date }): Promise<void> {
  await db
    .deleteFrom('slugs')
    .where('slug', '=', taken.slug)
    .where('reserved_until', 'is not', null)
    .where((eb) => eb.or([eb('organization_id', '=', taken.organizationId), eb('reserved_until', '<=', toMillis(taken.at))]))
    .execute();
  await db
    .insertInto('slugs')
    .values({ slug: taken.slug, kind: taken.kind, object_id: taken.objectId, organization_id: taken.organizationId, released_at: null, reserved_until: null, released_as: null })
    .execute();
}

/** Gives up the slug `slug` of `objectId`: reserved to its organization until `until`. Call in a transaction. */
export async function releaseSlug(db: Db, slug: string, objectId: string, released: { as: 'moved' | 'ended'; at: Date; until: Date }): Promise<void> {
  await db
    .updateTable('slugs')
    .set({ released_at: toMillis(released.at), reserved_until: toMillis(released.until), released_as: released.as })
    .where('slug', '=', slug)
    .where('object_id', '=', objectId)
    .where('reserved_until', 'is', null)
    .execute();
}

export const slugQueries: Pick<RoomStore, 'findReleasedSlug'> & ThisType<QueryContext> = {
  async findReleasedSlug(slug, at) {
    const row = await this.db
      .selectFrom('slugs')
      .selectAll()
      .where('slug', '=', slug)
      .where('reserved_until', '>', toMillis(at))
      .executeTakeFirst();
    if (!row?.organization_id) return undefined;
    // A moved slug points to where its place is now (it may have moved again since); a place deleted since has ended.
    const current = row.released_as === 'moved'
      ? await this.db.selectFrom('slugs').select('slug').where('object_id', '=', row.object_id).where('reserved_until', 'is', null).executeTakeFirst()
      : undefined;
    const released: ReleasedSlug = { slug, organizationId: row.organization_id, kind: row.kind, currentSlug: current?.slug ?? null };
    return released;
  },
};

/**
 * @module store/queries/spaces
 * Boards and queues ("spaces") with their member lists. Writes that touch
 * the slug namespace or the member list are one transaction each, so a
 * space never disagrees with its slug or its members.
 */
import { ConflictError } from '../../domain/errors.ts';
import type { Member, SpaceKind } from '../../domain/types.ts';
import type { MemberState, SpaceStore } from '../../domain/waiting/ports.ts';
import { rowToMember, rowToSpace, spaceToRow, toInt, toMillis, toMillisOrNull } from '../mappers.ts';
import type { SpaceMembersTable, SpacesTable } from '../schema.ts';
import { atomically, olderThan, translated, type Db, type QueryContext } from './db.ts';
import { releaseSlug, takeSlug } from './slugs.ts';

export const spaceQueries: SpaceStore & ThisType<QueryContext> = {
  async insertSpace(space) {
    await translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        await takeSlug(trx, { slug: space.slug, kind: space.kind, objectId: space.id, organizationId: space.organizationId, at: space.createdAt });
        await trx.insertInto('spaces').values(spaceToRow(space)).execute();
        await insertMembers(trx, space.id, space.members);
      }),
    );
  },

  async findSpace(organizationId, kind, id, options = {}) {
    // SQLite has no row locks and needs none: one write transaction runs at a time.
    return loadSpace(this.db, organizationId, kind, id, options.lock === true && this.dialect === 'postgres');
  },

  async findSpaceById(organizationId, id) {
    const row = await this.db.selectFrom('spaces').select('kind').where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();
    return row && loadSpace(this.db, organizationId, row.kind, id, false);
  },

  async updateSpace(organizationId, kind, id, patch, at) {
    return translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        const row = await findSpaceRow(trx, organizationId, kind, id, false);
        if (!row) return undefined;
        if (patch.slug !== undefined && patch.slug !== row.slug) {
          // The slugs primary key makes a taken (or another organization's reserved) slug fail here, inside the transaction.
          await takeSlug(trx, { slug: patch.slug, kind, objectId: id, organizationId, at });
          if (patch.oldSlugReservedUntil) await releaseSlug(trx, row.slug, id, { as: 'moved', at, until: patch.oldSlugReservedUntil });
          else await trx.deleteFrom('slugs').where('slug', '=', row.slug).where('object_id', '=', id).where('reserved_until', 'is', null).execute();
        }
        const changes: Partial<SpacesTable> = { updated_at: toMillis(at) };
        if (patch.name !== undefined) changes.name = patch.name;
        if (patch.slug !== undefined) changes.slug = patch.slug;
        if (patch.closingMessage !== undefined) changes.closing_message = patch.closingMessage;
        if (patch.isActive !== undefined) changes.is_active = toInt(patch.isActive);
        if (patch.hasWaitingList !== undefined) changes.has_waiting_list = toInt(patch.hasWaitingList);
        await trx.updateTable('spaces').set(changes).where('id', '=', id).execute();
        if (patch.members !== undefined) await replaceMembers(trx, id, patch.members);
        return loadSpace(trx, organizationId, kind, id, false);
      }),
    );
  },

  async deleteSpace(organizationId, kind, id, slugReservedUntil) {
    return translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        const space = await loadSpace(trx, organizationId, kind, id, false);
        if (!space) return undefined;
        await trx.deleteFrom('space_members').where('space_id', '=', id).execute();
        await trx.deleteFrom('spaces').where('id', '=', id).execute();
        if (slugReservedUntil) await releaseSlug(trx, space.slug, id, { as: 'ended', ...slugReservedUntil });
        else await trx.deleteFrom('slugs').where('slug', '=', space.slug).where('object_id', '=', id).execute();
        return space;
      }),
    );
  },

  async listSpaces(organizationId, kind, page) {
    let query = this.db.selectFrom('spaces').selectAll().where('organization_id', '=', organizationId).where('kind', '=', kind);
    if (page.before) query = query.where(olderThan(page.before));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
    // One query for the members of the whole page, not one per space.
    const members = await membersOf(this.db, rows.map((r) => r.id));
    return rows.map((row) => rowToSpace(row, members.get(row.id) ?? []));
  },
};

function findSpaceRow(db: Db, organizationId: string, kind: SpaceKind, id: string, lock: boolean) {
  let query = db
    .selectFrom('spaces')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('kind', '=', kind);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

async function loadSpace(db: Db, organizationId: string, kind: SpaceKind, id: string, lock: boolean) {
  const row = await findSpaceRow(db, organizationId, kind, id, lock);
  if (!row) return undefined;
  return rowToSpace(row, (await membersOf(db, [id])).get(id) ?? []);
}

/** The members of each of `spaceIds`, in their order. */
async function membersOf(db: Db, spaceIds: string[]): Promise<Map<string, Member[]>> {
  const bySpace = new Map<string, Member[]>();
  if (spaceIds.length === 0) return bySpace;
  const rows = await db
    .selectFrom('space_members')
    .innerJoin('users', 'users.id', 'space_members.user_id')
    .select([
      'space_members.space_id',
      'space_members.user_id',
      'users.full_name',
      'space_members.is_active',
      'space_members.is_auto_accepting',
      'space_members.joined_call_at',
    ])
    .where('space_members.space_id', 'in', spaceIds)
    .orderBy('space_members.space_id')
    .orderBy('space_members.position')
    .execute();
  for (const row of rows) {
    const list = bySpace.get(row.space_id) ?? [];
    list.push(rowToMember(row));
    bySpace.set(row.space_id, list);
  }
  return bySpace;
}

/**
 * Makes the member list `members`, in that order: removes those not listed,
 * adds new ones with their given state, and only moves the kept ones. A
 * kept member's row is updated in place (not deleted and inserted again),
 * so their live state (status, current client, call) written concurrently
 * by the waiting list is never overwritten by an older copy.
 */
async function replaceMembers(db: Db, spaceId: string, members: readonly MemberState[]): Promise<void> {
  const userIds = members.map((m) => m.userId);
  // As the primary key would refuse a repeated member on insert.
  if (new Set(userIds).size !== userIds.length) throw new ConflictError('memberIds', 'A member is listed more than once.');
  let removal = db.deleteFrom('space_members').where('space_id', '=', spaceId);
  if (userIds.length) removal = removal.where('user_id', 'not in', userIds);
  await removal.execute();
  const kept = new Set((await db.selectFrom('space_members').select('user_id').where('space_id', '=', spaceId).execute()).map((r) => r.user_id));
  const added: MemberState[] = [];
  for (const [position, member] of members.entries()) {
    if (kept.has(member.userId)) {
      await db.updateTable('space_members').set({ position }).where('space_id', '=', spaceId).where('user_id', '=', member.userId).execute();
    } else {
      added.push(member);
    }
  }
  await insertMembers(db, spaceId, added, members);
}

async function insertMembers(db: Db, spaceId: string, members: readonly MemberState[], order: readonly MemberState[] = members): Promise<void> {
  if (members.length === 0) return;
  const rows: SpaceMembersTable[] = members.map((m) => ({
    space_id: spaceId,
    user_id: m.userId,
    position: order.indexOf(m),
    is_active: toInt(m.isActive),
    is_auto_accepting: toInt(m.isAutoAccepting),
    joined_call_at: toMillisOrNull(m.joinedCallAt),
  }));
  await db.insertInto('space_members').values(rows).execute();
}

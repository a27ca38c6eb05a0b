/**
 * @module store/kysely-store
 * The one `Store` implementation. Every query is written once in Kysely and
 * runs unchanged on SQLite and PostgreSQL; the dialect modules only open
 * the connection and translate driver errors (see `sqlite.ts`,
 * `postgres.ts`). Multi-table writes run in one transaction, so the slug
 * namespace and the member lists never disagree with their objects.
 */
import { Migrator, sql, type Kysely, type Transaction } from 'kysely';
import { ValidationError } from '../domain/errors.ts';
import { normalizeEmail } from '../domain/text.ts';
import type { ApiKey, Meeting, Member, Organization, Room, Space, SpaceKind, User } from '../domain/types.ts';
import {
  apiKeyToRow,
  meetingToRow,
  organizationToRow,
  roomToRow,
  rowToApiKey,
  rowToMeeting,
  rowToMember,
  rowToOrganization,
  rowToRoom,
  rowToSpace,
  rowToUser,
  spaceToRow,
  toInt,
  toMillis,
  toMillisOrNull,
  userToRow,
} from './mappers.ts';
import { KyselyLiveStore } from './kysely-live-store.ts';
import { migrationProvider } from './migrations/index.ts';
import type { Database, SpaceMembersTable, SpacesTable } from './schema.ts';
import type { SpacePatch, Store } from './store.ts';
import type { HourlyUsage, OrganizationQuota, UsageIncrement } from '../domain/usage.ts';

export type Dialect = 'sqlite' | 'postgres';

/**
 * Turns a driver error into a domain error (unique violation -> ConflictError),
 * or returns it unchanged when it is not one the domain can act on.
 */
export type ErrorTranslator = (error: unknown) => unknown;

type Db = Kysely<Database> | Transaction<Database>;

const MEMBERS_FIELD = 'membersIds';
/** Rows per usage upsert: 4 parameters each, well under SQLite's 32766-parameter cap. */
const USAGE_CHUNK = 500;

export class KyselyStore implements Store {
  readonly live: KyselyLiveStore;

  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect,
    private readonly translate: ErrorTranslator,
  ) {
    this.live = new KyselyLiveStore(db);
  }

  async migrate(): Promise<string[]> {
    const migrator = new Migrator({ db: this.db, provider: migrationProvider });
    const { error, results } = await migrator.migrateToLatest();
    if (error !== undefined) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`Database migration ${failed} failed.`, { cause: error });
    }
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }

  /** Runs a write and translates driver errors into domain errors. */
  private async write<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.translate(error);
    }
  }

  // Organizations and users.

  async insertOrganization(org: Organization): Promise<void> {
    await this.write(() => this.db.insertInto('organizations').values(organizationToRow(org)).execute());
  }

  async findOrganization(idOrSlug: string): Promise<Organization | undefined> {
    const row = await this.db
      .selectFrom('organizations')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', idOrSlug), eb('slug', '=', idOrSlug)]))
      // An id wins over a slug that happens to look like another org's id.
      .orderBy(sql`case when id = ${idOrSlug} then 0 else 1 end`)
      .executeTakeFirst();
    return row && rowToOrganization(row);
  }

  async listOrganizations(): Promise<Organization[]> {
    const rows = await this.db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('slug').execute();
    return rows.map(rowToOrganization);
  }

  async insertUser(user: User): Promise<void> {
    await this.write(() => this.db.insertInto('users').values(userToRow(user)).execute());
  }

  async listUsers(organizationId: string): Promise<User[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('email_lower')
      .execute();
    return rows.map(rowToUser);
  }

  async findUserByEmail(organizationId: string, email: string): Promise<User | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('email_lower', '=', normalizeEmail(email))
      .executeTakeFirst();
    return row && rowToUser(row);
  }

  async deleteUser(organizationId: string, userId: string): Promise<boolean> {
    return this.write(() =>
      this.db.transaction().execute(async (trx) => {
        const user = await trx
          .selectFrom('users')
          .select('id')
          .where('id', '=', userId)
          .where('organization_id', '=', organizationId)
          .executeTakeFirst();
        if (!user) return false;
        // Explicit rather than relying on ON DELETE, which SQLite only honours
        // when foreign_keys is on for that connection.
        await trx.deleteFrom('space_members').where('user_id', '=', userId).execute();
        await trx.updateTable('meetings').set({ owner_user_id: null }).where('owner_user_id', '=', userId).execute();
        await trx.deleteFrom('users').where('id', '=', userId).execute();
        return true;
      }),
    );
  }

  // API keys.

  async insertApiKey(key: ApiKey): Promise<void> {
    await this.write(() => this.db.insertInto('api_keys').values(apiKeyToRow(key)).execute());
  }

  async findApiKey(publicKey: string): Promise<ApiKey | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('public_key', '=', publicKey).executeTakeFirst();
    return row && rowToApiKey(row);
  }

  async listApiKeys(organizationId: string): Promise<ApiKey[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('public_key')
      .execute();
    return rows.map(rowToApiKey);
  }

  async revokeApiKey(publicKey: string, at: Date): Promise<ApiKey | undefined> {
    return this.write(() =>
      this.db.transaction().execute(async (trx) => {
        // `revoked_at is null` keeps the first revocation time.
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: toMillis(at) })
          .where('public_key', '=', publicKey)
          .where('revoked_at', 'is', null)
          .execute();
        const row = await trx.selectFrom('api_keys').selectAll().where('public_key', '=', publicKey).executeTakeFirst();
        return row && rowToApiKey(row);
      }),
    );
  }

  // Meetings.

  async insertMeeting(meeting: Meeting): Promise<void> {
    await this.write(() => this.db.insertInto('meetings').values(meetingToRow(meeting)).execute());
  }

  async findMeeting(organizationId: string, id: string): Promise<Meeting | undefined> {
    const row = await this.db
      .selectFrom('meetings')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && rowToMeeting(row);
  }

  async findMeetingById(id: string): Promise<Meeting | undefined> {
    const row = await this.db
      .selectFrom('meetings')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && rowToMeeting(row);
  }

  async findMeetingByShortCode(shortCode: string): Promise<Meeting | undefined> {
    const row = await this.db
      .selectFrom('meetings')
      .selectAll()
      .where('short_code', '=', shortCode)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row && rowToMeeting(row);
  }

  async deleteMeeting(organizationId: string, id: string, at: Date): Promise<Meeting | undefined> {
    return this.write(() =>
      this.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('meetings')
          .selectAll()
          .where('id', '=', id)
          .where('organization_id', '=', organizationId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!row) return undefined;
        const result = await trx
          .updateTable('meetings')
          .set({ deleted_at: toMillis(at) })
          .where('id', '=', id)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        // A concurrent delete won the race: for this caller it no longer exists.
        if (Number(result.numUpdatedRows) === 0) return undefined;
        return { ...rowToMeeting(row), deletedAt: at };
      }),
    );
  }

  // Rooms.

  async insertRoom(room: Room): Promise<void> {
    await this.write(() =>
      this.db.transaction().execute(async (trx) => {
        await trx.insertInto('slugs').values({ slug: room.slug, kind: 'room', object_id: room.id }).execute();
        await trx.insertInto('rooms').values(roomToRow(room)).execute();
      }),
    );
  }

  async findRoom(organizationId: string, slug: string): Promise<Room | undefined> {
    const row = await this.db
      .selectFrom('rooms')
      .selectAll()
      .where('slug', '=', slug)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return row && rowToRoom(row);
  }

  async findRoomBySlug(slug: string): Promise<Room | undefined> {
    const row = await this.db.selectFrom('rooms').selectAll().where('slug', '=', slug).executeTakeFirst();
    return row && rowToRoom(row);
  }

  // Boards and queues.

  async insertSpace(space: Space): Promise<void> {
    await this.write(() =>
      this.db.transaction().execute(async (trx) => {
        await trx.insertInto('slugs').values({ slug: space.slug, kind: space.kind, object_id: space.id }).execute();
        await trx.insertInto('spaces').values(spaceToRow(space)).execute();
        const userIds = space.members.map((m) => m.userId);
        await assertMembersOf(trx, space.organizationId, userIds);
        await insertMembers(trx, space.id, space.members);
      }),
    );
  }

  async findSpace(organizationId: string, kind: SpaceKind, id: string): Promise<Space | undefined> {
    return loadSpace(this.db, organizationId, kind, id);
  }

  async updateSpace(
    organizationId: string,
    kind: SpaceKind,
    id: string,
    patch: SpacePatch,
    at: Date,
  ): Promise<Space | undefined> {
    return this.write(() =>
      this.db.transaction().execute(async (trx) => {
        const row = await findSpaceRow(trx, organizationId, kind, id);
        if (!row) return undefined;

        if (patch.slug !== undefined && patch.slug !== row.slug) {
          // The slugs primary key makes a taken slug fail here, inside the transaction.
          await trx.updateTable('slugs').set({ slug: patch.slug }).where('slug', '=', row.slug).execute();
        }

        const changes: Partial<SpacesTable> = { updated_at: toMillis(at) };
        if (patch.name !== undefined) changes.name = patch.name;
        if (patch.slug !== undefined) changes.slug = patch.slug;
        if (patch.closingMessage !== undefined) changes.closing_message = patch.closingMessage;
        if (patch.isActive !== undefined) changes.is_active = toInt(patch.isActive);
        if (patch.hasWaitingList !== undefined && kind === 'board') changes.has_waiting_list = toInt(patch.hasWaitingList);
        await trx.updateTable('spaces').set(changes).where('id', '=', id).execute();

        if (patch.memberIds !== undefined) await replaceMembers(trx, organizationId, id, patch.memberIds);

        return loadSpace(trx, organizationId, kind, id);
      }),
    );
  }

  async deleteSpace(organizationId: string, kind: SpaceKind, id: string): Promise<Space | undefined> {
    return this.write(() =>
      this.db.transaction().execute(async (trx) => {
        const space = await loadSpace(trx, organizationId, kind, id);
        if (!space) return undefined;
        await trx.deleteFrom('space_members').where('space_id', '=', id).execute();
        await trx.deleteFrom('spaces').where('id', '=', id).execute();
        await trx.deleteFrom('slugs').where('slug', '=', space.slug).where('object_id', '=', id).execute();
        return space;
      }),
    );
  }

  // Request totals and quotas.

  async recordUsage(increments: UsageIncrement[]): Promise<void> {
    if (increments.length === 0) return;
    await this.write(() =>
      this.db.transaction().execute(async (trx) => {
        // Chunked: SQLite caps bound parameters per statement.
        for (let i = 0; i < increments.length; i += USAGE_CHUNK) {
          const rows = increments.slice(i, i + USAGE_CHUNK).map((u) => ({
            api_key_id: u.apiKeyId,
            organization_id: u.organizationId,
            hour_start: u.hourStart,
            requests: u.requests,
          }));
          await trx
            .insertInto('usage_hourly')
            .values(rows)
            // Adds rather than overwrites, so several instances flushing the same hour all count.
            .onConflict((oc) =>
              oc.columns(['api_key_id', 'hour_start']).doUpdateSet((eb) => ({
                requests: eb('usage_hourly.requests', '+', eb.ref('excluded.requests')),
              })),
            )
            .execute();
        }
      }),
    );
  }

  async listHourlyUsage(organizationId: string, from: Date, to: Date): Promise<HourlyUsage[]> {
    const rows = await this.db
      .selectFrom('usage_hourly')
      .select(['api_key_id', 'hour_start', 'requests'])
      .where('organization_id', '=', organizationId)
      .where('hour_start', '>=', toMillis(from))
      .where('hour_start', '<', toMillis(to))
      .orderBy('hour_start')
      .execute();
    return rows.map((r) => ({ apiKeyId: r.api_key_id, hourStart: Number(r.hour_start), requests: Number(r.requests) }));
  }

  async findOrganizationQuota(organizationId: string): Promise<OrganizationQuota | undefined> {
    const row = await this.db
      .selectFrom('organization_quotas')
      .select(['hourly_limit', 'daily_limit'])
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!row) return undefined;
    const n = (v: number | null) => (v === null ? null : Number(v));
    return { hourly: n(row.hourly_limit), daily: n(row.daily_limit) };
  }

  async setOrganizationQuota(organizationId: string, quota: OrganizationQuota): Promise<void> {
    const row = { organization_id: organizationId, hourly_limit: quota.hourly, daily_limit: quota.daily };
    await this.write(() =>
      this.db
        .insertInto('organization_quotas')
        .values(row)
        .onConflict((oc) =>
          oc.column('organization_id').doUpdateSet({ hourly_limit: quota.hourly, daily_limit: quota.daily }),
        )
        .execute(),
    );
  }
}

async function findSpaceRow(db: Db, organizationId: string, kind: SpaceKind, id: string) {
  return db
    .selectFrom('spaces')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

async function loadSpace(db: Db, organizationId: string, kind: SpaceKind, id: string): Promise<Space | undefined> {
  const row = await findSpaceRow(db, organizationId, kind, id);
  if (!row) return undefined;
  const members = await db
    .selectFrom('space_members')
    .innerJoin('users', 'users.id', 'space_members.user_id')
    .select([
      'space_members.user_id',
      'users.full_name',
      'space_members.is_active',
      'space_members.is_auto_accepting',
      'space_members.joined_call_at',
    ])
    .where('space_members.space_id', '=', id)
    .orderBy('space_members.position')
    .execute();
  return rowToSpace(row, members.map(rowToMember));
}

/**
 * Refuses duplicates and anyone who is not a user of the organization, so a
 * space can never list another organization's people.
 */
async function assertMembersOf(db: Db, organizationId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  if (new Set(userIds).size !== userIds.length) {
    throw ValidationError.field(MEMBERS_FIELD, 'A member is listed more than once.');
  }
  const found = await db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', 'in', userIds)
    .execute();
  if (found.length !== userIds.length) {
    throw ValidationError.field(MEMBERS_FIELD, 'Every member must be a user of the organization.');
  }
}

async function insertMembers(db: Db, spaceId: string, members: Member[]): Promise<void> {
  if (members.length === 0) return;
  const rows: SpaceMembersTable[] = members.map((m, position) => ({
    space_id: spaceId,
    user_id: m.userId,
    position,
    is_active: toInt(m.isActive),
    is_auto_accepting: toInt(m.isAutoAccepting),
    joined_call_at: toMillisOrNull(m.joinedCallAt),
  }));
  await db.insertInto('space_members').values(rows).execute();
}

/** New members start active, not auto-accepting, not in a call; kept members keep their state. */
async function replaceMembers(db: Db, organizationId: string, spaceId: string, userIds: string[]): Promise<void> {
  await assertMembersOf(db, organizationId, userIds);
  const current = await db.selectFrom('space_members').selectAll().where('space_id', '=', spaceId).execute();
  const byUser = new Map(current.map((m) => [m.user_id, m]));
  await db.deleteFrom('space_members').where('space_id', '=', spaceId).execute();
  if (userIds.length === 0) return;
  const rows: SpaceMembersTable[] = userIds.map((userId, position) => {
    const kept = byUser.get(userId);
    return {
      space_id: spaceId,
      user_id: userId,
      position,
      is_active: kept ? (kept.is_active ? 1 : 0) : 1,
      is_auto_accepting: kept ? (kept.is_auto_accepting ? 1 : 0) : 0,
      joined_call_at: kept ? kept.joined_call_at : null,
    };
  });
  await db.insertInto('space_members').values(rows).execute();
}

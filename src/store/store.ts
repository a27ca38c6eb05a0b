/**
 * @module store/store
 * The one storage interface. Two implementations (SQLite, PostgreSQL) share
 * the Kysely code in `kysely-store.ts` and must pass `store.contract.ts`.
 *
 * Rules every implementation keeps:
 * - Reads scoped by organization return `undefined` for another
 *   organization's objects, exactly as for unknown ones.
 * - Unique violations surface as `ConflictError` (domain), never as driver
 *   errors; the field named is the domain field (`slug`, `id`, `email`...).
 * - Slugs of rooms, boards and queues share one namespace.
 */
import type {
  ApiKey,
  Meeting,
  Organization,
  Room,
  Space,
  SpaceKind,
  User,
} from '../domain/types.ts';
import type { HourlyUsage, OrganizationQuota, UsageIncrement } from '../domain/usage.ts';
import type { LiveStore } from './live-store.ts';

export interface SpacePatch {
  name?: string;
  slug?: string;
  closingMessage?: string | null;
  isActive?: boolean;
  hasWaitingList?: boolean;
  /** Replaces the member set; order is kept. Must be users of the same organization. */
  memberIds?: string[];
}

export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Presence and meeting-place deadlines (see live-store.ts). */
  readonly live: LiveStore;

  // Organizations and users (operator only).
  insertOrganization(org: Organization): Promise<void>;
  /** By id or by slug. */
  findOrganization(idOrSlug: string): Promise<Organization | undefined>;
  listOrganizations(): Promise<Organization[]>;
  insertUser(user: User): Promise<void>;
  listUsers(organizationId: string): Promise<User[]>;
  /** Case-insensitive on email. */
  findUserByEmail(organizationId: string, email: string): Promise<User | undefined>;
  /** Returns false when there was no such user. Removes the user from boards and queues. */
  deleteUser(organizationId: string, userId: string): Promise<boolean>;

  // API keys.
  insertApiKey(key: ApiKey): Promise<void>;
  findApiKey(publicKey: string): Promise<ApiKey | undefined>;
  listApiKeys(organizationId: string): Promise<ApiKey[]>;
  /** Returns the key as revoked, or undefined when unknown. Revoking twice keeps the first time. */
  revokeApiKey(publicKey: string, at: Date): Promise<ApiKey | undefined>;

  // Meetings.
  insertMeeting(meeting: Meeting): Promise<void>;
  /** Deleted meetings are not found. */
  findMeeting(organizationId: string, id: string): Promise<Meeting | undefined>;
  /** Across organizations: the public front end resolves links by id or short code. */
  findMeetingById(id: string): Promise<Meeting | undefined>;
  findMeetingByShortCode(shortCode: string): Promise<Meeting | undefined>;
  /** Marks deleted; returns the meeting with `deletedAt` set, or undefined when not found (or already deleted). The id stays taken. */
  deleteMeeting(organizationId: string, id: string, at: Date): Promise<Meeting | undefined>;

  // Rooms.
  insertRoom(room: Room): Promise<void>;
  findRoom(organizationId: string, slug: string): Promise<Room | undefined>;
  /** Across organizations, for the public front end. */
  findRoomBySlug(slug: string): Promise<Room | undefined>;

  // Boards and queues.
  insertSpace(space: Space): Promise<void>;
  findSpace(organizationId: string, kind: SpaceKind, id: string): Promise<Space | undefined>;
  /** Applies the patch atomically; returns the updated space, or undefined when not found. */
  updateSpace(
    organizationId: string,
    kind: SpaceKind,
    id: string,
    patch: SpacePatch,
    at: Date,
  ): Promise<Space | undefined>;
  /** Returns the space as it was before deletion, or undefined. Frees its slug. */
  deleteSpace(organizationId: string, kind: SpaceKind, id: string): Promise<Space | undefined>;

  // Request totals and quotas (see domain/usage.ts).
  /** Adds each increment to its (key, hour) total, in one transaction; increments must be unique per (key, hour). */
  recordUsage(increments: UsageIncrement[]): Promise<void>;
  /** Hourly totals of an organization's keys with hourStart in [from, to). */
  listHourlyUsage(organizationId: string, from: Date, to: Date): Promise<HourlyUsage[]>;
  findOrganizationQuota(organizationId: string): Promise<OrganizationQuota | undefined>;
  setOrganizationQuota(organizationId: string, quota: OrganizationQuota): Promise<void>;
}

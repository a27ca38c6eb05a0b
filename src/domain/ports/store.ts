/**
 * @module domain/ports/store
 * What the domain needs from storage, one port per aggregate, and the
 * `Store` that joins them. `src/store/` implements it on SQLite and
 * PostgreSQL (one Kysely code base) and must pass `store.contract.ts`.
 *
 * Rules every implementation keeps:
 * - Reads scoped by organization return `undefined` for another
 *   organization's objects, exactly as for unknown ones.
 * - Unique violations surface as `ConflictError`, never as driver errors;
 *   the field named is the domain field (`slug`, `id`, `email`...).
 * - Slugs of rooms, boards and queues share one namespace.
 * - The store keeps data, not rules: who may be a member, what a new
 *   member's state is, what can be joined are decided in the domain.
 */
import type {
  ApiKey,
  DailyUsage,
  HourlyUsage,
  Meeting,
  Member,
  Organization,
  OrganizationChange,
  OrganizationQuota,
  OrganizationRole,
  Room,
  Space,
  SpaceKind,
  UsageIncrement,
  User,
} from '../types.ts';
import type { LiveStore } from './live-store.ts';
import type { HostingStore } from './hosting-store.ts';
import type { MemberStore } from './member-store.ts';
import type { SsoStore } from './sso-store.ts';
import type { WaitingStore } from './waiting-store.ts';
import type { WebhookStore } from './webhook-store.ts';
import type { PlacementStore } from '../sfu/placement-store.ts';

/**
 * Where a newest-first list continues: after the object created at
 * `createdAt` with `id` (objects created in the same millisecond are
 * ordered by id), so a page never repeats or skips one while others are
 * added.
 */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

/** One page of a newest-first list: at most `limit` objects older than `before`. */
export interface PageRequest {
  limit: number;
  before?: PageCursor | undefined;
}

export interface OrganizationStore {
  insertOrganization(org: Organization): Promise<void>;
  /** By id or by slug. */
  findOrganization(idOrSlug: string): Promise<Organization | undefined>;
  listOrganizations(): Promise<Organization[]>;
  insertUser(user: User): Promise<void>;
  listUsers(organizationId: string): Promise<User[]>;
  /** Case-insensitive on email. */
  findUserByEmail(organizationId: string, email: string): Promise<User | undefined>;
  /** Returns false when there was no such user. Removes the user from boards and queues and as meeting owner. */
  deleteUser(organizationId: string, userId: string): Promise<boolean>;
  /** Returns the user with the new role, or undefined when the organization has no such user. */
  setUserRole(organizationId: string, userId: string, role: OrganizationRole): Promise<User | undefined>;
  /** Ids of the organization's users who have set a password. */
  usersWithPassword(organizationId: string): Promise<string[]>;
  /** The origins allowed to embed the organization's pages, in the order set. */
  listAllowedOrigins(organizationId: string): Promise<string[]>;
  /** Replaces them, in this order (each once). */
  replaceAllowedOrigins(organizationId: string, origins: readonly string[], at: Date): Promise<void>;
}

/** The record of changes to an organization's members and settings, written in the transaction of each change. */
export interface OrganizationChangeStore {
  insertOrganizationChange(change: OrganizationChange): Promise<void>;
  /** The organization's changes, newest first (same-millisecond ones by id, descending). */
  listOrganizationChanges(organizationId: string, page: PageRequest): Promise<OrganizationChange[]>;
}

export interface ApiKeyStore {
  insertApiKey(key: ApiKey): Promise<void>;
  /** Across organizations: a request names only its public key. */
  findApiKey(publicKey: string): Promise<ApiKey | undefined>;
  /** By id, within the organization: another organization's key is not found. */
  findApiKeyById(organizationId: string, id: string): Promise<ApiKey | undefined>;
  /** Oldest first. */
  listApiKeys(organizationId: string): Promise<ApiKey[]>;
  /** Returns the key as revoked, or undefined when the organization has no such key. Revoking twice keeps the first time. */
  revokeApiKey(organizationId: string, publicKey: string, at: Date): Promise<ApiKey | undefined>;
}

export interface MeetingStore {
  insertMeeting(meeting: Meeting): Promise<void>;
  /** Deleted meetings are not found. */
  findMeeting(organizationId: string, id: string): Promise<Meeting | undefined>;
  /** Marks deleted; returns the meeting with `deletedAt` set, or undefined when not found (or already deleted). The id stays taken. */
  deleteMeeting(organizationId: string, id: string, at: Date): Promise<Meeting | undefined>;
  /** Closes an open meeting now (not past its deadline, not deleted); returns it closed, or undefined when it was not open. */
  closeMeeting(id: string, at: Date): Promise<Meeting | undefined>;
  /** The organization's meetings, newest first, deleted ones included (with `deletedAt`). */
  listMeetings(organizationId: string, page: PageRequest): Promise<Meeting[]>;
  /** Meetings of every organization neither closed nor deleted at `at` (for the operator's metrics). */
  countOpenMeetings(at: Date): Promise<number>;
}

/** A slug an organization gave up, still reserved to it. */
export interface ReleasedSlug {
  slug: string;
  organizationId: string;
  kind: 'room' | 'board' | 'queue';
  /** Where its place is now (renamed); null when the place was deleted. */
  currentSlug: string | null;
}

export interface RoomStore {
  /**
   * Takes the room's slug in the shared namespace: a slug in use, or
   * reserved to another organization, fails as taken (ConflictError); one
   * reserved to the room's own organization is taken back.
   */
  insertRoom(room: Room): Promise<void>;
  /** The slug, when it was given up and is reserved at `at` (to whichever organization). */
  findReleasedSlug(slug: string, at: Date): Promise<ReleasedSlug | undefined>;
  findRoom(organizationId: string, slug: string): Promise<Room | undefined>;
  /** The organization's rooms, newest first. */
  listRooms(organizationId: string, page: PageRequest): Promise<Room[]>;
}

/** A member's stored state; the name comes from the user. */
export type MemberState = Omit<Member, 'fullName'>;

/** A change to a board or queue; absent fields stay as they are. */
export interface SpacePatch {
  name?: string;
  slug?: string;
  closingMessage?: string | null;
  isActive?: boolean;
  hasWaitingList?: boolean;
  /** Replaces the member list, in this order, with these states. */
  members?: MemberState[];
  /** With a new `slug`: the old one stays reserved to the organization until then. */
  oldSlugReservedUntil?: Date;
}

export interface SpaceStore {
  /** Takes the space's slug in the shared namespace; stores its members (users of its organization). */
  insertSpace(space: Space): Promise<void>;
  /**
   * With `lock`, inside a transaction, concurrent writers of the space wait
   * until that transaction ends (PostgreSQL `FOR UPDATE`; SQLite runs one
   * write transaction at a time anyway).
   */
  findSpace(organizationId: string, kind: SpaceKind, id: string, options?: { lock?: boolean }): Promise<Space | undefined>;
  /** A board or a queue by id, whichever it is. */
  findSpaceById(organizationId: string, id: string): Promise<Space | undefined>;
  /** Applies the patch atomically; returns the updated space, or undefined when not found. */
  updateSpace(organizationId: string, kind: SpaceKind, id: string, patch: SpacePatch, at: Date): Promise<Space | undefined>;
  /**
   * Returns the space as it was before deletion, or undefined. Its slug
   * stays reserved to the organization until `slugReservedUntil` (freed at
   * once without it).
   */
  deleteSpace(organizationId: string, kind: SpaceKind, id: string, slugReservedUntil?: { at: Date; until: Date }): Promise<Space | undefined>;
  /** The organization's boards or queues, newest first, with their members. */
  listSpaces(organizationId: string, kind: SpaceKind, page: PageRequest): Promise<Space[]>;
}

export interface UsageStore {
  /**
   * Adds each increment to its (key, hour) totals, in one transaction;
   * increments must be unique per (key, hour). Moves each key's
   * `lastUsedAt` forward to the latest `lastUsedAt` given for it, never back.
   */
  recordUsage(increments: UsageIncrement[]): Promise<void>;
  /** Hourly totals of an organization's keys with hourStart in [from, to), oldest first. */
  listHourlyUsage(organizationId: string, from: Date, to: Date): Promise<HourlyUsage[]>;
  /** Daily totals (UTC days) of an organization's keys, from the hours in [from, to), oldest first. */
  listDailyUsage(organizationId: string, from: Date, to: Date): Promise<DailyUsage[]>;
  findOrganizationQuota(organizationId: string): Promise<OrganizationQuota | undefined>;
  setOrganizationQuota(organizationId: string, quota: OrganizationQuota): Promise<void>;
}

/** Facts about the service as a whole, shared by every process on the database (see domain/public-url.ts). */
export interface ServiceSettingStore {
  readServiceSetting(name: string): Promise<string | undefined>;
  /** Sets `name`, replacing any earlier value. */
  writeServiceSetting(name: string, value: string, at: Date): Promise<void>;
}

export interface Store
  extends OrganizationStore,
    ServiceSettingStore,
    ApiKeyStore,
    MeetingStore,
    RoomStore,
    SpaceStore,
    UsageStore,
    MemberStore,
    SsoStore,
    WaitingStore,
    HostingStore,
    WebhookStore,
    PlacementStore,
    OrganizationChangeStore {
  /** Presence and meeting-place deadlines (see live-store.ts). */
  readonly live: LiveStore;
  /**
   * Runs `work` in one transaction: every write through `tx` commits
   * together or not at all. Inside a transaction, `tx.transaction` runs its
   * work in the same one. Never use the outer store inside `work`: on
   * SQLite it would wait for the transaction to end.
   */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;
}

/** A store as opened by the composition root: the ports plus the connection's life. */
export interface StoreConnection extends Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  /** The connection pool's state (PostgreSQL); SQLite has one connection and no pool. */
  pool?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

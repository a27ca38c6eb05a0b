/**
 * @module domain/ports/store
 * What the domain needs from storage: the store interfaces (in the files
 * beside this one), grouped into one port per aggregate in
 * `aggregates.ts`, and the `Store` that joins them, re-exported here with
 * the connection the composition root opens. `src/store/` implements it
 * on SQLite and PostgreSQL (one Kysely code base) and must pass
 * `store.contract.ts`.
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
export type { PageCursor, PageRequest } from './page-request.ts';
export type { OrganizationChangeStore, OrganizationStore } from './organization-store.ts';
export type { ApiKeyStore, UsageStore } from './key-store.ts';
export type { MeetingStore, ReleasedSlug, RoomStore } from './meeting-store.ts';
export type { ServiceSettingStore } from './service-setting-store.ts';
export type { MemberState, SpacePatch, SpaceStore } from './space-store.ts';
export type { Store } from './aggregates.ts';
import type { Store } from './aggregates.ts';

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

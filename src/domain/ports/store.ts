/**
 * @module domain/ports/store
 * Every aggregate's port together: the `Store` that `src/store/`
 * implements on SQLite and PostgreSQL (one Kysely code base) and that
 * must pass `store.contract.ts`, and the connection the composition root
 * opens. Each port sits beside its aggregate's commands (meeting-ports.ts,
 * place-ports.ts, waiting/ports.ts, member-ports.ts, key-ports.ts,
 * webhooks/ports.ts, hosting-ports.ts, service-setting-ports.ts), and a
 * command receives only the ports it uses (`DomainContext<MeetingPorts>`);
 * `scripts/commands-name-ports.mjs` refuses a command typed by the whole
 * `Store`.
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
import type { HostingPorts } from '../hosting-ports.ts';
import type { KeyPorts } from '../key-ports.ts';
import type { MeetingPorts } from '../meeting-ports.ts';
import type { MemberPorts } from '../member-ports.ts';
import type { PlacePorts } from '../place-ports.ts';
import type { ServiceSettingPorts } from '../service-setting-ports.ts';
import type { WaitingListPorts } from '../waiting/ports.ts';
import type { WebhookPorts } from '../webhooks/ports.ts';

/** Every aggregate's port together, and the service's own settings: what `src/store/` implements. */
export interface Store extends MeetingPorts, PlacePorts, WaitingListPorts, MemberPorts, KeyPorts, WebhookPorts, HostingPorts, ServiceSettingPorts {}

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

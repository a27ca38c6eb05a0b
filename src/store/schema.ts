/**
 * @module store/schema
 * Kysely table typings: the database as the migrations leave it.
 *
 * Column conventions, identical in both dialects so one query set serves both:
 * - timestamps are epoch milliseconds in integer columns (`bigint` in
 *   PostgreSQL, parsed to `number` by the pool in `postgres.ts`);
 * - booleans are integers 0/1, because better-sqlite3 cannot bind JS booleans;
 * - `meetings.query_parameters` is JSON text.
 * Rows are turned into domain objects only in `mappers.ts`.
 */
import type { Generated } from 'kysely';

/** 0 or 1; see the module comment. */
export type IntBool = 0 | 1;

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  type: string;
  created_at: number;
}

export interface UsersTable {
  id: string;
  organization_id: string;
  email: string;
  /** `email` lower-cased: the unique, case-insensitive lookup key. */
  email_lower: string;
  full_name: string;
  role: string;
  created_at: number;
  /** scrypt hash of the member's password; null until one is set (migration 004). */
  password_hash: string | null;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  public_key: string;
  secret_hash: string;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
  /** '' for keys issued before keys had names (migration 009). */
  name: string;
  /** Last authenticated request, as flushed with the usage totals (migration 009). */
  last_used_at: number | null;
}

export interface MeetingsTable {
  id: string;
  organization_id: string;
  owner_user_id: string | null;
  type: string;
  is_infinite: IntBool;
  query_parameters: string | null;
  short_code: string | null;
  created_at: number;
  closes_at: number | null;
  closed_at: number | null;
  deleted_at: number | null;
  /** 'open', 'locked' or 'until_owner' (migration 014). */
  lock_state: string;
  /** Shown on the call page (migration 019). */
  title?: string | null;
  /** The host turned the chat off (migration 025). */
  chat_off?: IntBool;
  /** When the first participant entered (see migration 013); not part of `Meeting`. */
  started_at?: number | null;
}

export interface RoomsTable {
  id: string;
  organization_id: string;
  slug: string;
  title: string | null;
  created_at: number;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  kind: 'board' | 'queue';
  name: string;
  slug: string;
  is_active: IntBool;
  closing_message: string | null;
  has_waiting_list: IntBool;
  created_at: number;
  updated_at: number;
}

export interface SpaceMembersTable {
  space_id: string;
  user_id: string;
  position: number;
  is_active: IntBool;
  is_auto_accepting: IntBool;
  joined_call_at: number | null;
  /** The client the member serves or has reserved (migration 008). */
  current_entry_id?: string | null;
}

/** The global slug namespace shared by rooms, boards and queues. */
export interface SlugsTable {
  slug: string;
  kind: 'room' | 'board' | 'queue';
  object_id: string;
  /** Migration 020: whose slug it is, and, once given up, until when it stays theirs. */
  organization_id: string | null;
  released_at: number | null;
  reserved_until: number | null;
  released_as: 'moved' | 'ended' | null;
}

/** Accepted requests of one API key in one UTC hour (migration 003). */
export interface UsageHourlyTable {
  api_key_id: string;
  organization_id: string;
  hour_start: number;
  /** Accepted requests: what quotas count. */
  requests: number;
  /** Requests refused with 429 (migration 009). */
  refused: number;
}

/** Operator-set request quotas; null = no ceiling (migration 003). */
export interface OrganizationQuotasTable {
  organization_id: string;
  hourly_limit: number | null;
  daily_limit: number | null;
}

/** A running Foyer process and its last heartbeat (migration 002). */
export interface InstancesTable {
  id: string;
  started_at: number;
  seen_at: number;
}

/** One connected participant (migration 002). */
export interface PresenceTable {
  connection_id: string;
  instance_id: string;
  /** 'meeting' (place_id = meeting id) or 'session' (place_id = place_sessions.id). */
  place_kind: 'meeting' | 'session';
  place_id: string;
  display_name: string;
  audio: IntBool;
  video: IntBool;
  screen: IntBool;
  joined_at: number;
  /** The meeting's host, as decided from their session at join (migration 014). */
  is_host: IntBool;
  /** Who the participant is across reconnects: their member id or their browser's (migration 014). */
  guest_key: string | null;
  /** The connection holding them now; null while they are away (migration 024). */
  socket_id: string | null;
  /** While away: when their grace period ends (migration 024). */
  detached_until: number | null;
  /** SHA-256 of their resume token (migration 024). */
  resume_hash: string | null;
}

/** A period of use of a room or board (migration 002); at most one open per place. */
export interface PlaceSessionsTable {
  id: string;
  /** What the session belongs to: a room, or a board without a waiting list. */
  place_kind: 'room' | 'board';
  place_id: string;
  started_at: number;
  closes_at: number | null;
  closed_at: number | null;
}

/** A signed-in member's session, keyed by the hash of its cookie value (migration 004). */
export interface MemberSessionsTable {
  id_hash: string;
  user_id: string;
  organization_id: string;
  method: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

/** One-time invitation and reset links, by the hash of their token (migration 004). */
export interface MemberLinksTable {
  token_hash: string;
  user_id: string;
  organization_id: string;
  purpose: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A failed sign-in (migration 004). */
export interface SignInFailuresTable {
  email_lower: string;
  address: string;
  at: number;
}

/** A client's way through a waiting list (migration 008). */
export interface WaitingEntriesTable {
  id: string;
  space_id: string;
  organization_id: string;
  display_name: string;
  token_hash: string;
  state: string;
  arrived_at: number;
  connection_id: string | null;
  instance_id: string | null;
  disconnected_at: number | null;
  served_by: string | null;
  reserved_until: number | null;
  meeting_id: string | null;
  accepted_at: number | null;
  call_started_at: number | null;
  ended_at: number | null;
  outcome: string | null;
  message: string | null;
  /** The client's device and network check as JSON (migration 019). */
  readiness?: string | null;
  /** Migration 021. */
  address_key: string | null;
  answered_at: number | null;
}

/** A member's open console for a space (migration 008). */
export interface MemberConsolesTable {
  connection_id: string;
  space_id: string;
  organization_id: string;
  user_id: string;
  instance_id: string;
  opened_at: number;
}

/** An organization's single sign-on client; the secret sealed (migration 010). */
export interface OrganizationSsoTable {
  organization_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  created_at: number;
  updated_at: number;
}

/** An arrival knocking at a locked meeting, one per connection (migration 014). */
export interface MeetingKnocksTable {
  id: string;
  meeting_id: string;
  instance_id: string;
  display_name: string;
  guest_key: string | null;
  was_removed: IntBool;
  state: 'knocking' | 'admitted' | 'turned_away';
  arrived_at: number;
  decided_at: number | null;
}

/** A participant the host removed from a meeting, until let in again (migration 014). */
export interface MeetingRemovalsTable {
  meeting_id: string;
  guest_key: string;
  removed_at: number;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  meetings: MeetingsTable;
  rooms: RoomsTable;
  spaces: SpacesTable;
  space_members: SpaceMembersTable;
  slugs: SlugsTable;
  usage_hourly: UsageHourlyTable;
  organization_quotas: OrganizationQuotasTable;
  instances: InstancesTable;
  presence: PresenceTable;
  place_sessions: PlaceSessionsTable;
  member_sessions: MemberSessionsTable;
  member_links: MemberLinksTable;
  sign_in_failures: SignInFailuresTable;
  waiting_entries: WaitingEntriesTable;
  member_consoles: MemberConsolesTable;
  organization_sso: OrganizationSsoTable;
  meeting_knocks: MeetingKnocksTable;
  meeting_removals: MeetingRemovalsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  sfu_placements: SfuPlacementsTable;
  organization_changes: OrganizationChangesTable;
  allowed_origins: AllowedOriginsTable;
  service_settings: ServiceSettingsTable;
}

/** Settings of the service as a whole, by name (migration 023). */
export interface ServiceSettingsTable {
  name: string;
  value: string;
  updated_at: number;
}

/** Which Janus server and room a meeting place uses (migration 016). */
export interface SfuPlacementsTable {
  place_kind: string;
  place_id: string;
  server: string;
  room: number;
  placed_at: number;
}

/** Origins allowed to embed an organization's pages, in the order set (migration 018). */
export interface AllowedOriginsTable {
  organization_id: string;
  origin: string;
  position: number;
  created_at: number;
}

/** Who changed what in an organization (migration 017); `detail` is a JSON object. */
export interface OrganizationChangesTable {
  id: string;
  organization_id: string;
  created_at: number;
  actor_kind: string;
  actor_id: string | null;
  actor_label: string;
  action: string;
  subject_id: string | null;
  subject_label: string | null;
  detail: string;
}

export interface WebhookEndpointsTable {
  id: string;
  organization_id: string;
  url: string;
  /** JSON list of event types. */
  events: string;
  description: string;
  enabled: IntBool;
  disabled_reason: string | null;
  /** JSON list of `{ sealed, createdAt, expiresAt }` (epoch milliseconds). */
  secrets: string;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveriesTable {
  /** Generated: the order of the outbox. */
  seq: Generated<number>;
  id: string;
  event_id: string;
  organization_id: string;
  endpoint_id: string;
  event_type: string;
  ordering_key: string | null;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  lease_token: string | null;
  lease_until: number | null;
  last_status: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  created_at: number;
}

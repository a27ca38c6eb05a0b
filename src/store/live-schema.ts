/**
 * @module store/live-schema
 * Kysely typings of the presence tables added by migration 002 (kept apart
 * from `schema.ts` so the realtime work touches the shared schema file as
 * little as possible). Same column conventions as `schema.ts`: epoch
 * milliseconds, 0/1 booleans.
 */
import type { Database, IntBool } from './schema.ts';

export interface InstancesTable {
  id: string;
  started_at: number;
  seen_at: number;
}

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
}

export interface PlaceSessionsTable {
  id: string;
  /** What the session belongs to: a room, or a board without a waiting list. */
  place_kind: 'room' | 'board';
  place_id: string;
  started_at: number;
  closes_at: number | null;
  closed_at: number | null;
}

export interface LiveDatabase extends Database {
  instances: InstancesTable;
  presence: PresenceTable;
  place_sessions: PlaceSessionsTable;
}

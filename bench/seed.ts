/**
 * @module bench/seed
 * Bulk-loads meetings for the read benchmark with set-based SQL (a
 * recursive CTE in SQLite, generate_series in PostgreSQL): a million rows
 * in seconds, which the API could never do. Meeting n gets a deterministic
 * UUID v4 (`seededMeetingId`), so the load generator can address any of
 * them without a list.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { parseDatabaseUrl } from '../src/store/open.ts';
import { withDefaultUser } from '../src/store/postgres.ts';

export function seededMeetingId(n: number): string {
  const hex = n.toString(16);
  return `${hex.padStart(8, '0')}-0000-4000-8000-${hex.padStart(12, '0')}`;
}

/** Inserts meetings numbered from+1 .. to for the organization (infinite, so they never close). */
export async function seedMeetings(databaseUrl: string, organizationId: string, from: number, to: number): Promise<void> {
  if (to <= from) return;
  const location = parseDatabaseUrl(databaseUrl);
  const createdAt = Date.now();
  if (location.dialect === 'sqlite') {
    const db = new Database(location.filename);
    db.pragma('busy_timeout = 10000');
    try {
      db.prepare(
        `WITH RECURSIVE seq(n) AS (SELECT ? UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
         INSERT INTO meetings (id, organization_id, owner_user_id, type, is_infinite, query_parameters, short_code, created_at, closes_at, closed_at, deleted_at)
         SELECT printf('%08x-0000-4000-8000-%012x', n, n), ?, NULL, 'MEETING', 1, NULL, NULL, ?, NULL, NULL, NULL FROM seq`,
      ).run(from + 1, to, organizationId, createdAt);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: withDefaultUser(location.connectionString) });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO meetings (id, organization_id, owner_user_id, type, is_infinite, query_parameters, short_code, created_at, closes_at, closed_at, deleted_at)
       SELECT lpad(to_hex(n), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'), $1, NULL, 'MEETING', 1, NULL, NULL, $2, NULL, NULL, NULL
       FROM generate_series($3::bigint, $4::bigint) AS n`,
      [organizationId, createdAt, from + 1, to],
    );
    await client.query('ANALYZE meetings');
  } finally {
    await client.end();
  }
}

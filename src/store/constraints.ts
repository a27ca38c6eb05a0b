/**
 * @module store/constraints
 * Which domain field a unique constraint protects, and what to tell the
 * caller when it is violated. Both dialect translators (`sqlite.ts`,
 * `postgres.ts`) look violations up here: PostgreSQL reports the constraint
 * name, SQLite reports the table and columns. The messages never contain
 * SQL, table names or values.
 */
import { ConflictError } from '../domain/errors.ts';

interface UniqueConstraint {
  /** Name given in the migrations (what PostgreSQL reports). */
  name: string;
  table: string;
  /** Columns in declaration order (what SQLite reports). */
  columns: string[];
  field: string;
  message: string;
}

const SLUG_TAKEN = 'This slug is already taken.';

const uniqueConstraints: UniqueConstraint[] = [
  { name: 'organizations_pkey', table: 'organizations', columns: ['id'], field: 'id', message: 'An organization with this id already exists.' },
  { name: 'organizations_slug_key', table: 'organizations', columns: ['slug'], field: 'slug', message: 'An organization with this slug already exists.' },
  { name: 'users_pkey', table: 'users', columns: ['id'], field: 'id', message: 'A user with this id already exists.' },
  { name: 'users_organization_email_key', table: 'users', columns: ['organization_id', 'email_lower'], field: 'email', message: 'A user with this email already exists in the organization.' },
  { name: 'api_keys_pkey', table: 'api_keys', columns: ['id'], field: 'id', message: 'An API key with this id already exists.' },
  { name: 'api_keys_public_key_key', table: 'api_keys', columns: ['public_key'], field: 'publicKey', message: 'An API key with this public key already exists.' },
  { name: 'meetings_pkey', table: 'meetings', columns: ['id'], field: 'id', message: 'A meeting with this id already exists.' },
  { name: 'meetings_short_code_key', table: 'meetings', columns: ['short_code'], field: 'shortCode', message: 'A meeting with this short code already exists.' },
  { name: 'slugs_pkey', table: 'slugs', columns: ['slug'], field: 'slug', message: SLUG_TAKEN },
  { name: 'rooms_pkey', table: 'rooms', columns: ['id'], field: 'id', message: 'A room with this id already exists.' },
  { name: 'rooms_slug_key', table: 'rooms', columns: ['slug'], field: 'slug', message: SLUG_TAKEN },
  { name: 'spaces_pkey', table: 'spaces', columns: ['id'], field: 'id', message: 'An object with this id already exists.' },
  { name: 'spaces_slug_key', table: 'spaces', columns: ['slug'], field: 'slug', message: SLUG_TAKEN },
  { name: 'space_members_pkey', table: 'space_members', columns: ['space_id', 'user_id'], field: 'memberIds', message: 'A member is listed more than once.' },
];

/** Used when a violation cannot be attributed (should not happen with this schema). */
const fallback = new ConflictError('id', 'The object conflicts with an existing one.');

function toConflict(c: UniqueConstraint | undefined): ConflictError {
  return c ? new ConflictError(c.field, c.message) : new ConflictError(fallback.field, fallback.message);
}

export function conflictForConstraintName(name: string | undefined): ConflictError {
  return toConflict(uniqueConstraints.find((c) => c.name === name));
}

export function conflictForColumns(table: string, columns: string[]): ConflictError {
  const key = columns.join(',');
  return toConflict(uniqueConstraints.find((c) => c.table === table && c.columns.join(',') === key));
}

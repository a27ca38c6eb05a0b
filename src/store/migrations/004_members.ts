/**
 * @module store/migrations/004_members
 * Members who sign in to the dashboard:
 * - `users.password_hash`: the scrypt hash of a member's password (null
 *   until they set one through an invitation link);
 * - `member_sessions`: server-side sessions, keyed by the SHA-256 of the
 *   opaque id in the cookie, so a copy of the table signs nobody in;
 * - `member_links`: one-time invitation and password-reset links, also
 *   stored only as hashes;
 * - `sign_in_failures`: failed sign-ins per account and per address, the
 *   input of the sign-in throttle (shared by every instance).
 */
import type { Kysely, Migration } from 'kysely';

export const members: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();

    await db.schema
      .createTable('member_sessions')
      .addColumn('id_hash', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('member_sessions_pkey', ['id_hash'])
      .addForeignKeyConstraint('member_sessions_user_fkey', ['user_id'], 'users', ['id'], (fk) => fk.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('member_sessions_user_idx').on('member_sessions').column('user_id').execute();

    await db.schema
      .createTable('member_links')
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addPrimaryKeyConstraint('member_links_pkey', ['token_hash'])
      .addForeignKeyConstraint('member_links_user_fkey', ['user_id'], 'users', ['id'], (fk) => fk.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('member_links_user_idx').on('member_links').column('user_id').execute();

    await db.schema
      .createTable('sign_in_failures')
      .addColumn('email_lower', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sign_in_failures_email_idx').on('sign_in_failures').columns(['email_lower', 'at']).execute();
    await db.schema.createIndex('sign_in_failures_address_idx').on('sign_in_failures').columns(['address', 'at']).execute();
    await db.schema.createIndex('sign_in_failures_at_idx').on('sign_in_failures').column('at').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    for (const table of ['sign_in_failures', 'member_links', 'member_sessions']) await db.schema.dropTable(table).execute();
    await db.schema.alterTable('users').dropColumn('password_hash').execute();
  },
};

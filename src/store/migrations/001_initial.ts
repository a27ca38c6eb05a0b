/**
 * @module store/migrations/001_initial
 * The first schema. Written once and never edited: later changes get their
 * own numbered migration. Types are limited to ones both SQLite and
 * PostgreSQL accept (`text`, `integer`, `bigint`). Constraints are named
 * explicitly because `constraints.ts` maps PostgreSQL's constraint names
 * to domain fields when a unique violation occurs.
 */
import type { Kysely, Migration } from 'kysely';

export const initial: Migration = {
  // Migrations must not depend on the current typings, which will move on.
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('organizations')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('organizations_pkey', ['id'])
      .addUniqueConstraint('organizations_slug_key', ['slug'])
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('email_lower', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('users_pkey', ['id'])
      .addUniqueConstraint('users_organization_email_key', ['organization_id', 'email_lower'])
      .addForeignKeyConstraint('users_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('public_key', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('api_keys_pkey', ['id'])
      .addUniqueConstraint('api_keys_public_key_key', ['public_key'])
      .addForeignKeyConstraint('api_keys_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();
    await db.schema.createIndex('api_keys_organization_idx').on('api_keys').column('organization_id').execute();

    await db.schema
      .createTable('meetings')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('owner_user_id', 'text')
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('is_infinite', 'integer', (c) => c.notNull())
      .addColumn('query_parameters', 'text')
      .addColumn('short_code', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('closes_at', 'bigint')
      .addColumn('closed_at', 'bigint')
      .addColumn('deleted_at', 'bigint')
      .addPrimaryKeyConstraint('meetings_pkey', ['id'])
      .addUniqueConstraint('meetings_short_code_key', ['short_code'])
      .addForeignKeyConstraint('meetings_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      // A removed member must not take the meeting with them; it just loses its admin.
      .addForeignKeyConstraint('meetings_owner_fkey', ['owner_user_id'], 'users', ['id'], (fk) =>
        fk.onDelete('set null'),
      )
      .execute();
    await db.schema.createIndex('meetings_organization_idx').on('meetings').column('organization_id').execute();
    await db.schema.createIndex('meetings_owner_idx').on('meetings').column('owner_user_id').execute();
    // For the scan that closes idle meetings whose deadline has passed.
    await db.schema.createIndex('meetings_closes_at_idx').on('meetings').column('closes_at').execute();

    await db.schema
      .createTable('slugs')
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('object_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('slugs_pkey', ['slug'])
      .execute();

    await db.schema
      .createTable('rooms')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('title', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('rooms_pkey', ['id'])
      .addUniqueConstraint('rooms_slug_key', ['slug'])
      .addForeignKeyConstraint('rooms_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();

    await db.schema
      .createTable('spaces')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull())
      .addColumn('closing_message', 'text')
      .addColumn('has_waiting_list', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('spaces_pkey', ['id'])
      .addUniqueConstraint('spaces_slug_key', ['slug'])
      .addForeignKeyConstraint('spaces_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();
    await db.schema.createIndex('spaces_organization_idx').on('spaces').column('organization_id').execute();

    await db.schema
      .createTable('space_members')
      .addColumn('space_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull())
      .addColumn('is_auto_accepting', 'integer', (c) => c.notNull())
      .addColumn('joined_call_at', 'bigint')
      .addPrimaryKeyConstraint('space_members_pkey', ['space_id', 'user_id'])
      .addForeignKeyConstraint('space_members_space_fkey', ['space_id'], 'spaces', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .addForeignKeyConstraint('space_members_user_fkey', ['user_id'], 'users', ['id'], (fk) =>
        fk.onDelete('cascade'),
      )
      .execute();
    await db.schema.createIndex('space_members_user_idx').on('space_members').column('user_id').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    for (const table of ['space_members', 'spaces', 'rooms', 'slugs', 'meetings', 'api_keys', 'users', 'organizations']) {
      await db.schema.dropTable(table).execute();
    }
  },
};

/**
 * @module store/migrations/010_sso
 * Single sign-on per organization: `organization_sso` holds the OpenID
 * Connect issuer and client the operator configured (`foyer org sso`), at
 * most one per organization. The client secret is stored sealed
 * (AES-256-GCM under SSO_SECRET_KEY, see domain/sealing.ts), never in
 * plain text.
 */
import type { Kysely, Migration } from 'kysely';

export const sso: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('organization_sso')
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('organization_sso_pkey', ['organization_id'])
      .addForeignKeyConstraint('organization_sso_org_fkey', ['organization_id'], 'organizations', ['id'], (fk) => fk.onDelete('cascade'))
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('organization_sso').execute();
  },
};

/**
 * @module store/queries/organizations
 * Organizations and their users.
 */
import { sql } from 'kysely';
import type { OrganizationStore } from '../../domain/member-ports.ts';
import { normalizeEmail } from '../../domain/text.ts';
import { organizationToRow, rowToOrganization, rowToUser, userToRow } from '../mappers.ts';
import { atomically, translated, type Db, type QueryContext } from './db.ts';

export const organizationQueries: OrganizationStore & ThisType<QueryContext> = {
  async insertOrganization(org) {
    await translated(this.translate, () => this.db.insertInto('organizations').values(organizationToRow(org)).execute());
  },

  async findOrganization(idOrSlug) {
    const row = await this.db
      .selectFrom('organizations')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', idOrSlug), eb('slug', '=', idOrSlug)]))
      // An id wins over a slug that happens to look like another org's id.
      .orderBy(sql`case when id = ${idOrSlug} then 0 else 1 end`)
      .executeTakeFirst();
    return row && rowToOrganization(row);
  },

  async listOrganizations() {
    const rows = await this.db.selectFrom('organizations').selectAll().orderBy('created_at').orderBy('slug').execute();
    return rows.map(rowToOrganization);
  },

  async insertUser(user) {
    await translated(this.translate, () => this.db.insertInto('users').values(userToRow(user)).execute());
  },

  async listUsers(organizationId) {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('email_lower')
      .execute();
    return rows.map(rowToUser);
  },

  async lockOrganization(organizationId) {
    if (this.dialect !== 'postgres') return;
    await this.db.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
  },

  async findUserByEmail(organizationId, email) {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('email_lower', '=', normalizeEmail(email))
      .executeTakeFirst();
    return row && rowToUser(row);
  },

  async deleteUser(organizationId, userId) {
    return translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        const user = await trx
          .selectFrom('users')
          .select('id')
          .where('id', '=', userId)
          .where('organization_id', '=', organizationId)
          .executeTakeFirst();
        if (!user) return false;
        // Explicit rather than relying on ON DELETE, which SQLite only honours
        // when foreign_keys is on for that connection.
        await trx.deleteFrom('space_members').where('user_id', '=', userId).execute();
        // A removed member is signed out everywhere at once, and their links stop working.
        await trx.deleteFrom('member_sessions').where('user_id', '=', userId).execute();
        await trx.deleteFrom('member_links').where('user_id', '=', userId).execute();
        await trx.updateTable('meetings').set({ owner_user_id: null }).where('owner_user_id', '=', userId).execute();
        await trx.deleteFrom('users').where('id', '=', userId).execute();
        return true;
      }),
    );
  },

  async setUserRole(organizationId, userId, role) {
    const row = await this.db
      .updateTable('users')
      .set({ role })
      .where('id', '=', userId)
      .where('organization_id', '=', organizationId)
      .returningAll()
      .executeTakeFirst();
    return row && rowToUser(row);
  },

  async usersWithPassword(organizationId) {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('password_hash', 'is not', null)
      .execute();
    return rows.map((r) => r.id);
  },

  async listAllowedOrigins(organizationId) {
    const rows = await this.db.selectFrom('allowed_origins').select('origin').where('organization_id', '=', organizationId).orderBy('position').execute();
    return rows.map((r) => r.origin);
  },

  async replaceAllowedOrigins(organizationId, origins, at) {
    await atomically(this.db, async (trx) => {
      await trx.deleteFrom('allowed_origins').where('organization_id', '=', organizationId).execute();
      if (origins.length === 0) return;
      await trx
        .insertInto('allowed_origins')
        .values(origins.map((origin, position) => ({ organization_id: organizationId, origin, position, created_at: at.getTime() })))
        .execute();
    });
  },
};

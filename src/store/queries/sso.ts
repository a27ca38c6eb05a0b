/**
 * @module store/queries/sso
 * Organizations' single sign-on clients.
 */
import type { SsoStore } from '../../domain/member-ports.ts';
import type { OrganizationSso } from '../../domain/types.ts';
import { toDate, toMillis } from '../mappers.ts';
import type { OrganizationSsoTable } from '../schema.ts';
import type { QueryContext } from './db.ts';

export const ssoQueries: SsoStore & ThisType<QueryContext> = {
  async putOrganizationSso(sso) {
    const row = ssoToRow(sso);
    await this.db
      .insertInto('organization_sso')
      .values(row)
      .onConflict((oc) =>
        oc.column('organization_id').doUpdateSet({
          issuer: row.issuer,
          client_id: row.client_id,
          client_secret_sealed: row.client_secret_sealed,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  },

  async findOrganizationSso(organizationId) {
    const row = await this.db.selectFrom('organization_sso').selectAll().where('organization_id', '=', organizationId).executeTakeFirst();
    return row && rowToSso(row);
  },

  async deleteOrganizationSso(organizationId) {
    const result = await this.db.deleteFrom('organization_sso').where('organization_id', '=', organizationId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  },

  async anyOrganizationSso() {
    const row = await this.db.selectFrom('organization_sso').select('organization_id').limit(1).executeTakeFirst();
    return row !== undefined;
  },
};

function ssoToRow(s: OrganizationSso): OrganizationSsoTable {
  return {
    organization_id: s.organizationId,
    issuer: s.issuer,
    client_id: s.clientId,
    client_secret_sealed: s.clientSecretSealed,
    created_at: toMillis(s.createdAt),
    updated_at: toMillis(s.updatedAt),
  };
}

function rowToSso(r: OrganizationSsoTable): OrganizationSso {
  return {
    organizationId: r.organization_id,
    issuer: r.issuer,
    clientId: r.client_id,
    clientSecretSealed: r.client_secret_sealed,
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

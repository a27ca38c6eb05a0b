/**
 * @module store/queries/organization-changes
 * The record of who changed what in an organization.
 */
import type { OrganizationChangeStore } from '../../domain/member-ports.ts';
import type { ChangeActor, OrganizationChange, OrganizationChangeAction } from '../../domain/types.ts';
import { toDate, toMillis } from '../mappers.ts';
import type { OrganizationChangesTable } from '../schema.ts';
import { olderThan, type QueryContext } from './db.ts';

export const organizationChangeQueries: OrganizationChangeStore & ThisType<QueryContext> = {
  async insertOrganizationChange(change) {
    await this.db.insertInto('organization_changes').values(changeToRow(change)).execute();
  },

  async listOrganizationChanges(organizationId, page) {
    let query = this.db.selectFrom('organization_changes').selectAll().where('organization_id', '=', organizationId);
    if (page.before) query = query.where(olderThan(page.before));
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).execute();
    return rows.map(rowToChange);
  },
};

function changeToRow(c: OrganizationChange): OrganizationChangesTable {
  return {
    id: c.id,
    organization_id: c.organizationId,
    created_at: toMillis(c.createdAt),
    actor_kind: c.actor.kind,
    actor_id: c.actor.id,
    actor_label: c.actor.label,
    action: c.action,
    subject_id: c.subject?.id ?? null,
    subject_label: c.subject?.label ?? null,
    detail: JSON.stringify(c.detail),
  };
}

function rowToChange(r: OrganizationChangesTable): OrganizationChange {
  return {
    id: r.id,
    organizationId: r.organization_id,
    createdAt: toDate(r.created_at),
    actor: { kind: r.actor_kind as ChangeActor['kind'], id: r.actor_id, label: r.actor_label },
    action: r.action as OrganizationChangeAction,
    subject: r.subject_id !== null && r.subject_label !== null ? { id: r.subject_id, label: r.subject_label } : null,
    detail: JSON.parse(r.detail) as OrganizationChange['detail'],
  };
}

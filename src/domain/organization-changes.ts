/**
 * @module domain/organization-changes
 * Who changed what in an organization, and when: members added, invited,
 * given another role or removed, and the allowed embedding origins
 * changed. Each command writes its record in the transaction of the
 * change itself, so a change without a record (or a record of a change
 * that did not happen) cannot exist. Administrators read the list in the
 * dashboard; nothing else changes it, and it outlives the members it
 * names (who acted and whom it concerned are kept as they were then).
 */
import type { Actor } from './actors.ts';
import type { DomainContext } from './context.ts';
import { newOrderedId } from './ids.ts';
import type { KeyPorts } from './key-ports.ts';
import type { MemberPorts } from './member-ports.ts';
import { readPage, type Page } from './pages.ts';
import type { PageRequest } from './pages.ts';
import { authorize } from './policies.ts';
import type { ChangeActor, OrganizationChange, OrganizationChangeAction, User } from './types.ts';

export type { ChangeActor, OrganizationChange, OrganizationChangeAction };

async function changeActor(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor): Promise<ChangeActor> {
  switch (actor.kind) {
    case 'member':
      return { kind: 'member', id: actor.user.id, label: `${actor.user.fullName} <${actor.user.email}>` };
    case 'api_key': {
      const key = await ctx.store.findApiKeyById(actor.organization.id, actor.apiKeyId);
      return { kind: 'api_key', id: actor.apiKeyId, label: key?.name || `${key?.publicKey.slice(0, 12) ?? actor.apiKeyId}…` };
    }
    case 'operator':
      return { kind: 'operator', id: null, label: 'operator' };
  }
}

export function memberSubject(user: User): { id: string; label: string } {
  return { id: user.id, label: `${user.fullName} <${user.email}>` };
}

/** Writes the record of a change; call it inside the change's unit of work (see `transact`). */
export async function recordChange(
  ctx: DomainContext<MemberPorts & KeyPorts>,
  actor: Actor,
  action: OrganizationChangeAction,
  subject: OrganizationChange['subject'],
  detail: OrganizationChange['detail'] = {},
): Promise<void> {
  const createdAt = ctx.now();
  await ctx.store.insertOrganizationChange({
    // Ordered ids: changes of one millisecond (an invitation right after adding) list in the order made.
    id: newOrderedId(createdAt.getTime()),
    organizationId: actor.organization.id,
    createdAt,
    actor: await changeActor(ctx, actor),
    action,
    subject,
    detail,
  });
}

/** One page of the organization's changes, newest first; for its administrators and the operator. */
export async function listOrganizationChanges(ctx: DomainContext<MemberPorts>, actor: Actor, page: PageRequest): Promise<Page<OrganizationChange>> {
  authorize(actor, 'organization.audit');
  return readPage(page, (p) => ctx.store.listOrganizationChanges(actor.organization.id, p));
}

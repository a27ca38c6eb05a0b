/**
 * @module cli/presenters
 * The CLI's JSON shapes, written field by field. Key presenters never take
 * a secret or its hash: only `presentIssuedKey` sees the secret, once.
 */
import type { IssuedKey } from '../domain/keys.ts';
import { keyStatus } from '../domain/keys.ts';
import type { OrganizationChange } from '../domain/organization-changes.ts';
import type { ApiKey, Organization, User } from '../domain/types.ts';

export function presentOrganization(org: Organization) {
  return { id: org.id, name: org.name, slug: org.slug, type: org.type };
}

export function presentUser(user: User) {
  return { id: user.id, email: user.email, fullName: user.fullName, organizationRole: user.role };
}

export function presentIssuedKey(issued: IssuedKey) {
  return {
    apiKey: issued.key.publicKey,
    apiSecret: issued.secret,
    expiresAt: issued.key.expiresAt?.toISOString() ?? null,
  };
}

export function presentKey(key: ApiKey, now: Date) {
  return {
    apiKey: key.publicKey,
    name: key.name,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    status: keyStatus(key, now),
  };
}

export function presentChange(change: OrganizationChange) {
  return {
    id: change.id,
    at: change.createdAt.toISOString(),
    actor: change.actor,
    action: change.action,
    subject: change.subject,
    detail: change.detail,
  };
}


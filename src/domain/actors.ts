/**
 * @module domain/actors
 * Who acts. Every command of an organization's objects takes the acting
 * party, and the policies (policies.ts) decide per action what it may do:
 * - an API key, on behalf of its organization (the spec's API client);
 * - a signed-in member of the organization, with their role;
 * - the operator, through the `foyer` command on the server itself.
 */
import type { Organization, User } from './types.ts';

export type Actor =
  | { kind: 'api_key'; organization: Organization; apiKeyId: string }
  | { kind: 'member'; organization: Organization; user: User }
  | { kind: 'operator'; organization: Organization };

export function apiKeyActor(organization: Organization, apiKeyId: string): Actor {
  return { kind: 'api_key', organization, apiKeyId };
}

export function memberActor(organization: Organization, user: User): Actor {
  if (user.organizationId !== organization.id) throw new Error('A member acts only for their own organization.');
  return { kind: 'member', organization, user };
}

export function operatorActor(organization: Organization): Actor {
  return { kind: 'operator', organization };
}

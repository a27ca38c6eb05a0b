/**
 * @module http/presenters/organization
 * The organization object, identical in v1, v2 and v3 (spec: "identical
 * shape"): its name and all its users.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import type { Organization, User } from '../../domain/types.ts';
import { named } from '../openapi-document.ts';
import { responseId } from '../route-schemas.ts';

export const UserSchema = named('User', Type.Object({
  id: responseId('UUID v4 of the user.'),
  fullName: Type.String(),
  email: Type.String(),
  organizationRole: Type.Union([Type.Literal('USER'), Type.Literal('ADMIN')]),
}));

export const OrganizationSchema = named(
  'Organization',
  Type.Object({
    name: Type.String(),
    users: Type.Array(UserSchema, { description: 'All users of the organization; may be empty.' }),
  }),
);

export type OrganizationBody = Static<typeof OrganizationSchema>;

export function presentOrganization(view: { organization: Organization; users: User[] }): OrganizationBody {
  return {
    name: view.organization.name,
    users: view.users.map((user) => ({
      id: user.id,
      fullName: user.fullName,
      email: user.email,
      organizationRole: user.role,
    })),
  };
}

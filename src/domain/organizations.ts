/**
 * @module domain/organizations
 * Organizations and their users. Only the operator (CLI) creates or changes
 * them; API keys can only read their own organization.
 */
import type { Actor } from './actors.ts';
import type { DomainContext } from './context.ts';
import { NotFoundError, ValidationError, type FieldError } from './errors.ts';
import { newId } from './ids.ts';
import { authorize } from './policies.ts';
import { slugProblem, slugify } from './slugs.ts';
import { checkText, isEmail } from './text.ts';
import type { Organization, OrganizationRole, OrganizationType, User } from './types.ts';

export const ORGANIZATION_TYPES: readonly OrganizationType[] = ['medical', 'basic'];
export const ORGANIZATION_ROLES: readonly OrganizationRole[] = ['USER', 'ADMIN'];

export interface CreateOrganizationInput {
  name: string;
  type: string;
  slug?: string;
}

export async function createOrganization(
  ctx: DomainContext,
  input: CreateOrganizationInput,
): Promise<Organization> {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  checkText(errors, 'name', name, { required: true, max: 200 });
  const type = input.type.toLowerCase();
  if (!ORGANIZATION_TYPES.includes(type as OrganizationType)) {
    errors.push({ field: 'type', message: 'type is medical or basic.' });
  }
  const slug = input.slug ?? slugify(name);
  const problem = slugProblem(slug);
  if (problem) errors.push(problem);
  if (errors.length) throw new ValidationError(errors);

  const org: Organization = {
    id: newId(),
    name,
    slug,
    type: type as OrganizationType,
    createdAt: ctx.now(),
  };
  await ctx.store.insertOrganization(org);
  return org;
}

/** By id or slug; throws not_found. */
export async function getOrganization(ctx: DomainContext, idOrSlug: string): Promise<Organization> {
  const org = await ctx.store.findOrganization(idOrSlug);
  if (!org) throw new NotFoundError('organization');
  return org;
}

export async function listOrganizations(ctx: DomainContext): Promise<Organization[]> {
  return ctx.store.listOrganizations();
}

/** What `GET /organizations` shows: the organization with all its users. */
export async function readOrganization(
  ctx: DomainContext,
  actor: Actor,
): Promise<{ organization: Organization; users: User[] }> {
  authorize(actor, 'organization.read');
  return { organization: actor.organization, users: await ctx.store.listUsers(actor.organization.id) };
}

export interface AddUserInput {
  email: string;
  fullName: string;
  role?: string;
}

export async function addUser(ctx: DomainContext, actor: Actor, input: AddUserInput): Promise<User> {
  authorize(actor, 'user.manage');
  const org = actor.organization;
  const errors: FieldError[] = [];
  const email = input.email.trim();
  if (!isEmail(email)) errors.push({ field: 'email', message: 'email is not an email address.' });
  const fullName = input.fullName.trim();
  checkText(errors, 'fullName', fullName, { required: true, max: 200 });
  const role = (input.role ?? 'USER').toUpperCase();
  if (!ORGANIZATION_ROLES.includes(role as OrganizationRole)) {
    errors.push({ field: 'role', message: 'role is USER or ADMIN.' });
  }
  if (errors.length) throw new ValidationError(errors);

  const user: User = {
    id: newId(),
    organizationId: org.id,
    email,
    fullName,
    role: role as OrganizationRole,
    createdAt: ctx.now(),
  };
  await ctx.store.insertUser(user);
  return user;
}

export async function removeUser(ctx: DomainContext, actor: Actor, email: string): Promise<User> {
  authorize(actor, 'user.manage');
  const org = actor.organization;
  const user = await ctx.store.findUserByEmail(org.id, email.trim());
  if (!user || !(await ctx.store.deleteUser(org.id, user.id))) throw new NotFoundError('user');
  return user;
}

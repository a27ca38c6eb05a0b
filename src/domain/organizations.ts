/**
 * @module domain/organizations
 * Organizations and their users. Only the operator (CLI) creates
 * organizations; their members are added, given a role and removed by the
 * operator or by the organization's own ADMINs (every such change is
 * recorded, see organization-changes.ts); API keys can only read their
 * own organization.
 *
 * An organization keeps at least one ADMIN: a member cannot demote or
 * remove the last one (the operator still can, and can add one again).
 * Removing a member ends their sessions; so does taking ADMIN away, so
 * no open page or socket keeps rights the member no longer has.
 */
import type { Actor } from './actors.ts';
import { transact, type DomainContext } from './context.ts';
import { ConflictError, NotFoundError, ValidationError, type FieldError } from './errors.ts';
import { newId } from './ids.ts';
import type { KeyPorts } from './key-ports.ts';
import type { MemberPorts } from './member-ports.ts';
import { memberSubject, recordChange } from './organization-changes.ts';
import { authorize } from './policies.ts';
import { endSignInSessions } from './sign-in-sessions.ts';
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
  ctx: DomainContext<MemberPorts & KeyPorts>,
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
export async function getOrganization(ctx: DomainContext<MemberPorts & KeyPorts>, idOrSlug: string): Promise<Organization> {
  const org = await ctx.store.findOrganization(idOrSlug);
  if (!org) throw new NotFoundError('organization');
  return org;
}

export async function listOrganizations(ctx: DomainContext<MemberPorts & KeyPorts>): Promise<Organization[]> {
  return ctx.store.listOrganizations();
}

/** The ids of the organization's members who have set a password (the others have only their invitation or sign-on). */
export async function membersWithPassword(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor): Promise<string[]> {
  authorize(actor, 'organization.read');
  return ctx.store.usersWithPassword(actor.organization.id);
}

/** What `GET /organizations` shows: the organization with all its users. */
export async function readOrganization(
  ctx: DomainContext<MemberPorts & KeyPorts>,
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

export async function addUser(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor, input: AddUserInput): Promise<User> {
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
  await transact(ctx, async (tx) => {
    await tx.store.insertUser(user);
    await recordChange(tx, actor, 'member.added', memberSubject(user), { role: user.role });
  });
  return user;
}

/** A member of the actor's organization, by id or by email (case-insensitively); not-found otherwise. */
export type MemberRef = { userId: string } | { email: string };

export async function findMember(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor, ref: MemberRef): Promise<User> {
  const org = actor.organization;
  const user = 'userId' in ref ? await ctx.store.findUser(org.id, ref.userId) : await ctx.store.findUserByEmail(org.id, ref.email.trim());
  if (!user) throw new NotFoundError('user');
  return user;
}

/** Refuses a member's change that would leave the organization without an ADMIN. */
async function keepAnAdmin(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor, leaving: User, field: string): Promise<void> {
  if (actor.kind === 'operator' || leaving.role !== 'ADMIN') return;
  const admins = (await ctx.store.listUsers(actor.organization.id)).filter((u) => u.role === 'ADMIN' && u.id !== leaving.id);
  if (admins.length === 0) throw new ConflictError(field, 'The organization needs at least one administrator: make someone else ADMIN first.');
}

/** Removes a member (from the organization, its boards and queues, and as meetings' owner) and ends their sessions. */
export async function removeUser(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor, ref: MemberRef | string): Promise<User> {
  authorize(actor, 'user.manage');
  const org = actor.organization;
  return transact(ctx, async (tx) => {
    // Before reading the member: two ADMINs demoting each other at once must not both see the other one stay.
    await tx.store.lockOrganization(org.id);
    const user = await findMember(tx, actor, typeof ref === 'string' ? { email: ref } : ref);
    await keepAnAdmin(tx, actor, user, 'userId');
    await endSignInSessions(tx, user);
    if (!(await tx.store.deleteUser(org.id, user.id))) throw new NotFoundError('user');
    await recordChange(tx, actor, 'member.removed', memberSubject(user), { role: user.role });
    return user;
  });
}

/** Gives a member another role; taking ADMIN away ends their sessions. Unchanged when the role is the same (and nothing is recorded). */
export async function changeUserRole(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor, ref: MemberRef, role: string): Promise<User> {
  authorize(actor, 'user.manage');
  const to = role.trim().toUpperCase();
  if (!ORGANIZATION_ROLES.includes(to as OrganizationRole)) throw ValidationError.field('role', 'role is USER or ADMIN.');
  return transact(ctx, async (tx) => {
    // Before reading the member: two ADMINs demoting each other at once must not both see the other one stay.
    await tx.store.lockOrganization(actor.organization.id);
    const user = await findMember(tx, actor, ref);
    if (user.role === to) return user;
    if (to !== 'ADMIN') await keepAnAdmin(tx, actor, user, 'role');
    const changed = await tx.store.setUserRole(actor.organization.id, user.id, to as OrganizationRole);
    if (!changed) throw new NotFoundError('user');
    if (user.role === 'ADMIN') await endSignInSessions(tx, user);
    await recordChange(tx, actor, 'member.role_changed', memberSubject(user), { from: user.role, to });
    return changed;
  });
}

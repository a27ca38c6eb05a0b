/**
 * @module domain/member-links
 * One-time links with which a member sets their password: an invitation
 * (the first password) or a reset. The operator issues them (`foyer user
 * invite|reset`); with a mail server configured they also go out by mail,
 * and members can ask for a reset link themselves.
 *
 * A link carries 256 random bits; only their SHA-256 is stored, so a copy of
 * the database holds no usable link. A link works once: setting the
 * password marks it used in one conditional update. Setting a password ends
 * every session of the member.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from './actors.ts';
import { transact, type DomainContext } from './context.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { authorize } from './policies.ts';
import type { MemberLink, MemberLinkPurpose, Organization, User } from './types.ts';

/** How long an operator's invitation or reset link works. */
export const OPERATOR_LINK_HOURS = 72;
/** How long a reset link a member asked for by mail works: short, as it travels by mail unasked by anyone else. */
export const SELF_SERVICE_RESET_MINUTES = 60;

export const LINK_PATH = '/dashboard/password/';

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssuedLink {
  user: User;
  url: string;
  expiresAt: Date;
}

async function issue(ctx: DomainContext, org: Organization, user: User, purpose: MemberLinkPurpose, lifetimeMs: number): Promise<IssuedLink> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  const link: MemberLink = {
    tokenHash: tokenHash(token),
    userId: user.id,
    organizationId: org.id,
    purpose,
    createdAt: now,
    expiresAt: new Date(now.getTime() + lifetimeMs),
    usedAt: null,
  };
  await ctx.store.insertMemberLink(link);
  const issued = { user, url: `${ctx.publicUrl}${LINK_PATH}${token}`, expiresAt: link.expiresAt };
  await ctx.mailer?.sendMemberMail({
    to: user.email,
    kind: purpose,
    fullName: user.fullName,
    organizationName: org.name,
    url: issued.url,
    expiresAt: issued.expiresAt,
  });
  return issued;
}

/** The operator's invitation (or reset) link for a member of the actor's organization. */
export async function issueMemberLink(ctx: DomainContext, actor: Actor, email: string, purpose: MemberLinkPurpose): Promise<IssuedLink> {
  authorize(actor, 'user.manage');
  const user = await ctx.store.findUserByEmail(actor.organization.id, email.trim());
  if (!user) throw new NotFoundError('user');
  return issue(ctx, actor.organization, user, purpose, OPERATOR_LINK_HOURS * 3_600_000);
}

/**
 * "Forgot password": mails a short-lived reset link to every member with
 * this email who has a password. Says nothing about whether anyone did:
 * the page answers the same either way. Does nothing without a mailer.
 */
export async function requestPasswordReset(ctx: DomainContext, email: string): Promise<void> {
  if (!ctx.mailer) return;
  for (const user of await ctx.store.findUsersByEmail(email.trim())) {
    if (!(await ctx.store.findPasswordHash(user.id))) continue;
    const org = await ctx.store.findOrganization(user.organizationId);
    if (org) await issue(ctx, org, user, 'reset', SELF_SERVICE_RESET_MINUTES * 60_000);
  }
}

const UNUSABLE = 'This link has expired or was already used. Ask for a new one.';

/** The member a link is for, while it still works (to greet them on the page); not-found otherwise. */
export async function memberOfLink(ctx: DomainContext, token: string): Promise<{ user: User; link: MemberLink }> {
  const link = await ctx.store.findMemberLink(tokenHash(token));
  const user = link && !link.usedAt && link.expiresAt > ctx.now() ? await ctx.store.findUser(link.organizationId, link.userId) : undefined;
  if (!link || !user) throw new NotFoundError('link', UNUSABLE);
  return { user, link };
}

/** Sets the member's password through a link, uses the link up, and signs the member out everywhere. */
export async function setPasswordWithLink(ctx: DomainContext, token: string, password: string): Promise<User> {
  const { user } = await memberOfLink(ctx, token);
  const problem = passwordProblem(password, user);
  if (problem) throw ValidationError.field('password', problem);
  // Hashed before the transaction: it takes a while, and a transaction would hold the database meanwhile.
  const hash = await hashPassword(password, ctx.members.passwordHashCost);
  await transact(ctx, async (tx) => {
    if (!(await tx.store.useMemberLink(tokenHash(token), tx.now()))) throw new NotFoundError('link', UNUSABLE);
    await tx.store.setPasswordHash(user.id, hash);
    await tx.store.deleteMemberSessionsOf(user.id);
  });
  return user;
}

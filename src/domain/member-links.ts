/**
 * @module domain/member-links
 * One-time links with which a member sets their password: an invitation
 * (the first password) or a reset. The operator issues them (`foyer user
 * invite|reset`), and an organization's ADMINs issue invitations from the
 * dashboard; with a mail server configured they also go out by mail, and
 * members can ask for a reset link themselves.
 *
 * A link carries 256 random bits; only their SHA-256 is stored, so a copy of
 * the database holds no usable link. A link works once: setting the
 * password marks it used in one conditional update. Setting a password ends
 * every session of the member.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from './actors.ts';
import { transact, type DomainContext } from './context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from './errors.ts';
import type { KeyPorts } from './key-ports.ts';
import type { MemberPorts } from './member-ports.ts';
import { memberSubject, recordChange } from './organization-changes.ts';
import { addUser, findMember, type AddUserInput, type MemberRef } from './organizations.ts';
import { hashPassword, passwordProblem } from './passwords.ts';
import { authorize } from './policies.ts';
import { endSignInSessions } from './sign-in-sessions.ts';
import type { MemberLink, MemberLinkPurpose, Organization, User } from './types.ts';

/** How long an operator's invitation or reset link works. */
export const OPERATOR_LINK_HOURS = 72;
/** How long a reset link a member asked for by mail works: short, as it travels by mail unasked by anyone else. */
export const SELF_SERVICE_RESET_MINUTES = 60;

/** Reset links one member can have mailed through "forgot password" per hour. */
export const MAX_SELF_SERVICE_RESETS_PER_HOUR = 3;
/** "Forgot password" requests (and failed sign-ins) from one address per sign-in window before it is refused. */
export const MAX_RESET_REQUESTS_PER_ADDRESS = 20;
/** The window of that count (as long as the sign-in throttle's). */
const RESET_WINDOW_MS = 15 * 60_000;

export const LINK_PATH = '/dashboard/password/';

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface IssuedLink {
  user: User;
  url: string;
  expiresAt: Date;
  /** Whether the link also went out by mail: the link works either way, so a failed mail does not lose it. */
  mail: 'sent' | 'failed' | 'not_configured';
}

async function issue(
  ctx: DomainContext<MemberPorts & KeyPorts>,
  org: Organization,
  user: User,
  purpose: MemberLinkPurpose,
  lifetimeMs: number,
  lang: string | undefined,
  actor?: Actor,
): Promise<IssuedLink> {
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
  await transact(ctx, async (tx) => {
    await tx.store.insertMemberLink(link);
    // Links a member asks for themselves ("forgot password") are not a change anyone made to the organization.
    if (actor) await recordChange(tx, actor, purpose === 'invite' ? 'member.invited' : 'member.reset_link', memberSubject(user), { delivery: ctx.mailer ? 'mail' : 'link' });
  });
  const url = `${ctx.publicUrl}${LINK_PATH}${token}`;
  if (!ctx.mailer) return { user, url, expiresAt: link.expiresAt, mail: 'not_configured' };
  try {
    await ctx.mailer.sendMemberMail({
      to: user.email,
      kind: purpose,
      fullName: user.fullName,
      organizationName: org.name,
      url,
      expiresAt: link.expiresAt,
      lang,
    });
    return { user, url, expiresAt: link.expiresAt, mail: 'sent' };
  } catch {
    return { user, url, expiresAt: link.expiresAt, mail: 'failed' };
  }
}

/**
 * An invitation (or reset) link for a member of the actor's organization;
 * `lang` is the mail's language. The operator may issue either for anyone;
 * an ADMIN only invitations, and only for members who have not set a
 * password yet: a link for someone who has one would let one member take
 * over another's account (members who forgot theirs ask for a reset
 * themselves, or the operator issues one).
 */
export async function issueMemberLink(
  ctx: DomainContext<MemberPorts & KeyPorts>,
  actor: Actor,
  ref: MemberRef | string,
  purpose: MemberLinkPurpose,
  lang?: string,
): Promise<IssuedLink> {
  authorize(actor, 'user.manage');
  const user = await findMember(ctx, actor, typeof ref === 'string' ? { email: ref } : ref);
  if (actor.kind !== 'operator' && (purpose !== 'invite' || (await ctx.store.findPasswordHash(user.id)))) {
    throw new ForbiddenError('This member has already set a password: they can use “Forgot password?”, or ask the operator for a reset link.');
  }
  return issue(ctx, actor.organization, user, purpose, OPERATOR_LINK_HOURS * 3_600_000, lang, actor);
}

/** Adds a member and issues their invitation (mailed when mail is configured, otherwise to be handed over). */
export async function inviteMember(ctx: DomainContext<MemberPorts & KeyPorts>, actor: Actor, input: AddUserInput, lang?: string): Promise<IssuedLink> {
  const user = await addUser(ctx, actor, input);
  return issueMemberLink(ctx, actor, { userId: user.id }, 'invite', lang);
}

export interface ResetRequest {
  email: string;
  /** The client's address: requests are limited per address. */
  address: string;
  /** Language of the mail. */
  lang?: string | undefined;
}

/**
 * "Forgot password": mails a short-lived reset link to every member with
 * this email who has a password. The answer says nothing about whether
 * anyone did: `throttled` depends only on the client's address (a
 * request counts as a failed sign-in from that address, so the two share
 * one throttle), and the mail goes out in `delivery`, which the caller
 * need not await, so the answer takes as long whether the email is known
 * or not. A member gets at most MAX_SELF_SERVICE_RESETS_PER_HOUR such
 * mails an hour, so nobody can fill a mailbox through the form. Does
 * nothing without a mailer.
 */
export async function requestPasswordReset(ctx: DomainContext<MemberPorts & KeyPorts>, request: ResetRequest): Promise<{ throttled: boolean; delivery: Promise<void> }> {
  const now = ctx.now();
  const since = new Date(now.getTime() - RESET_WINDOW_MS);
  if ((await ctx.store.countSignInFailures({ address: request.address }, since)) >= MAX_RESET_REQUESTS_PER_ADDRESS) {
    return { throttled: true, delivery: Promise.resolve() };
  }
  // An empty email: counted against the address only, never against an account.
  await ctx.store.recordSignInFailure({ email: '', address: request.address, at: now });
  return { throttled: false, delivery: mailResetLinks(ctx, request.email, request.lang) };
}

async function mailResetLinks(ctx: DomainContext<MemberPorts & KeyPorts>, email: string, lang: string | undefined): Promise<void> {
  if (!ctx.mailer) return;
  const since = new Date(ctx.now().getTime() - 3_600_000);
  for (const user of await ctx.store.findUsersByEmail(email.trim())) {
    if (!(await ctx.store.findPasswordHash(user.id))) continue;
    if ((await ctx.store.countMemberLinksSince(user.id, 'reset', since)) >= MAX_SELF_SERVICE_RESETS_PER_HOUR) continue;
    const org = await ctx.store.findOrganization(user.organizationId);
    if (!org) continue;
    const issued = await issue(ctx, org, user, 'reset', SELF_SERVICE_RESET_MINUTES * 60_000, lang);
    if (issued.mail === 'failed') throw new Error('The mail server did not take a password-reset mail.');
  }
}

const UNUSABLE = 'This link has expired or was already used. Ask for a new one.';

/** The member a link is for, while it still works (to greet them on the page); not-found otherwise. */
export async function memberOfLink(ctx: DomainContext<MemberPorts & KeyPorts>, token: string): Promise<{ user: User; link: MemberLink }> {
  const link = await ctx.store.findMemberLink(tokenHash(token));
  const user = link && !link.usedAt && link.expiresAt > ctx.now() ? await ctx.store.findUser(link.organizationId, link.userId) : undefined;
  if (!link || !user) throw new NotFoundError('link', UNUSABLE);
  return { user, link };
}

/** Sets the member's password through a link, uses the link up, and signs the member out everywhere. */
export async function setPasswordWithLink(ctx: DomainContext<MemberPorts & KeyPorts>, token: string, password: string): Promise<User> {
  const { user } = await memberOfLink(ctx, token);
  const problem = passwordProblem(password, user);
  if (problem) throw ValidationError.field('password', problem);
  // Hashed before the transaction: it takes a while, and a transaction would hold the database meanwhile.
  const hash = await hashPassword(password, ctx.members.passwordHashCost);
  await transact(ctx, async (tx) => {
    if (!(await tx.store.useMemberLink(tokenHash(token), tx.now()))) throw new NotFoundError('link', UNUSABLE);
    await tx.store.setPasswordHash(user.id, hash);
    await endSignInSessions(tx, user);
  });
  return user;
}

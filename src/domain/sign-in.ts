/**
 * @module domain/sign-in
 * Members signing in to the dashboard with email and password, their
 * sessions, and signing out.
 *
 * - Throttled per account (email) and per client address, counting failed
 *   attempts in the database so every instance sees them. Over either
 *   limit, no password is checked at all (each check costs a scrypt).
 * - A wrong password and an unknown email get the same answer after the
 *   same work.
 * - An email may belong to members of several organizations, each with
 *   their own password. When the password is right for more than one, the
 *   member chooses the organization (the choice is offered only after a
 *   correct password, so it reveals nothing to a guesser).
 * - Sessions are server-side: the cookie holds 256 random bits, the
 *   database their SHA-256. A session ends after SESSION_IDLE_MINUTES
 *   without a request, SESSION_MAX_HOURS after sign-in, on sign-out, when
 *   the member's password is set, when the member is removed, and when
 *   they lose the ADMIN role (sign-in-sessions.ts).
 */
import { randomBytes } from 'node:crypto';
import { memberActor, type Actor } from './actors.ts';
import type { DomainContext } from './context.ts';
import { tokenHash } from './member-links.ts';
import { hashPassword, needsRehash, spendVerification, verifyPassword } from './passwords.ts';
import type { MemberSession, Organization, User } from './types.ts';
import type { MemberPorts } from './ports/aggregates.ts';

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;
/** A session's last request is written at most this often. */
const TOUCH_INTERVAL_MS = 60_000;
/** Candidates checked for one email: an email in more organizations than this is not a member's. */
const MAX_CANDIDATES = 10;

export interface SignInInput {
  email: string;
  password: string;
  /** The client's address, for the per-address throttle. */
  address: string;
  /** Chosen when the email belongs to several organizations (their id). */
  organizationId?: string | undefined;
}

export type SignInResult =
  | { ok: true; token: string; session: MemberSession; actor: Actor }
  | { ok: false; reason: 'invalid' | 'throttled' }
  | { ok: false; reason: 'choose_organization'; organizations: Organization[] };

async function throttled(ctx: DomainContext<MemberPorts>, email: string, address: string): Promise<boolean> {
  const since = new Date(ctx.now().getTime() - SIGN_IN_WINDOW_MS);
  return (
    (await ctx.store.countSignInFailures({ email }, since)) >= MAX_FAILURES_PER_ACCOUNT ||
    (await ctx.store.countSignInFailures({ address }, since)) >= MAX_FAILURES_PER_ADDRESS
  );
}

export async function signIn(ctx: DomainContext<MemberPorts>, input: SignInInput): Promise<SignInResult> {
  const email = input.email.trim();
  if (await throttled(ctx, email, input.address)) return { ok: false, reason: 'throttled' };

  let candidates = (await ctx.store.findUsersByEmail(email)).slice(0, MAX_CANDIDATES);
  if (input.organizationId) candidates = candidates.filter((u) => u.organizationId === input.organizationId);
  const matches: Array<{ user: User; hash: string }> = [];
  let checked = 0;
  for (const user of candidates) {
    const hash = await ctx.store.findPasswordHash(user.id);
    if (!hash) continue;
    checked++;
    if (await verifyPassword(input.password, hash)) matches.push({ user, hash });
  }
  if (checked === 0) await spendVerification(input.password, ctx.members.passwordHashCost);

  if (matches.length === 0) {
    const at = ctx.now();
    await ctx.store.recordSignInFailure({ email, address: input.address, at });
    await ctx.store.pruneSignInFailures(new Date(at.getTime() - 24 * 3_600_000));
    return { ok: false, reason: 'invalid' };
  }
  if (matches.length > 1) {
    const organizations: Organization[] = [];
    for (const { user } of matches) {
      const org = await ctx.store.findOrganization(user.organizationId);
      if (org) organizations.push(org);
    }
    return { ok: false, reason: 'choose_organization', organizations };
  }

  const { user, hash } = matches[0]!;
  const organization = await ctx.store.findOrganization(user.organizationId);
  if (!organization) return { ok: false, reason: 'invalid' };
  if (needsRehash(hash, ctx.members.passwordHashCost)) {
    await ctx.store.setPasswordHash(user.id, await hashPassword(input.password, ctx.members.passwordHashCost));
  }
  const { token, session } = await startSession(ctx, user, 'password');
  return { ok: true, token, session, actor: memberActor(organization, user) };
}

/** Opens a session for a member who proved who they are (password or single sign-on); returns the cookie value. */
export async function startSession(
  ctx: DomainContext<MemberPorts>,
  user: User,
  method: MemberSession['method'],
): Promise<{ token: string; session: MemberSession }> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  const session: MemberSession = {
    idHash: tokenHash(token),
    userId: user.id,
    organizationId: user.organizationId,
    method,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ctx.members.sessionMaxHours * 3_600_000),
  };
  await ctx.store.insertMemberSession(session);
  return { token, session };
}

/** The member behind a session cookie, while the session lasts; undefined otherwise (and the ended session is removed). */
export async function currentMember(ctx: DomainContext<MemberPorts>, token: string | undefined): Promise<{ actor: Actor; session: MemberSession } | undefined> {
  if (!token || token.length > 100) return undefined;
  const idHash = tokenHash(token);
  const session = await ctx.store.findMemberSession(idHash);
  if (!session) return undefined;
  const now = ctx.now().getTime();
  const idleEnd = session.lastSeenAt.getTime() + ctx.members.sessionIdleMinutes * 60_000;
  const user = now < idleEnd && now < session.expiresAt.getTime() ? await ctx.store.findUser(session.organizationId, session.userId) : undefined;
  const organization = user && (await ctx.store.findOrganization(session.organizationId));
  if (!user || !organization) {
    await ctx.store.deleteMemberSession(idHash);
    return undefined;
  }
  if (now - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) await ctx.store.touchMemberSession(idHash, new Date(now));
  return { actor: memberActor(organization, user), session };
}

export async function signOut(ctx: DomainContext<MemberPorts>, token: string | undefined): Promise<void> {
  if (token && token.length <= 100) await ctx.store.deleteMemberSession(tokenHash(token));
}


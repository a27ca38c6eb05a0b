/**
 * @module domain/sign-in
 * Members signing in to the dashboard with email and password, their
 * sessions, and signing out.
 *
 * - Throttled per client address, and per account (email) from that
 *   address, counting failed attempts in the database so every instance
 *   sees them: after a few free failures, each further attempt must wait a
 *   delay that doubles with every failure (throttleDelayMs). While it
 *   runs, no password is checked at all (each check costs a scrypt), so
 *   nobody guesses quickly. An account is never throttled as a whole:
 *   failures from one address do not keep the member's right password out
 *   from another (docs/security.md, "Signing in").
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
import { raise, transact, type DomainContext } from './context.ts';
import { tokenHash } from './member-links.ts';
import type { MemberPorts } from './member-ports.ts';
import { hashPassword, needsRehash, spendVerification, verifyPassword } from './passwords.ts';
import type { MemberSession, Organization, User } from './types.ts';

/** Failures older than this are forgotten by the throttle. */
export const SIGN_IN_WINDOW_MS = 60 * 60_000;
/** Failures for one account from one address before the delay begins (typos, a forgotten caps lock). */
export const FREE_FAILURES_PER_ACCOUNT = 5;
/** Failures from one address, all accounts together, before the delay begins (a clinic's shared network). */
export const FREE_FAILURES_PER_ADDRESS = 30;
/** The longest delay between two attempts. */
export const MAX_THROTTLE_DELAY_MS = 15 * 60_000;
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
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number }
  | { ok: false; reason: 'choose_organization'; organizations: Organization[] };

/** How long after the latest failure the next attempt must wait, after `failures` of them with `free` allowed. */
export function throttleDelayMs(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(1000 * 2 ** (failures - free + 1), MAX_THROTTLE_DELAY_MS);
}

/** Milliseconds the attempt must still wait: per address, and per account from this address. */
async function throttleWait(ctx: DomainContext<MemberPorts>, email: string, address: string): Promise<number> {
  const now = ctx.now().getTime();
  const since = new Date(now - SIGN_IN_WINDOW_MS);
  const wait = ({ count, latest }: { count: number; latest: Date | undefined }, free: number) =>
    latest ? latest.getTime() + throttleDelayMs(count, free) - now : 0;
  return Math.max(
    wait(await ctx.store.signInFailureStats({ address, email }, since), FREE_FAILURES_PER_ACCOUNT),
    wait(await ctx.store.signInFailureStats({ address }, since), FREE_FAILURES_PER_ADDRESS),
  );
}

export async function signIn(ctx: DomainContext<MemberPorts>, input: SignInInput): Promise<SignInResult> {
  const email = input.email.trim();
  const wait = await throttleWait(ctx, email, input.address);
  if (wait > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: Math.ceil(wait / 1000) };

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
  const user = lasts(ctx, session, now) ? await ctx.store.findUser(session.organizationId, session.userId) : undefined;
  const organization = user && (await ctx.store.findOrganization(session.organizationId));
  if (!user || !organization) {
    await ctx.store.deleteMemberSession(idHash);
    return undefined;
  }
  if (now - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) await ctx.store.touchMemberSession(idHash, new Date(now));
  return { actor: memberActor(organization, user), session };
}

/** Ends the session of this cookie; `member.signed_out` tells the sockets opened with it to let go of its rights. */
export async function signOut(ctx: DomainContext<MemberPorts>, token: string | undefined): Promise<void> {
  if (!token || token.length > 100) return;
  const idHash = tokenHash(token);
  await transact(ctx, async (tx) => {
    const session = await tx.store.findMemberSession(idHash);
    if (!session) return;
    await tx.store.deleteMemberSession(idHash);
    raise(tx, { type: 'member.signed_out', organizationId: session.organizationId, at: tx.now(), userId: session.userId });
  });
}

/** Whether a session still lasts at `now` (neither idle for too long nor past its end). */
function lasts(ctx: DomainContext<MemberPorts>, session: MemberSession, now: number): boolean {
  return now < session.lastSeenAt.getTime() + ctx.members.sessionIdleMinutes * 60_000 && now < session.expiresAt.getTime();
}

/**
 * Of the sessions with these id hashes (those open sockets were opened
 * with), the ones that ended: signed out, ended everywhere (password set,
 * member removed, ADMIN role lost), idle for too long, or past
 * SESSION_MAX_HOURS. The others are touched as a request touches them: a
 * socket open with a session is that session in use.
 */
export async function endedSessions(ctx: DomainContext<MemberPorts>, idHashes: readonly string[]): Promise<Set<string>> {
  const now = ctx.now().getTime();
  const lasting = new Set<string>();
  for (const session of await ctx.store.findMemberSessions(idHashes)) {
    if (!lasts(ctx, session, now)) continue;
    lasting.add(session.idHash);
    if (now - session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) await ctx.store.touchMemberSession(session.idHash, new Date(now));
  }
  return new Set(idHashes.filter((h) => !lasting.has(h)));
}

/** Of these members (who opened a meeting with a pass, not a session), the ones no longer in their organization. */
export async function goneMembers(ctx: DomainContext<MemberPorts>, members: ReadonlyArray<{ organizationId: string; userId: string }>): Promise<Set<string>> {
  const gone = new Set<string>();
  for (const { organizationId, userId } of members) if (!(await ctx.store.findUser(organizationId, userId))) gone.add(userId);
  return gone;
}


/**
 * @module domain/ports/member-store
 * What signing members in needs from storage: users across organizations
 * by email, password hashes, one-time links, sessions and the record of
 * failed sign-ins. Part of `Store` (ports/store.ts).
 */
import type { MemberLink, MemberLinkPurpose, MemberSession, User } from '../types.ts';

export interface MemberStore {
  /** Users with this email in any organization (an email may belong to several), case-insensitively. */
  findUsersByEmail(email: string): Promise<User[]>;
  findUser(organizationId: string, userId: string): Promise<User | undefined>;
  /** The stored password hash, or undefined when the user has none (or does not exist). */
  findPasswordHash(userId: string): Promise<string | undefined>;
  setPasswordHash(userId: string, passwordHash: string): Promise<void>;

  insertMemberLink(link: MemberLink): Promise<void>;
  /**
   * Marks the link used if it is unused and not expired at `at`, and returns
   * it; undefined otherwise. One conditional update, so of two concurrent
   * uses exactly one succeeds.
   */
  useMemberLink(tokenHash: string, at: Date): Promise<MemberLink | undefined>;
  findMemberLink(tokenHash: string): Promise<MemberLink | undefined>;
  /** Links of this purpose issued to the user since `since`, used or not. */
  countMemberLinksSince(userId: string, purpose: MemberLinkPurpose, since: Date): Promise<number>;

  insertMemberSession(session: MemberSession): Promise<void>;
  findMemberSession(idHash: string): Promise<MemberSession | undefined>;
  /** The sessions of these id hashes that still exist (in no particular order). */
  findMemberSessions(idHashes: readonly string[]): Promise<MemberSession[]>;
  touchMemberSession(idHash: string, at: Date): Promise<void>;
  deleteMemberSession(idHash: string): Promise<void>;
  /** Ends every session of a user; returns how many there were. */
  deleteMemberSessionsOf(userId: string): Promise<number>;

  recordSignInFailure(failure: { email: string; address: string; at: Date }): Promise<void>;
  /** Failed sign-ins for an email (any organization) or from an address since `since`. */
  countSignInFailures(by: { email: string } | { address: string }, since: Date): Promise<number>;
  /** Failed sign-ins from an address (for one email, when given) since `since`: how many, and the latest. */
  signInFailureStats(by: { address: string; email?: string }, since: Date): Promise<{ count: number; latest: Date | undefined }>;
  /** Forgets failures older than `before`. */
  pruneSignInFailures(before: Date): Promise<void>;

}

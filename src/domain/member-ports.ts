/**
 * @module domain/member-ports
 * The members aggregate's port (`MemberPorts`): organizations, their
 * users and allowed origins, signing members in (users by email, password
 * hashes, one-time links, sign-in sessions, failed sign-ins), single
 * sign-on clients, and the record of changes; for organizations.ts,
 * member-links.ts, sign-in.ts, sign-in-sessions.ts, sso.ts,
 * allowed-origins.ts and organization-changes.ts.
 */
import type { PageRequest } from './pages.ts';
import type { Transactional } from './ports/transactional.ts';
import type { MemberLink, MemberLinkPurpose, MemberSession, Organization, OrganizationChange, OrganizationRole, OrganizationSso, User } from './types.ts';

/** Organizations, their users and allowed origins. */
export interface OrganizationStore {
  insertOrganization(org: Organization): Promise<void>;
  /** By id or by slug. */
  findOrganization(idOrSlug: string): Promise<Organization | undefined>;
  listOrganizations(): Promise<Organization[]>;
  insertUser(user: User): Promise<void>;
  listUsers(organizationId: string): Promise<User[]>;
  /**
   * Holds the organization's row until the unit of work ends, so that a check
   * over its members (is another ADMIN left?) cannot be raced by a concurrent
   * change (PostgreSQL; SQLite runs one writer at a time anyway).
   */
  lockOrganization(organizationId: string): Promise<void>;
  /** Case-insensitive on email. */
  findUserByEmail(organizationId: string, email: string): Promise<User | undefined>;
  /** Returns false when there was no such user. Removes the user from boards and queues and as meeting owner. */
  deleteUser(organizationId: string, userId: string): Promise<boolean>;
  /** Returns the user with the new role, or undefined when the organization has no such user. */
  setUserRole(organizationId: string, userId: string, role: OrganizationRole): Promise<User | undefined>;
  /** Ids of the organization's users who have set a password. */
  usersWithPassword(organizationId: string): Promise<string[]>;
  /** The origins allowed to embed the organization's pages, in the order set. */
  listAllowedOrigins(organizationId: string): Promise<string[]>;
  /** Replaces them, in this order (each once). */
  replaceAllowedOrigins(organizationId: string, origins: readonly string[], at: Date): Promise<void>;
}

/** The record of changes to an organization's members and settings, written in the transaction of each change. */
export interface OrganizationChangeStore {
  insertOrganizationChange(change: OrganizationChange): Promise<void>;
  /** The organization's changes, newest first (same-millisecond ones by id, descending). */
  listOrganizationChanges(organizationId: string, page: PageRequest): Promise<OrganizationChange[]>;
}

/** Signing members in: users across organizations by email, password hashes, one-time links, sign-in sessions, failed sign-ins. */
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

/** Organizations' single sign-on clients (OpenID Connect), at most one per organization. */
export interface SsoStore {
  /** Sets (or replaces) the organization's single sign-on client. */
  putOrganizationSso(sso: OrganizationSso): Promise<void>;
  findOrganizationSso(organizationId: string): Promise<OrganizationSso | undefined>;
  /** Returns false when the organization had none. */
  deleteOrganizationSso(organizationId: string): Promise<boolean>;
  /** Whether any organization has single sign-on (the sign-in page offers it then). */
  anyOrganizationSso(): Promise<boolean>;
}

/** Organizations, their members, sign-in (passwords, links, sessions, single sign-on) and their record of changes. */
export interface MemberPorts extends OrganizationStore, MemberStore, SsoStore, OrganizationChangeStore, Transactional {}

/**
 * @module domain/ports/organization-store
 * Organizations, their users and allowed origins, and their record of
 * changes (part of `MemberPorts`).
 */
import type { Organization, OrganizationChange, OrganizationRole, User } from '../types.ts';
import type { PageRequest } from './page-request.ts';

export interface OrganizationStore {
  insertOrganization(org: Organization): Promise<void>;
  /** By id or by slug. */
  findOrganization(idOrSlug: string): Promise<Organization | undefined>;
  listOrganizations(): Promise<Organization[]>;
  insertUser(user: User): Promise<void>;
  listUsers(organizationId: string): Promise<User[]>;
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

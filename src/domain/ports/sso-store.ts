/**
 * @module domain/ports/sso-store
 * Organizations' single sign-on clients (OpenID Connect), at most one per
 * organization. Part of `Store` (ports/store.ts).
 */
import type { OrganizationSso } from '../types.ts';

export interface SsoStore {
  /** Sets (or replaces) the organization's single sign-on client. */
  putOrganizationSso(sso: OrganizationSso): Promise<void>;
  findOrganizationSso(organizationId: string): Promise<OrganizationSso | undefined>;
  /** Returns false when the organization had none. */
  deleteOrganizationSso(organizationId: string): Promise<boolean>;
  /** Whether any organization has single sign-on (the sign-in page offers it then). */
  anyOrganizationSso(): Promise<boolean>;
}

/**
 * @module domain/types
 * The objects Foyer is about. Plain data: no HTTP names, no SQL names.
 * Each API version presents these in its own field names (see src/http/v*).
 */

export type OrganizationType = 'medical' | 'basic';

export interface Organization {
  id: string;
  name: string;
  /** Unique; v2 shows it as `organizationSlug`. Set only by the operator. */
  slug: string;
  type: OrganizationType;
  createdAt: Date;
}

export type OrganizationRole = 'USER' | 'ADMIN';

export interface User {
  id: string;
  organizationId: string;
  /** Stored as given; matched case-insensitively (see `normalizeEmail`). */
  email: string;
  fullName: string;
  role: OrganizationRole;
  createdAt: Date;
}

export interface ApiKey {
  id: string;
  organizationId: string;
  /** The public half, sent as the `API_KEY` header. */
  publicKey: string;
  /** Keyed hash of the secret; the secret itself is never stored. */
  secretHash: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
  /** What an administrator calls the key; '' for keys issued without one. */
  name: string;
  /** The key's last authenticated request, as far as written (see UsageIncrement). */
  lastUsedAt: Date | null;
}

export type MeetingType = 'MEETING' | 'CONSULTATION';

/** Values allowed in a meeting's `queryParameters` (a flat object). */
export type QueryParameterValue = string | number | boolean;
export type QueryParameters = Record<string, QueryParameterValue>;

export interface Meeting {
  id: string;
  organizationId: string;
  /** The member who administers the meeting (`ownerEmail`), if one was named. */
  ownerUserId: string | null;
  type: MeetingType;
  isInfinite: boolean;
  queryParameters: QueryParameters | null;
  /** Present exactly when `queryParameters` was given: the `/m/<code>` link. */
  shortCode: string | null;
  createdAt: Date;
  /**
   * When the meeting closes if nobody is (or comes) in it. Null while
   * participants are present and for infinite meetings.
   */
  closesAt: Date | null;
  closedAt: Date | null;
  deletedAt: Date | null;
  /** Whether arrivals knock (see hosting.ts). */
  lock: MeetingLock;
  /** What the call page shows as the meeting's name (v3 and dashboard extension); null: none given. */
  title: string | null;
}

/**
 * `open`: anyone with the link enters; `locked`: arrivals knock and the
 * admin lets each in or turns them away; `until_owner`: locked until the
 * owner first joins, then open (the default of a CONSULTATION with an owner).
 */
export type MeetingLock = 'open' | 'locked' | 'until_owner';

export interface Room {
  id: string;
  organizationId: string;
  slug: string;
  title: string | null;
  createdAt: Date;
}

export type SpaceKind = 'board' | 'queue';

export interface Member {
  userId: string;
  fullName: string;
  isActive: boolean;
  isAutoAccepting: boolean;
  joinedCallAt: Date | null;
}

/**
 * A space: a board or a queue, a shared waiting room served by several members.
 * Queues ignore `hasWaitingList` (always stored false).
 */
export interface Space {
  id: string;
  organizationId: string;
  kind: SpaceKind;
  name: string;
  slug: string;
  isActive: boolean;
  closingMessage: string | null;
  hasWaitingList: boolean;
  members: Member[];
  createdAt: Date;
  updatedAt: Date;
}

/** Operator-set request ceilings of an organization; null means no ceiling for that period. */
export interface OrganizationQuota {
  hourly: number | null;
  daily: number | null;
}

/** Requests of one key in one UTC hour: what the request counter flushes. */
export interface UsageIncrement {
  apiKeyId: string;
  organizationId: string;
  /** Epoch ms at the start of the UTC hour. */
  hourStart: number;
  /** Accepted requests. */
  requests: number;
  /** Requests refused with 429 (rate limit or quota); 0 when absent. */
  refused?: number;
  /** Epoch ms of the key's latest request among these; the key's `lastUsedAt` moves forward to it. */
  lastUsedAt?: number;
}

/** One stored hourly total of a key. */
export interface HourlyUsage {
  apiKeyId: string;
  hourStart: number;
  requests: number;
  refused: number;
}

/** One key's totals of one UTC day (sums of its hours). */
export interface DailyUsage {
  apiKeyId: string;
  /** Epoch ms at the start of the UTC day. */
  dayStart: number;
  requests: number;
  refused: number;
}

/** How a member signed in. */
export type SignInMethod = 'password' | 'sso';

/**
 * A signed-in member's session, kept on the server. `idHash` is the SHA-256
 * of the opaque value in the member's cookie; the value itself is never
 * stored.
 */
export interface MemberSession {
  idHash: string;
  userId: string;
  organizationId: string;
  method: SignInMethod;
  createdAt: Date;
  /** Last request; the session ends after the idle time without one. */
  lastSeenAt: Date;
  /** The session ends at this moment whatever the activity. */
  expiresAt: Date;
}

export type MemberLinkPurpose = 'invite' | 'reset';

/** A one-time link to set a password, by the SHA-256 of its token. */
export interface MemberLink {
  tokenHash: string;
  userId: string;
  organizationId: string;
  purpose: MemberLinkPurpose;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/**
 * An organization's OpenID Connect client at its identity provider, for
 * single sign-on. The client secret is kept sealed (see domain/sealing.ts).
 */
export interface OrganizationSso {
  organizationId: string;
  /** The provider's issuer identifier (https, or http on a loopback address). */
  issuer: string;
  clientId: string;
  clientSecretSealed: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The record of one change to an organization's members or settings (see organization-changes.ts). */
export type OrganizationChangeAction =
  | 'member.added'
  | 'member.invited'
  | 'member.reset_link'
  | 'member.role_changed'
  | 'member.removed'
  | 'allowed_origins.changed';

/** Who made a change, as they were then. */
export interface ChangeActor {
  kind: 'api_key' | 'member' | 'operator';
  /** The member's user id or the API key's id; null for the operator. */
  id: string | null;
  /** The member's name and email, the key's name (or the start of its public key), or "operator". */
  label: string;
}

export interface OrganizationChange {
  id: string;
  organizationId: string;
  /** When the change was made. */
  createdAt: Date;
  actor: ChangeActor;
  action: OrganizationChangeAction;
  /** The member the change concerns, as they were then; null for settings. */
  subject: { id: string; label: string } | null;
  /** What changed: `{ from, to }` of a role, `{ added, removed }` of origins, `{ role }`, `{ delivery }` of a link. */
  detail: Record<string, string | string[]>;
}


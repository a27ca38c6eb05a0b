/**
 * @module store/mappers
 * Row <-> domain conversions: epoch milliseconds <-> Date, 0/1 <-> boolean,
 * JSON text <-> object. Kept explicit so a column never leaks into the
 * domain under its SQL name or type.
 */
import type {
  ApiKey,
  Meeting,
  MeetingType,
  Member,
  Organization,
  OrganizationRole,
  OrganizationType,
  QueryParameters,
  Room,
  Space,
  User,
} from '../domain/types.ts';
import { normalizeEmail } from '../domain/text.ts';
import type {
  ApiKeysTable,
  IntBool,
  MeetingsTable,
  OrganizationsTable,
  RoomsTable,
  SpacesTable,
  UsersTable,
} from './schema.ts';

export const toMillis = (d: Date): number => d.getTime();
export const toMillisOrNull = (d: Date | null): number | null => (d === null ? null : d.getTime());
export const toDate = (ms: number | string): Date => new Date(Number(ms));
export const toDateOrNull = (ms: number | string | null): Date | null => (ms === null ? null : toDate(ms));
export const toInt = (b: boolean): IntBool => (b ? 1 : 0);
export const toBool = (i: number): boolean => Number(i) === 1;

export function organizationToRow(o: Organization): OrganizationsTable {
  return { id: o.id, name: o.name, slug: o.slug, type: o.type, created_at: toMillis(o.createdAt) };
}

export function rowToOrganization(r: OrganizationsTable): Organization {
  return { id: r.id, name: r.name, slug: r.slug, type: r.type as OrganizationType, createdAt: toDate(r.created_at) };
}

export function userToRow(u: User): UsersTable {
  return {
    id: u.id,
    organization_id: u.organizationId,
    email: u.email,
    email_lower: normalizeEmail(u.email),
    full_name: u.fullName,
    role: u.role,
    created_at: toMillis(u.createdAt),
    password_hash: null,
  };
}

export function rowToUser(r: UsersTable): User {
  return {
    id: r.id,
    organizationId: r.organization_id,
    email: r.email,
    fullName: r.full_name,
    role: r.role as OrganizationRole,
    createdAt: toDate(r.created_at),
  };
}

export function apiKeyToRow(k: ApiKey): ApiKeysTable {
  return {
    id: k.id,
    organization_id: k.organizationId,
    public_key: k.publicKey,
    secret_hash: k.secretHash,
    expires_at: toMillisOrNull(k.expiresAt),
    revoked_at: toMillisOrNull(k.revokedAt),
    created_at: toMillis(k.createdAt),
    name: k.name,
    last_used_at: toMillisOrNull(k.lastUsedAt),
  };
}

export function rowToApiKey(r: ApiKeysTable): ApiKey {
  return {
    id: r.id,
    organizationId: r.organization_id,
    publicKey: r.public_key,
    secretHash: r.secret_hash,
    expiresAt: toDateOrNull(r.expires_at),
    revokedAt: toDateOrNull(r.revoked_at),
    createdAt: toDate(r.created_at),
    name: r.name,
    lastUsedAt: toDateOrNull(r.last_used_at),
  };
}

export function meetingToRow(m: Meeting): MeetingsTable {
  return {
    id: m.id,
    organization_id: m.organizationId,
    owner_user_id: m.ownerUserId,
    type: m.type,
    is_infinite: toInt(m.isInfinite),
    query_parameters: m.queryParameters === null ? null : JSON.stringify(m.queryParameters),
    short_code: m.shortCode,
    created_at: toMillis(m.createdAt),
    closes_at: toMillisOrNull(m.closesAt),
    closed_at: toMillisOrNull(m.closedAt),
    deleted_at: toMillisOrNull(m.deletedAt),
    lock_state: m.lock,
    title: m.title,
    chat_off: toInt(m.chatOff),
  };
}

export function rowToMeeting(r: MeetingsTable): Meeting {
  return {
    id: r.id,
    organizationId: r.organization_id,
    ownerUserId: r.owner_user_id,
    type: r.type as MeetingType,
    isInfinite: toBool(r.is_infinite),
    queryParameters: r.query_parameters === null ? null : (JSON.parse(r.query_parameters) as QueryParameters),
    shortCode: r.short_code,
    createdAt: toDate(r.created_at),
    closesAt: toDateOrNull(r.closes_at),
    closedAt: toDateOrNull(r.closed_at),
    deletedAt: toDateOrNull(r.deleted_at),
    lock: r.lock_state === 'locked' || r.lock_state === 'until_owner' ? r.lock_state : 'open',
    title: r.title ?? null,
    chatOff: r.chat_off === undefined ? false : toBool(r.chat_off),
  };
}

export function roomToRow(r: Room): RoomsTable {
  return { id: r.id, organization_id: r.organizationId, slug: r.slug, title: r.title, created_at: toMillis(r.createdAt) };
}

export function rowToRoom(r: RoomsTable): Room {
  return { id: r.id, organizationId: r.organization_id, slug: r.slug, title: r.title, createdAt: toDate(r.created_at) };
}

export function spaceToRow(s: Space): SpacesTable {
  return {
    id: s.id,
    organization_id: s.organizationId,
    kind: s.kind,
    name: s.name,
    slug: s.slug,
    is_active: toInt(s.isActive),
    closing_message: s.closingMessage,
    has_waiting_list: toInt(s.hasWaitingList),
    created_at: toMillis(s.createdAt),
    updated_at: toMillis(s.updatedAt),
  };
}

/** A space_members row joined with the user's name. */
export interface MemberRow {
  user_id: string;
  full_name: string;
  is_active: number;
  is_auto_accepting: number;
  joined_call_at: number | null;
}

export function rowToMember(r: MemberRow): Member {
  return {
    userId: r.user_id,
    fullName: r.full_name,
    isActive: toBool(r.is_active),
    isAutoAccepting: toBool(r.is_auto_accepting),
    joinedCallAt: toDateOrNull(r.joined_call_at),
  };
}

export function rowToSpace(r: SpacesTable, members: Member[]): Space {
  return {
    id: r.id,
    organizationId: r.organization_id,
    kind: r.kind,
    name: r.name,
    slug: r.slug,
    isActive: toBool(r.is_active),
    closingMessage: r.closing_message,
    hasWaitingList: toBool(r.has_waiting_list),
    members,
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

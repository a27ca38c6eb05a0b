/**
 * @module store/contract/fixtures
 * Objects and assertions the storage contract's parts share.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../domain/errors.ts';
import type { StoreConnection } from '../../domain/ports/store.ts';
import type { ApiKey, Meeting, Organization, Room, Space, SpaceKind, User } from '../../domain/types.ts';
import type { MemberState } from '../../domain/waiting/ports.ts';

export interface OpenedStore {
  store: StoreConnection;
  dispose(): Promise<void>;
}

/** The store of the running test (opened fresh for each). */
export interface ContractEnv {
  readonly store: StoreConnection;
}

// Millisecond precision matters: the store keeps epoch milliseconds.
export const T0 = new Date('2024-05-06T07:08:09.123Z');
export const later = (ms: number) => new Date(T0.getTime() + ms);

export function org(overrides: Partial<Organization> = {}): Organization {
  const id = randomUUID();
  return { id, name: 'Acme Clinic', slug: `acme-${id.slice(0, 8)}`, type: 'medical', createdAt: T0, ...overrides };
}

export function user(organizationId: string, overrides: Partial<User> = {}): User {
  return {
    id: randomUUID(),
    organizationId,
    email: `Ann.${randomUUID().slice(0, 6)}@Acme.test`,
    fullName: 'Ann Lee',
    role: 'ADMIN',
    createdAt: T0,
    ...overrides,
  };
}

export function apiKey(organizationId: string, overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: randomUUID(),
    organizationId,
    publicKey: `pk_${randomUUID()}`,
    secretHash: 'hmac-sha256$abcdef',
    expiresAt: later(86_400_000),
    revokedAt: null,
    createdAt: T0,
    name: 'Practice software',
    lastUsedAt: null,
    ...overrides,
  };
}

export function meeting(organizationId: string, overrides: Partial<Meeting> = {}): Meeting {
  return {
    id: randomUUID(),
    organizationId,
    ownerUserId: null,
    type: 'MEETING',
    isInfinite: false,
    queryParameters: null,
    shortCode: null,
    title: null,
    createdAt: T0,
    closesAt: later(900_000),
    closedAt: null,
    deletedAt: null,
    lock: 'open',
    ...overrides,
  };
}

export function room(organizationId: string, overrides: Partial<Room> = {}): Room {
  return { id: randomUUID(), organizationId, slug: `room-${randomUUID().slice(0, 8)}`, title: 'Daily', createdAt: T0, ...overrides };
}

export function space(organizationId: string, kind: SpaceKind, overrides: Partial<Space> = {}): Space {
  return {
    id: randomUUID(),
    organizationId,
    kind,
    name: `The ${kind}`,
    slug: `${kind}-${randomUUID().slice(0, 8)}`,
    isActive: true,
    closingMessage: 'Back soon',
    hasWaitingList: kind === 'board',
    members: [],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export async function assertConflict(promise: Promise<unknown>, field: string, message?: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ConflictError, `expected ConflictError, got ${String(error)}`);
    assert.equal(error.field, field);
    if (message !== undefined) assert.equal(error.message, message);
    assert.doesNotMatch(error.message, /insert|select|update|constraint|violates/i);
    return true;
  });
}

/** A member as the domain hands it to the store. */
export function member(userId: string, overrides: Partial<MemberState> = {}): MemberState {
  return { userId, isActive: true, isAutoAccepting: false, joinedCallAt: null, ...overrides };
}

/** An organization with two users, stored. */
export async function seed(store: StoreConnection) {
  const o = org();
  await store.insertOrganization(o);
  const ann = user(o.id, { fullName: 'Ann Lee' });
  const bob = user(o.id, { fullName: 'Bob Roe', role: 'USER', createdAt: later(1) });
  await store.insertUser(ann);
  await store.insertUser(bob);
  return { o, ann, bob };
}

/**
 * @module store/store.contract
 * The behaviour every `Store` must have, as one node:test suite that takes
 * a store factory. `store.test.ts` runs it against SQLite and PostgreSQL;
 * a new storage passes this before it is used.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ConflictError, DomainError, ValidationError } from '../domain/errors.ts';
import type { MemberState, StoreConnection } from '../domain/ports/store.ts';
import type { ApiKey, Meeting, Organization, Room, Space, SpaceKind, User } from '../domain/types.ts';

export interface OpenedStore {
  store: StoreConnection;
  dispose(): Promise<void>;
}

// Millisecond precision matters: the store keeps epoch milliseconds.
const T0 = new Date('2024-05-06T07:08:09.123Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

function org(overrides: Partial<Organization> = {}): Organization {
  const id = randomUUID();
  return { id, name: 'Acme Clinic', slug: `acme-${id.slice(0, 8)}`, type: 'medical', createdAt: T0, ...overrides };
}

function user(organizationId: string, overrides: Partial<User> = {}): User {
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

function apiKey(organizationId: string, overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: randomUUID(),
    organizationId,
    publicKey: `pk_${randomUUID()}`,
    secretHash: 'hmac-sha256$abcdef',
    expiresAt: later(86_400_000),
    revokedAt: null,
    createdAt: T0,
    ...overrides,
  };
}

function meeting(organizationId: string, overrides: Partial<Meeting> = {}): Meeting {
  return {
    id: randomUUID(),
    organizationId,
    ownerUserId: null,
    type: 'MEETING',
    isInfinite: false,
    queryParameters: null,
    shortCode: null,
    createdAt: T0,
    closesAt: later(900_000),
    closedAt: null,
    deletedAt: null,
    ...overrides,
  };
}

function room(organizationId: string, overrides: Partial<Room> = {}): Room {
  return { id: randomUUID(), organizationId, slug: `room-${randomUUID().slice(0, 8)}`, title: 'Daily', createdAt: T0, ...overrides };
}

function space(organizationId: string, kind: SpaceKind, overrides: Partial<Space> = {}): Space {
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

async function assertConflict(promise: Promise<unknown>, field: string, message?: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ConflictError, `expected ConflictError, got ${String(error)}`);
    assert.equal(error.field, field);
    if (message !== undefined) assert.equal(error.message, message);
    assert.doesNotMatch(error.message, /insert|select|update|constraint|violates/i);
    return true;
  });
}

/** A member as the domain hands it to the store. */
function member(userId: string, overrides: Partial<MemberState> = {}): MemberState {
  return { userId, isActive: true, isAutoAccepting: false, joinedCallAt: null, ...overrides };
}

export function storeContract(open: () => Promise<OpenedStore>): void {
  let opened: OpenedStore;
  let store: StoreConnection;

  beforeEach(async () => {
    opened = await open();
    store = opened.store;
  });
  afterEach(async () => {
    await opened.dispose();
  });

  /** An organization with two users, stored. */
  async function seed() {
    const o = org();
    await store.insertOrganization(o);
    const ann = user(o.id, { fullName: 'Ann Lee' });
    const bob = user(o.id, { fullName: 'Bob Roe', role: 'USER', createdAt: later(1) });
    await store.insertUser(ann);
    await store.insertUser(bob);
    return { o, ann, bob };
  }

  describe('migrations and health', () => {
    it('migrating twice applies nothing the second time', async () => {
      assert.deepEqual(await store.migrate(), []);
      await store.ping();
    });
  });

  describe('organizations and users', () => {
    it('round-trips an organization, found by id and by slug', async () => {
      const o = org({ type: 'basic' });
      await store.insertOrganization(o);
      assert.deepEqual(await store.findOrganization(o.id), o);
      assert.deepEqual(await store.findOrganization(o.slug), o);
      assert.equal(await store.findOrganization('no-such-org'), undefined);
      assert.deepEqual(await store.listOrganizations(), [o]);
    });

    it('refuses a second organization with the same slug', async () => {
      const o = org();
      await store.insertOrganization(o);
      await assertConflict(store.insertOrganization(org({ slug: o.slug })), 'slug');
      assert.equal((await store.listOrganizations()).length, 1);
    });

    it('round-trips users and lists them per organization', async () => {
      const { o, ann, bob } = await seed();
      const other = org();
      await store.insertOrganization(other);
      await store.insertUser(user(other.id));
      assert.deepEqual(await store.listUsers(o.id), [ann, bob]);
    });

    it('finds a user by email case-insensitively, only in its organization', async () => {
      const { o, ann } = await seed();
      assert.deepEqual(await store.findUserByEmail(o.id, ann.email.toUpperCase()), ann);
      assert.deepEqual(await store.findUserByEmail(o.id, ann.email.toLowerCase()), ann);
      const other = org();
      await store.insertOrganization(other);
      assert.equal(await store.findUserByEmail(other.id, ann.email), undefined);
    });

    it('refuses a duplicate email in one organization, whatever the case, but allows it in another', async () => {
      const { o, ann } = await seed();
      await assertConflict(store.insertUser(user(o.id, { email: ann.email.toUpperCase() })), 'email');
      const other = org();
      await store.insertOrganization(other);
      await store.insertUser(user(other.id, { email: ann.email }));
      assert.equal((await store.listUsers(o.id)).length, 2);
    });

    it('deletes a user, removing their memberships, and reports unknown users', async () => {
      const { o, ann, bob } = await seed();
      const board = space(o.id, 'board');
      await store.insertSpace(board);
      await store.updateSpace(o.id, 'board', board.id, { members: [member(ann.id), member(bob.id)] }, later(5));
      const owned = meeting(o.id, { ownerUserId: ann.id });
      await store.insertMeeting(owned);

      assert.equal(await store.deleteUser(o.id, ann.id), true);
      assert.equal(await store.findUserByEmail(o.id, ann.email), undefined);
      const after = await store.findSpace(o.id, 'board', board.id);
      assert.deepEqual(after?.members.map((m) => m.userId), [bob.id]);
      assert.equal((await store.findMeeting(o.id, owned.id))?.ownerUserId, null);
      assert.equal(await store.deleteUser(o.id, ann.id), false);
    });

    it("does not delete another organization's user", async () => {
      const { ann } = await seed();
      const other = org();
      await store.insertOrganization(other);
      assert.equal(await store.deleteUser(other.id, ann.id), false);
      assert.deepEqual(await store.findUserByEmail(ann.organizationId, ann.email), ann);
    });
  });

  describe('API keys', () => {
    it('round-trips keys with and without expiry', async () => {
      const { o } = await seed();
      const a = apiKey(o.id);
      const b = apiKey(o.id, { expiresAt: null, createdAt: later(1) });
      await store.insertApiKey(a);
      await store.insertApiKey(b);
      assert.deepEqual(await store.findApiKey(a.publicKey), a);
      assert.deepEqual(await store.findApiKey(b.publicKey), b);
      assert.equal(await store.findApiKey('pk_unknown'), undefined);
      assert.deepEqual(await store.listApiKeys(o.id), [a, b]);
    });

    it('refuses a duplicate public key', async () => {
      const { o } = await seed();
      const a = apiKey(o.id);
      await store.insertApiKey(a);
      await assertConflict(store.insertApiKey(apiKey(o.id, { publicKey: a.publicKey })), 'publicKey');
    });

    it('revokes a key once, keeping the first revocation time', async () => {
      const { o } = await seed();
      const a = apiKey(o.id);
      await store.insertApiKey(a);
      const revoked = await store.revokeApiKey(o.id, a.publicKey, later(10));
      assert.deepEqual(revoked, { ...a, revokedAt: later(10) });
      assert.deepEqual((await store.revokeApiKey(o.id, a.publicKey, later(20)))?.revokedAt, later(10));
      assert.deepEqual((await store.findApiKey(a.publicKey))?.revokedAt, later(10));
      assert.equal(await store.revokeApiKey(o.id, 'pk_unknown', later(10)), undefined);
    });

    it("does not revoke another organization's key", async () => {
      const { o } = await seed();
      const other = org();
      await store.insertOrganization(other);
      const a = apiKey(o.id);
      await store.insertApiKey(a);
      assert.equal(await store.revokeApiKey(other.id, a.publicKey, later(10)), undefined);
      assert.deepEqual(await store.findApiKey(a.publicKey), a);
    });
  });

  describe('meetings', () => {
    it('round-trips a meeting with dates, booleans and query parameters', async () => {
      const { o, ann } = await seed();
      const m = meeting(o.id, {
        ownerUserId: ann.id,
        isInfinite: true,
        queryParameters: { lang: 'en', volume: 7, muted: true },
        shortCode: 'Ab3dE9xZ',
        closesAt: null,
        closedAt: later(1000),
      });
      await store.insertMeeting(m);
      const found = await store.findMeeting(o.id, m.id);
      assert.deepEqual(found, m);
      assert.ok(found?.createdAt instanceof Date);
      assert.deepEqual(await store.live.findMeetingRecord({ id: m.id }), m);
      assert.deepEqual(await store.live.findMeetingRecord({ shortCode: 'Ab3dE9xZ' }), m);
      assert.equal(await store.live.findMeetingRecord({ shortCode: 'ab3de9xz' }), undefined);
    });

    it('round-trips a plain consultation', async () => {
      const { o } = await seed();
      const m = meeting(o.id, { type: 'CONSULTATION' });
      await store.insertMeeting(m);
      assert.deepEqual(await store.findMeeting(o.id, m.id), m);
    });

    it("does not find another organization's meeting", async () => {
      const { o } = await seed();
      const other = org();
      await store.insertOrganization(other);
      const m = meeting(o.id);
      await store.insertMeeting(m);
      assert.equal(await store.findMeeting(other.id, m.id), undefined);
      assert.equal(await store.deleteMeeting(other.id, m.id, later(1)), undefined);
      assert.deepEqual(await store.findMeeting(o.id, m.id), m);
    });

    it('refuses a taken meeting id, even across organizations', async () => {
      const { o } = await seed();
      const other = org();
      await store.insertOrganization(other);
      const m = meeting(o.id);
      await store.insertMeeting(m);
      await assertConflict(store.insertMeeting(meeting(other.id, { id: m.id })), 'id', 'A meeting with this id already exists.');
    });

    it('refuses a taken short code', async () => {
      const { o } = await seed();
      await store.insertMeeting(meeting(o.id, { shortCode: 'code1234', queryParameters: { a: 'b' } }));
      await assertConflict(
        store.insertMeeting(meeting(o.id, { shortCode: 'code1234', queryParameters: { a: 'c' } })),
        'shortCode',
      );
      // Meetings without a short code never collide with each other.
      await store.insertMeeting(meeting(o.id));
      await store.insertMeeting(meeting(o.id));
    });

    it('deletes a meeting: afterwards it is not found, and a second delete finds nothing', async () => {
      const { o } = await seed();
      const m = meeting(o.id, { shortCode: 'gone1234', queryParameters: { x: 1 } });
      await store.insertMeeting(m);
      const deleted = await store.deleteMeeting(o.id, m.id, later(60));
      assert.deepEqual(deleted, { ...m, deletedAt: later(60) });
      assert.equal(await store.findMeeting(o.id, m.id), undefined);
      // The meeting pages still find the record, to answer 410 rather than 404.
      assert.deepEqual((await store.live.findMeetingRecord({ id: m.id }))?.deletedAt, later(60));
      assert.deepEqual((await store.live.findMeetingRecord({ shortCode: 'gone1234' }))?.deletedAt, later(60));
      assert.equal(await store.deleteMeeting(o.id, m.id, later(70)), undefined);
      // The id stays taken: links to a deleted meeting must not reach a new one.
      await assertConflict(store.insertMeeting(meeting(o.id, { id: m.id })), 'id');
    });
  });

  describe('rooms and the shared slug namespace', () => {
    it('round-trips rooms with and without a title', async () => {
      const { o } = await seed();
      const titled = room(o.id);
      const untitled = room(o.id, { title: null });
      await store.insertRoom(titled);
      await store.insertRoom(untitled);
      assert.deepEqual(await store.findRoom(o.id, titled.slug), titled);
      assert.deepEqual(await store.findRoom(o.id, untitled.slug), untitled);
      assert.deepEqual(await store.live.findSlugPlace(untitled.slug), {
        kind: 'room',
        id: untitled.id,
        organizationId: o.id,
        slug: untitled.slug,
        title: null,
      });
      assert.equal(await store.findRoom(o.id, 'no-such-room'), undefined);
    });

    it("does not find another organization's room", async () => {
      const { o } = await seed();
      const other = org();
      await store.insertOrganization(other);
      const r = room(o.id);
      await store.insertRoom(r);
      assert.equal(await store.findRoom(other.id, r.slug), undefined);
    });

    it('refuses a room slug taken by a room, a board or a queue, in any organization', async () => {
      const { o } = await seed();
      const other = org();
      await store.insertOrganization(other);
      const r = room(o.id);
      const b = space(o.id, 'board');
      const q = space(o.id, 'queue');
      await store.insertRoom(r);
      await store.insertSpace(b);
      await store.insertSpace(q);
      const taken = 'This slug is already taken.';
      await assertConflict(store.insertRoom(room(other.id, { slug: r.slug })), 'slug', taken);
      await assertConflict(store.insertRoom(room(o.id, { slug: b.slug })), 'slug', taken);
      await assertConflict(store.insertRoom(room(o.id, { slug: q.slug })), 'slug', taken);
      await assertConflict(store.insertSpace(space(o.id, 'board', { slug: r.slug })), 'slug', taken);
      await assertConflict(store.insertSpace(space(o.id, 'queue', { slug: b.slug })), 'slug', taken);
      await assertConflict(store.insertSpace(space(other.id, 'board', { slug: q.slug })), 'slug', taken);
    });

    it('leaves nothing behind when an insert fails on its slug', async () => {
      const { o } = await seed();
      const r = room(o.id);
      await store.insertRoom(r);
      const clash = space(o.id, 'board', { slug: r.slug });
      await assertConflict(store.insertSpace(clash), 'slug');
      assert.equal(await store.findSpace(o.id, 'board', clash.id), undefined);
    });
  });

  describe('boards and queues', () => {
    it('round-trips a board and a queue', async () => {
      const { o } = await seed();
      const b = space(o.id, 'board', { isActive: false, closingMessage: null });
      const q = space(o.id, 'queue');
      await store.insertSpace(b);
      await store.insertSpace(q);
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), b);
      assert.deepEqual(await store.findSpace(o.id, 'queue', q.id), q);
    });

    it('does not find a board as a queue, or a space of another organization', async () => {
      const { o } = await seed();
      const other = org();
      await store.insertOrganization(other);
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      assert.equal(await store.findSpace(o.id, 'queue', b.id), undefined);
      assert.equal(await store.findSpace(other.id, 'board', b.id), undefined);
      assert.equal(await store.updateSpace(other.id, 'board', b.id, { name: 'x' }, later(1)), undefined);
      assert.equal(await store.deleteSpace(other.id, 'board', b.id), undefined);
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), b);
    });

    it('applies a patch of plain fields and bumps updatedAt', async () => {
      const { o } = await seed();
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      const updated = await store.updateSpace(
        o.id,
        'board',
        b.id,
        { name: 'Renamed', closingMessage: null, isActive: false, hasWaitingList: false },
        later(500),
      );
      const expected = { ...b, name: 'Renamed', closingMessage: null, isActive: false, hasWaitingList: false, updatedAt: later(500) };
      assert.deepEqual(updated, expected);
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), expected);
    });

    it('changes a slug, freeing the old one and taking the new one', async () => {
      const { o } = await seed();
      const q = space(o.id, 'queue');
      await store.insertSpace(q);
      const updated = await store.updateSpace(o.id, 'queue', q.id, { slug: 'new-queue-slug' }, later(1));
      assert.equal(updated?.slug, 'new-queue-slug');
      await store.insertRoom(room(o.id, { slug: q.slug }));
      await assertConflict(store.insertRoom(room(o.id, { slug: 'new-queue-slug' })), 'slug');
    });

    it('refuses a slug change to a taken slug and changes nothing', async () => {
      const { o } = await seed();
      const r = room(o.id);
      const b = space(o.id, 'board');
      await store.insertRoom(r);
      await store.insertSpace(b);
      await assertConflict(store.updateSpace(o.id, 'board', b.id, { slug: r.slug, name: 'Changed' }, later(1)), 'slug');
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), b);
      // The board still holds its own slug.
      await assertConflict(store.insertRoom(room(o.id, { slug: b.slug })), 'slug');
    });

    it('replaces members in the order and with the states given', async () => {
      const { o, ann, bob } = await seed();
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      const updated = await store.updateSpace(
        o.id,
        'board',
        b.id,
        { members: [member(bob.id), member(ann.id, { isActive: false, isAutoAccepting: true, joinedCallAt: later(42) })] },
        later(1),
      );
      assert.deepEqual(updated?.members, [
        { userId: bob.id, fullName: 'Bob Roe', isActive: true, isAutoAccepting: false, joinedCallAt: null },
        { userId: ann.id, fullName: 'Ann Lee', isActive: false, isAutoAccepting: true, joinedCallAt: later(42) },
      ]);
      assert.deepEqual((await store.findSpace(o.id, 'board', b.id))?.members, updated?.members);
      const cleared = await store.updateSpace(o.id, 'board', b.id, { members: [] }, later(2));
      assert.deepEqual(cleared?.members, []);
    });

    it('stores the members a space is created with', async () => {
      const { o, ann, bob } = await seed();
      const q = space(o.id, 'queue', {
        members: [
          { userId: ann.id, fullName: ann.fullName, isActive: false, isAutoAccepting: true, joinedCallAt: later(42) },
          { userId: bob.id, fullName: bob.fullName, isActive: true, isAutoAccepting: false, joinedCallAt: null },
        ],
      });
      await store.insertSpace(q);
      assert.deepEqual((await store.findSpace(o.id, 'queue', q.id))?.members, q.members);
    });

    it('refuses a member listed twice and changes nothing', async () => {
      const { o, ann } = await seed();
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      await store.updateSpace(o.id, 'board', b.id, { members: [member(ann.id)] }, later(1));
      const before = await store.findSpace(o.id, 'board', b.id);
      await assertConflict(store.updateSpace(o.id, 'board', b.id, { members: [member(ann.id), member(ann.id)], name: 'X' }, later(2)), 'memberIds');
      assert.deepEqual(await store.findSpace(o.id, 'board', b.id), before);
    });

    it('deletes a space, returning it and freeing its slug', async () => {
      const { o, ann } = await seed();
      const b = space(o.id, 'board');
      await store.insertSpace(b);
      const withMember = await store.updateSpace(o.id, 'board', b.id, { members: [member(ann.id)] }, later(1));
      assert.deepEqual(await store.deleteSpace(o.id, 'board', b.id), withMember);
      assert.equal(await store.findSpace(o.id, 'board', b.id), undefined);
      assert.equal(await store.deleteSpace(o.id, 'board', b.id), undefined);
      await store.insertSpace(space(o.id, 'queue', { slug: b.slug }));
      // The member's user is untouched.
      assert.deepEqual(await store.findUserByEmail(o.id, ann.email), ann);
    });
  });

  describe('transactions', () => {
    it('commits every write of a transaction together', async () => {
      const o = org();
      const ann = user(o.id);
      await store.transaction(async (tx) => {
        await tx.insertOrganization(o);
        await tx.insertUser(ann);
      });
      assert.deepEqual(await store.findUserByEmail(o.id, ann.email), ann);
    });

    it('undoes every write of a transaction that fails, also a nested one, and passes the error on', async () => {
      const o = org();
      const failure = new Error('stop here');
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.insertOrganization(o);
          await tx.transaction(async (inner) => inner.insertUser(user(o.id)));
          await tx.insertRoom(room(o.id));
          throw failure;
        }),
        (error: unknown) => error === failure,
      );
      assert.equal(await store.findOrganization(o.id), undefined);
      assert.deepEqual(await store.listUsers(o.id), []);
    });

    it('undoes a transaction whose write conflicts, reporting the conflict', async () => {
      const { o } = await seed();
      const r = room(o.id);
      await store.insertRoom(r);
      const other = org();
      await assertConflict(
        store.transaction(async (tx) => {
          await tx.insertOrganization(other);
          await tx.insertRoom(room(other.id, { slug: r.slug }));
        }),
        'slug',
      );
      assert.equal(await store.findOrganization(other.id), undefined);
    });
  });

  describe('errors', () => {
    it('reports conflicts as domain errors with the conflict code', async () => {
      const o = org();
      await store.insertOrganization(o);
      await assert.rejects(store.insertOrganization({ ...o, slug: `${o.slug}-2` }), (error: unknown) => {
        assert.ok(error instanceof DomainError);
        assert.equal(error.code, 'conflict');
        assert.deepEqual(error.fieldErrors.map((f) => f.field), ['id']);
        return true;
      });
    });
  });
}

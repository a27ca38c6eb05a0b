/**
 * An organization running its own members, in the domain, on SQLite and
 * PostgreSQL: its ADMINs (and the operator) invite, change roles and
 * remove; USERs, API keys and another organization's ADMINs cannot; the
 * last ADMIN stays; removing or demoting ends the member's sessions and
 * says so (`member.signed_out`); an ADMIN issues links only for
 * members without a password; and every change is recorded with who,
 * what and when, in the change's own transaction.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createContext } from '../../src/context.ts';
import { apiKeyActor, memberActor, operatorActor, type Actor } from '../../src/domain/actors.ts';
import type { DomainContext } from '../../src/domain/context.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../src/domain/errors.ts';
import type { DomainEvent } from '../../src/domain/events.ts';
import { createApiKey } from '../../src/domain/keys.ts';
import { inviteMember, issueMemberLink, setPasswordWithLink, tokenHash } from '../../src/domain/member-links.ts';
import { listOrganizationChanges } from '../../src/domain/organization-changes.ts';
import { addUser, changeUserRole, createOrganization, removeUser } from '../../src/domain/organizations.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import type { User } from '../../src/domain/types.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';

const PASSWORD = 'a long enough passphrase';

for (const database of await testDatabases()) {
  describe(`an organization's members, managed by its administrators, on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let ctx: DomainContext;
    const events: DomainEvent[] = [];
    let n = 0;

    before(async () => {
      db = await database.open();
      ctx = await createContext(
        { databaseUrl: db.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: 'test', passwordHashCost: 14 },
        { store: db.store },
      );
      ctx.events.subscribe((e) => events.push(e));
    });
    after(() => db?.dispose());

    /** A fresh organization with an ADMIN and a USER, both members acting. */
    const clinic = async () => {
      n += 1;
      const organization = await createOrganization(ctx, { name: `Clinic ${n}`, type: 'medical', slug: `clinic-${database.name}-${n}` });
      const operator = operatorActor(organization);
      const adaUser = await addUser(ctx, operator, { email: `ada${n}@clinic.test`, fullName: 'Ada Admin', role: 'ADMIN' });
      const umaUser = await addUser(ctx, operator, { email: `uma${n}@clinic.test`, fullName: 'Uma User' });
      return { organization, operator, ada: memberActor(organization, adaUser), uma: memberActor(organization, umaUser), adaUser, umaUser };
    };
    const sessionsOf = async (user: User) => {
      const { token } = await startSession(ctx, user, 'password');
      return token;
    };
    const stillSignedIn = async (token: string) => Boolean(await ctx.store.findMemberSession(tokenHash(token)));
    const changes = async (actor: Actor) => (await listOrganizationChanges(ctx, actor, { limit: 100 })).items;

    it('lets an ADMIN invite a member: added and a one-time link to hand over (no mail server), both recorded as the ADMIN’s', async () => {
      const { ada } = await clinic();
      const issued = await inviteMember(ctx, ada, { email: 'new.doc@clinic.test', fullName: 'New Doc', role: 'USER' }, 'de');
      assert.equal(issued.mail, 'not_configured');
      assert.match(issued.url, /^http:\/\/localhost:3000\/dashboard\/password\/[A-Za-z0-9_-]{43}$/);
      assert.equal(issued.user.role, 'USER');
      const [invited, added] = await changes(ada);
      assert.equal(added!.action, 'member.added');
      assert.deepEqual(added!.detail, { role: 'USER' });
      assert.equal(invited!.action, 'member.invited');
      assert.deepEqual(invited!.detail, { delivery: 'link' });
      for (const c of [added!, invited!]) {
        assert.deepEqual(c.actor, { kind: 'member', id: (ada as Extract<Actor, { kind: 'member' }>).user.id, label: `Ada Admin <${(ada as Extract<Actor, { kind: 'member' }>).user.email}>` });
        assert.deepEqual(c.subject, { id: issued.user.id, label: 'New Doc <new.doc@clinic.test>' });
        assert.ok(Math.abs(c.createdAt.getTime() - Date.now()) < 60_000);
      }
      // The invited member sets a password with it, once.
      await setPasswordWithLink(ctx, new URL(issued.url).pathname.split('/').pop()!, PASSWORD);
      await assert.rejects(issueMemberLink(ctx, ada, { userId: issued.user.id }, 'invite'), ForbiddenError);
    });

    it('refuses a taken email and a bad role, adding and recording nothing', async () => {
      const { ada, umaUser } = await clinic();
      const before = await changes(ada);
      await assert.rejects(inviteMember(ctx, ada, { email: umaUser.email.toUpperCase(), fullName: 'Twin' }), ConflictError);
      await assert.rejects(inviteMember(ctx, ada, { email: 'x@clinic.test', fullName: 'X', role: 'OWNER' }), (e: unknown) => e instanceof ValidationError && e.fieldErrors[0]?.field === 'role');
      assert.deepEqual(await changes(ada), before);
      assert.equal((await ctx.store.listUsers(ada.organization.id)).length, 2);
    });

    it('refuses a USER, an API key and another organization’s ADMIN every member command, changing nothing', async () => {
      const { organization, ada, uma, umaUser, adaUser } = await clinic();
      const other = await clinic();
      const { key } = await createApiKey(ctx, operatorActor(organization), { expiresAt: null });
      const apiKey = apiKeyActor(organization, key.id);
      const before = { users: await ctx.store.listUsers(organization.id), changes: await changes(ada) };
      for (const actor of [uma, apiKey]) {
        await assert.rejects(addUser(ctx, actor, { email: 'sneak@clinic.test', fullName: 'Sneak' }), ForbiddenError);
        await assert.rejects(changeUserRole(ctx, actor, { userId: umaUser.id }, 'ADMIN'), ForbiddenError);
        await assert.rejects(removeUser(ctx, actor, { userId: adaUser.id }), ForbiddenError);
        await assert.rejects(issueMemberLink(ctx, actor, { userId: umaUser.id }, 'invite'), ForbiddenError);
        await assert.rejects(listOrganizationChanges(ctx, actor, { limit: 10 }), ForbiddenError);
      }
      // Another organization's ADMIN: this organization's members do not exist for them.
      await assert.rejects(changeUserRole(ctx, other.ada, { userId: umaUser.id }, 'ADMIN'), NotFoundError);
      await assert.rejects(removeUser(ctx, other.ada, { userId: umaUser.id }), NotFoundError);
      await assert.rejects(issueMemberLink(ctx, other.ada, { userId: umaUser.id }, 'invite'), NotFoundError);
      assert.deepEqual({ users: await ctx.store.listUsers(organization.id), changes: await changes(ada) }, before);
    });

    it('changes a role, recording from and to; taking ADMIN away ends that member’s sessions, giving it does not', async () => {
      const { ada, umaUser } = await clinic();
      const umaToken = await sessionsOf(umaUser);
      events.length = 0;
      const promoted = await changeUserRole(ctx, ada, { userId: umaUser.id }, 'admin');
      assert.equal(promoted.role, 'ADMIN');
      assert.equal(await stillSignedIn(umaToken), true);
      assert.equal(events.some((e) => e.type === 'member.signed_out'), false);
      const [record] = await changes(ada);
      assert.equal(record!.action, 'member.role_changed');
      assert.deepEqual(record!.detail, { from: 'USER', to: 'ADMIN' });

      const same = await changes(ada);
      await changeUserRole(ctx, ada, { userId: umaUser.id }, 'ADMIN');
      assert.deepEqual(await changes(ada), same, 'an unchanged role records nothing');

      await changeUserRole(ctx, ada, { userId: umaUser.id }, 'USER');
      assert.equal(await stillSignedIn(umaToken), false);
      assert.deepEqual(
        events.filter((e) => e.type === 'member.signed_out').map((e) => e.type === 'member.signed_out' && e.userId),
        [umaUser.id],
      );
    });

    it('keeps the last ADMIN: a member cannot demote or remove them, the operator can', async () => {
      const { ada, adaUser, operator, organization } = await clinic();
      await assert.rejects(changeUserRole(ctx, ada, { userId: adaUser.id }, 'USER'), (e: unknown) => e instanceof ConflictError && e.field === 'role');
      await assert.rejects(removeUser(ctx, ada, { userId: adaUser.id }), ConflictError);
      assert.equal((await ctx.store.findUser(organization.id, adaUser.id))?.role, 'ADMIN');
      await changeUserRole(ctx, operator, { email: adaUser.email }, 'USER');
      assert.equal((await ctx.store.findUser(organization.id, adaUser.id))?.role, 'USER');
      const [record] = await changes(operator);
      assert.deepEqual(record!.actor, { kind: 'operator', id: null, label: 'operator' });
    });

    it('keeps an ADMIN when two ADMINs demote each other at the same moment: one change wins, the other is refused', async () => {
      for (let round = 0; round < 5; round += 1) {
        const { ada, adaUser, umaUser, operator, organization } = await clinic();
        await changeUserRole(ctx, operator, { userId: umaUser.id }, 'ADMIN');
        const asAdmin = memberActor(organization, { ...umaUser, role: 'ADMIN' });
        const outcomes = await Promise.allSettled([
          changeUserRole(ctx, ada, { userId: umaUser.id }, 'USER'),
          changeUserRole(ctx, asAdmin, { userId: adaUser.id }, 'USER'),
        ]);
        const admins = (await ctx.store.listUsers(organization.id)).filter((u) => u.role === 'ADMIN');
        assert.equal(admins.length, 1, `round ${round}: ${outcomes.map((o) => o.status).join(', ')}`);
        assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
      }
    });

    it('removes a member: gone from the organization, signed out everywhere, their unused link dead, recorded', async () => {
      const { ada, umaUser, organization } = await clinic();
      const link = await issueMemberLink(ctx, ada, { userId: umaUser.id }, 'invite');
      const token = await sessionsOf(umaUser);
      events.length = 0;
      const removed = await removeUser(ctx, ada, { userId: umaUser.id });
      assert.equal(removed.id, umaUser.id);
      assert.equal(await ctx.store.findUser(organization.id, umaUser.id), undefined);
      assert.equal(await stillSignedIn(token), false);
      assert.ok(events.some((e) => e.type === 'member.signed_out' && e.userId === umaUser.id));
      await assert.rejects(setPasswordWithLink(ctx, new URL(link.url).pathname.split('/').pop()!, PASSWORD), NotFoundError);
      const [record] = await changes(ada);
      assert.equal(record!.action, 'member.removed');
      assert.deepEqual(record!.subject, { id: umaUser.id, label: `Uma User <${umaUser.email}>` });
      await assert.rejects(removeUser(ctx, ada, { userId: umaUser.id }), NotFoundError);
    });

    it('issues no link to an ADMIN for a member with a password, nor any reset link; the operator may', async () => {
      const { ada, operator, umaUser } = await clinic();
      const first = await issueMemberLink(ctx, ada, { userId: umaUser.id }, 'invite');
      await setPasswordWithLink(ctx, new URL(first.url).pathname.split('/').pop()!, PASSWORD);
      await assert.rejects(issueMemberLink(ctx, ada, { userId: umaUser.id }, 'invite'), ForbiddenError);
      await assert.rejects(issueMemberLink(ctx, ada, { userId: umaUser.id }, 'reset'), ForbiddenError);
      const reset = await issueMemberLink(ctx, operator, umaUser.email, 'reset');
      assert.ok(reset.url);
      const [record] = await changes(operator);
      assert.equal(record!.action, 'member.reset_link');
    });

    it('pages the record newest first, and shows another organization none of it', async () => {
      const { ada, organization } = await clinic();
      for (let i = 0; i < 4; i++) await addUser(ctx, ada, { email: `p${i}@clinic.test`, fullName: `P ${i}` });
      const first = await listOrganizationChanges(ctx, ada, { limit: 3 });
      assert.equal(first.items.length, 3);
      const second = await listOrganizationChanges(ctx, ada, { limit: 3, before: first.next });
      const all = [...first.items, ...second.items];
      assert.equal(new Set(all.map((c) => c.id)).size, all.length);
      assert.deepEqual(all.filter((c) => c.actor.kind === 'member').map((c) => c.subject?.label), ['P 3 <p3@clinic.test>', 'P 2 <p2@clinic.test>', 'P 1 <p1@clinic.test>', 'P 0 <p0@clinic.test>']);
      const other = await clinic();
      assert.ok((await changes(other.ada)).every((c) => c.organizationId === other.organization.id));
      assert.ok(all.every((c) => c.organizationId === organization.id));
    });

    it('records nothing when the change fails inside its transaction', async () => {
      const { ada } = await clinic();
      const before = await changes(ada);
      const failing: DomainContext = {
        ...ctx,
        store: new Proxy(ctx.store, {
          get(target, property, receiver) {
            if (property === 'transaction') {
              return (work: (tx: typeof target) => Promise<unknown>) =>
                target.transaction(async (tx) => {
                  const wrapped = new Proxy(tx, {
                    get(t, p, r) {
                      if (p === 'insertOrganizationChange') return async () => { throw new Error('disk full'); };
                      return Reflect.get(t, p, r);
                    },
                  });
                  return work(wrapped);
                });
            }
            return Reflect.get(target, property, receiver);
          },
        }),
      };
      await assert.rejects(addUser(failing, ada, { email: 'half@clinic.test', fullName: 'Half' }), /disk full/);
      assert.equal(await ctx.store.findUserByEmail(ada.organization.id, 'half@clinic.test'), undefined);
      assert.deepEqual(await changes(ada), before);
    });
  });
}



/**
 * A member's pass to one meeting (the link a server gets when it accepts
 * a waiting client for a member): it admits that member to that meeting
 * only, until it expires, and only while they are still a member; a
 * changed character, another meeting, or another server secret is nobody.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createContext, type FoyerContext } from '../../src/context.ts';
import { operatorActor } from '../../src/domain/actors.ts';
import { issueMemberPass, memberOfPass } from '../../src/domain/member-pass.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { addUser, createOrganization, removeUser } from '../../src/domain/organizations.ts';
import type { Meeting, User } from '../../src/domain/types.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';

describe('a member’s pass to a meeting', () => {
  let db: TestDatabase;
  let ctx: FoyerContext;
  let meeting: Meeting;
  let other: Meeting;
  let lee: User;

  before(async () => {
    db = await openTestDatabase('sqlite');
    ctx = await createContext({ databaseUrl: db.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: 'pepper-one' }, { store: db.store });
    const org = await createOrganization(ctx, { name: 'Clinic', type: 'basic' });
    lee = await addUser(ctx, operatorActor(org), { email: 'lee@clinic.test', fullName: 'Dr Lee' });
    meeting = await createMeeting(ctx, operatorActor(org), {});
    other = await createMeeting(ctx, operatorActor(org), {});
  });
  after(() => db.dispose());

  it('admits the member to that meeting, and to no other', async () => {
    const pass = issueMemberPass(ctx, meeting.id, lee.id);
    const actor = await memberOfPass(ctx, pass, meeting.id);
    assert.equal(actor?.kind === 'member' && actor.user.id, lee.id);
    assert.equal(await memberOfPass(ctx, pass, other.id), null);
  });

  it('is nobody when a character changes, under another secret, malformed, or expired', async () => {
    const pass = issueMemberPass(ctx, meeting.id, lee.id);
    const last = pass.at(-1) === 'A' ? 'B' : 'A';
    assert.equal(await memberOfPass(ctx, pass.slice(0, -1) + last, meeting.id), null);
    assert.equal(await memberOfPass({ ...ctx, secretPepper: 'pepper-two' }, pass, meeting.id), null);
    for (const bad of ['', 'x', `${lee.id}.1.short`, null, undefined]) assert.equal(await memberOfPass(ctx, bad, meeting.id), null);
    const later = { ...ctx, now: () => new Date(Date.now() + (ctx.members.sessionMaxHours + 1) * 3_600_000) };
    assert.equal(await memberOfPass(later, pass, meeting.id), null);
  });

  it('opens nothing once the member is removed', async () => {
    const pass = issueMemberPass(ctx, meeting.id, lee.id);
    const org = (await ctx.store.findOrganization(meeting.organizationId))!;
    await removeUser(ctx, operatorActor(org), { userId: lee.id });
    assert.equal(await memberOfPass(ctx, pass, meeting.id), null);
  });
});

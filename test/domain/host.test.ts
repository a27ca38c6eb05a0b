/**
 * The host in the domain, whichever edge asks: who the host is
 * (the owner; for a meeting without one, any ADMIN of its organization;
 * never a member of another organization or a guest), who enters and who
 * knocks, and every host command refused for anyone else with nothing
 * changed. The rules need no second database: SQLite.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { createContext } from '../../src/context.ts';
import { memberActor, operatorActor, type Actor } from '../../src/domain/actors.ts';
import { ForbiddenError } from '../../src/domain/errors.ts';
import { liveContext, type LiveContext } from '../../src/domain/lifecycle.ts';
import { joinPlace } from '../../src/domain/joining.ts';
import { admissionOf, askToMute, endForEveryone, knocksOf, letIn, removeParticipant, setLocked, turnAway } from '../../src/domain/hosting.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { addUser, createOrganization } from '../../src/domain/organizations.ts';
import { isHost } from '../../src/domain/policies.ts';
import type { Meeting } from '../../src/domain/types.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';

describe('the host in the domain', () => {
  let db: TestDatabase;
  let ctx: LiveContext;
  let owner: Actor;
  let colleague: Actor;
  let orgAdmin: Actor;
  let foreignAdmin: Actor;
  let operator: Actor;

  beforeEach(async () => {
    db = await openTestDatabase('sqlite');
    const base = await createContext({ databaseUrl: db.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: 'test' }, { store: db.store });
    ctx = liveContext(base, { instanceId: 'solo', instanceTtlMs: 15_000 });
    await ctx.store.live.heartbeat('solo', new Date());
    const clinic = await createOrganization(ctx, { name: 'Clinic', type: 'medical' });
    operator = operatorActor(clinic);
    owner = memberActor(clinic, await addUser(ctx, operator, { email: 'lee@clinic.test', fullName: 'Dr Lee' }));
    colleague = memberActor(clinic, await addUser(ctx, operator, { email: 'kim@clinic.test', fullName: 'Dr Kim' }));
    orgAdmin = memberActor(clinic, await addUser(ctx, operator, { email: 'ada@clinic.test', fullName: 'Ada', role: 'ADMIN' }));
    const other = await createOrganization(ctx, { name: 'Other', type: 'basic' });
    foreignAdmin = memberActor(other, await addUser(ctx, operatorActor(other), { email: 'zed@other.test', fullName: 'Zed', role: 'ADMIN' }));
  });
  afterEach(() => db.dispose());

  const consultation = () => createMeeting(ctx, operator, { type: 'CONSULTATION', ownerEmail: 'lee@clinic.test' });
  const join = (meeting: Meeting, id: string, actor: Actor | null = null, guestKey: string | null = null) =>
    joinPlace(ctx, { connectionId: id, actor, guestKey, target: { meetingId: meeting.id }, name: id, audio: true, video: true });
  const enter = async (meeting: Meeting, id: string, actor: Actor | null = null, guestKey: string | null = null) => {
    assert.equal((await join(meeting, id, actor, guestKey)).kind, 'entered');
  };
  const knock = async (meeting: Meeting, id: string, guestKey: string | null = null) => {
    const outcome = await join(meeting, id, null, guestKey);
    assert.equal(outcome.kind, 'knocking');
    return outcome;
  };

  it('makes the owner the host of an owned meeting, and any ADMIN of the organization that of a meeting without owner', async () => {
    const owned = await consultation();
    assert.equal(isHost(owner, owned), true);
    for (const actor of [colleague, orgAdmin, foreignAdmin, operator, null]) assert.equal(isHost(actor, owned), false);
    const ownerless = { ...owned, ownerUserId: null };
    assert.equal(isHost(orgAdmin, ownerless), true);
    for (const actor of [colleague, foreignAdmin, operator, null]) assert.equal(isHost(actor, ownerless), false);
  });

  it('keeps arrivals of a consultation knocking until the owner enters, and lets only the owner lift it', async () => {
    let meeting = await consultation();
    assert.deepEqual(await admissionOf(ctx, meeting, { actor: null, guestKey: null }), { kind: 'knock', wasRemoved: false });
    assert.deepEqual(await admissionOf(ctx, meeting, { actor: orgAdmin, guestKey: null }), { kind: 'knock', wasRemoved: false });
    assert.equal((await join(meeting, 'c_kim', colleague)).kind, 'knocking', 'a colleague knocks like anyone');
    assert.equal((await ctx.store.live.findMeetingRecord({ id: meeting.id }))?.lock, 'until_owner');
    assert.deepEqual(await admissionOf(ctx, meeting, { actor: owner, guestKey: null }), { kind: 'enter', host: true });
    const entered = await join(meeting, 'c_lee', owner);
    assert.ok(entered.kind === 'entered');
    assert.equal(entered.host, true);
    assert.equal(entered.locked, false, 'the owner entering opened it');
    assert.deepEqual(entered.knocks.map((k) => k.id), ['c_kim'], 'and sees who knocks');
    meeting = (await ctx.store.live.findMeetingRecord({ id: meeting.id }))!;
    assert.equal(meeting.lock, 'open');
    assert.deepEqual(await admissionOf(ctx, meeting, { actor: null, guestKey: null }), { kind: 'enter', host: false });
  });

  it('refuses every host command to anyone but the host, changing nothing', async () => {
    const meeting = await createMeeting(ctx, operator, { type: 'CONSULTATION', ownerEmail: 'lee@clinic.test', waitForOwner: false });
    await enter(meeting, 'c_owner', owner);
    await enter(meeting, 'c_pat', null, 'browser:pat');
    await setLocked(ctx, owner, meeting.id, true);
    await knock(meeting, 'c_kit');
    for (const actor of [null, colleague, orgAdmin, foreignAdmin, operator]) {
      for (const command of [
        () => endForEveryone(ctx, actor, meeting.id),
        () => removeParticipant(ctx, actor, meeting.id, 'c_pat'),
        () => askToMute(ctx, actor, meeting.id, 'c_pat'),
        () => setLocked(ctx, actor, meeting.id, false),
        () => letIn(ctx, actor, meeting.id, 'c_kit'),
        () => turnAway(ctx, actor, meeting.id, 'c_kit'),
        () => knocksOf(ctx, actor, meeting.id),
      ]) {
        await assert.rejects(command(), ForbiddenError);
      }
    }
    const now = (await ctx.store.live.findMeetingRecord({ id: meeting.id }))!;
    assert.equal(now.closedAt, null);
    assert.equal(now.lock, 'locked');
    assert.deepEqual((await ctx.store.live.listPresent({ kind: 'meeting', id: meeting.id }, new Date(0))).map((p) => p.id), ['c_owner', 'c_pat']);
    assert.deepEqual((await knocksOf(ctx, owner, meeting.id)).map((k) => k.id), ['c_kit']);
    assert.equal(await ctx.store.isRemoved(meeting.id, 'browser:pat'), false);
  });

  it('makes a removed participant knock even when the meeting is open, until let in again; the host cannot be removed', async () => {
    const meeting = await createMeeting(ctx, operator, { type: 'CONSULTATION', ownerEmail: 'lee@clinic.test', waitForOwner: false });
    await enter(meeting, 'c_owner', owner);
    await enter(meeting, 'c_pat', null, 'browser:pat');
    await assert.rejects(removeParticipant(ctx, owner, meeting.id, 'c_owner'), /host cannot be removed/);
    await removeParticipant(ctx, owner, meeting.id, 'c_pat');
    assert.deepEqual(await admissionOf(ctx, meeting, { actor: null, guestKey: 'browser:pat' }), { kind: 'knock', wasRemoved: true });
    assert.deepEqual(await admissionOf(ctx, meeting, { actor: null, guestKey: 'browser:other' }), { kind: 'enter', host: false });
    const back = await knock(meeting, 'c_pat2', 'browser:pat');
    assert.ok(back.kind === 'knocking' && back.knock.wasRemoved, 'a removed participant knocks, marked as removed');
    await letIn(ctx, owner, meeting.id, 'c_pat2');
    assert.deepEqual(await admissionOf(ctx, meeting, { actor: null, guestKey: 'browser:pat' }), { kind: 'enter', host: false });
    await assert.rejects(letIn(ctx, owner, meeting.id, 'c_pat2'), /knocking/, 'a knock is decided once');
  });
});

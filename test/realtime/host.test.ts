/**
 * The host over the signalling protocol, with two Foyer instances
 * on one PostgreSQL database and one Redis: the owner recognised from
 * their session (and shown to everyone as the host), a consultation's
 * patient knocking until the owner lets them in, removal and the end for
 * everyone reaching the other instance, a removed participant's rejoin
 * refused, and every host message refused for anyone else.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { addUser, createOrganization } from '../../src/domain/organizations.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { Meeting, Organization, User } from '../../src/domain/types.ts';
import { postgresSkipReason, type TestDatabase } from '../support/databases.ts';
import { redisSkipReason } from '../support/redis.ts';
import { useTwoInstances, type FrontEnd } from './harness.ts';
import { TestClient, type Message } from './ws-client.ts';

const skip = (await postgresSkipReason()) ?? (await redisSkipReason());

describe('the host across two instances on one PostgreSQL and one Redis', { skip }, () => {
  const pair = useTwoInstances({ env: { PASSWORD_HASH_COST: '14' }, orgType: 'medical' });
  let db: TestDatabase;
  let one: FrontEnd;
  let two: FrontEnd;
  let clinic: Organization;
  let office: Organization;
  let drLee: User;
  let drKim: User;
  let clinicAdmin: User;
  let officeAdmin: User;

  /** A browser: `member` signs it in; `browser` is its participant cookie (a new one when absent). */
  const connect = async (fe: FrontEnd, who: { member?: User; browser?: string } = {}) => {
    const cookies = [`foyer_participant=${who.browser ?? randomBytes(18).toString('base64url')}`];
    if (who.member) cookies.push(`foyer_session=${(await startSession(fe.ctx, who.member, 'password')).token}`);
    const c = await TestClient.connect(fe.origin, { headers: { origin: fe.origin, cookie: cookies.join('; ') } });
    pair.clients.push(c);
    return c;
  };
  const join = async (fe: FrontEnd, meeting: Meeting, name: string, who: { member?: User; browser?: string } = {}) => {
    const c = await connect(fe, who);
    c.send({ type: 'join', meetingId: meeting.id, name, audio: true, video: true });
    const first = await c.next((m) => ['welcome', 'knocking', 'error'].includes(m.type));
    return { c, first };
  };
  const consultation = (owner: User, extra: { waitForOwner?: boolean } = {}) =>
    createMeeting(one.ctx, operatorActor(clinic), { type: 'CONSULTATION', ownerEmail: owner.email, ...extra });
  const knockNames = (m: Message) => (m.knocks as Array<{ name: string }>).map((k) => k.name);
  const record = async (meeting: Meeting) => (await db.store.live.findMeetingRecord({ id: meeting.id }))!;

  before(async () => {
    ({ db, one, two } = pair);
    clinic = one.org;
    office = await createOrganization(one.ctx, { name: 'Office', type: 'basic', slug: `office-${Date.now().toString(36)}` });
    drLee = await addUser(one.ctx, operatorActor(clinic), { email: 'lee@clinic.test', fullName: 'Dr Lee' });
    drKim = await addUser(one.ctx, operatorActor(clinic), { email: 'kim@clinic.test', fullName: 'Dr Kim' });
    clinicAdmin = await addUser(one.ctx, operatorActor(clinic), { email: 'admin@clinic.test', fullName: 'Ada', role: 'ADMIN' });
    officeAdmin = await addUser(one.ctx, operatorActor(office), { email: 'admin@office.test', fullName: 'Olu', role: 'ADMIN' });
  });

  it('keeps a consultation’s patient knocking until the owner arrives and lets them in, then opens it to later arrivals', async () => {
    const meeting = await consultation(drLee);
    assert.equal(meeting.lock, 'until_owner');
    const patient = await join(one, meeting, 'Pat');
    assert.deepEqual(patient.first, { type: 'knocking', wasRemoved: false });

    const owner = await join(two, meeting, 'Dr Lee', { member: drLee });
    assert.equal(owner.first.type, 'welcome', JSON.stringify(owner.first));
    assert.equal(owner.first.host, true, 'the owner is told they are the host');
    assert.equal(owner.first.you.host, true);
    const knocks = await owner.c.latest('knocks', (m) => knockNames(m).includes('Pat'));
    assert.equal((await record(meeting)).lock, 'open', 'the owner’s arrival ends the default lock');

    owner.c.send({ type: 'admit', knockId: knocks.knocks[0].id });
    const welcome = await patient.c.next((m) => m.type === 'welcome');
    assert.equal(welcome.host, false);
    assert.deepEqual(
      (welcome.participants as Array<{ name: string; host: boolean }>).map((p) => [p.name, p.host]),
      [['Dr Lee', true], ['Pat', false]],
      'everyone sees who the host is',
    );
    await owner.c.latest('knocks', (m) => m.knocks.length === 0);
    await owner.c.participantsBecome(['Dr Lee', 'Pat']);

    const later = await join(one, meeting, 'Sam');
    assert.equal(later.first.type, 'welcome', 'unlocked once the owner arrived');
  });

  it('lets a consultation created with waitForOwner false be entered at once', async () => {
    const meeting = await consultation(drLee, { waitForOwner: false });
    assert.equal((await join(one, meeting, 'Pat')).first.type, 'welcome');
  });

  it('refuses every host message from anyone but the host, and changes nothing', async () => {
    const meeting = await consultation(drLee);
    const owner = await join(one, meeting, 'Dr Lee', { member: drLee });
    const guest = await join(two, meeting, 'Gus');
    owner.c.send({ type: 'lock' });
    await owner.c.latest('lock', (m) => m.locked === true);
    const knocker = await join(two, meeting, 'Kit');
    assert.equal(knocker.first.type, 'knocking');
    const knockId = (await owner.c.latest('knocks', (m) => knockNames(m).includes('Kit'))).knocks[0].id as string;
    // Another member of the clinic, and its ADMIN: the owner runs an owned meeting.
    const colleague = await join(two, meeting, 'Dr Kim', { member: drKim });
    const orgAdmin = await join(one, meeting, 'Ada', { member: clinicAdmin });
    assert.equal(colleague.first.type, 'knocking', 'a locked meeting makes other members knock too');
    owner.c.send({ type: 'admit', knockId: (await owner.c.latest('knocks', (m) => m.knocks.length === 3)).knocks[1].id });
    owner.c.send({ type: 'admit', knockId: (await owner.c.latest('knocks', (m) => m.knocks.length === 3)).knocks[2].id });
    assert.equal((await colleague.c.next((m) => m.type === 'welcome')).host, false);
    assert.equal((await orgAdmin.c.next((m) => m.type === 'welcome')).host, false);
    await owner.c.participantsBecome(['Dr Lee', 'Gus', 'Dr Kim', 'Ada']);
    const ownerId = owner.first.you.id as string;
    const guestId = guest.first.you.id as string;

    const attempts = [
      { type: 'end' },
      { type: 'remove', participantId: ownerId },
      { type: 'remove', participantId: guestId },
      { type: 'ask_mute', participantId: ownerId },
      { type: 'lower_hand', participantId: guestId },
      { type: 'set_chat', off: true },
      { type: 'unlock' },
      { type: 'lock' },
      { type: 'admit', knockId },
      { type: 'turn_away', knockId },
    ];
    for (const intruder of [guest.c, colleague.c, orgAdmin.c]) {
      for (const attempt of attempts) {
        const from = intruder.messages.length;
        intruder.send(attempt);
        const answer = await intruder.next((m) => m.type === 'error', 5000, from);
        assert.equal(answer.code, 'forbidden', `${attempt.type}: ${JSON.stringify(answer)}`);
        assert.match(answer.message, /host/);
      }
    }
    // Nothing changed: everyone is still in, the meeting open and locked, Kit still knocking and never asked to mute.
    await owner.c.participantsBecome(['Dr Lee', 'Gus', 'Dr Kim', 'Ada']);
    const now = await record(meeting);
    assert.equal(now.closedAt, null);
    assert.equal(now.lock, 'locked');
    assert.deepEqual(knockNames(await owner.c.latest('knocks', () => true)), ['Kit']);
    assert.equal(knocker.c.closeCode, undefined);
    assert.ok(!owner.c.messages.some((m) => m.type === 'mute_requested'));
    assert.ok(![guest.c, owner.c].some((c) => c.messages.some((m) => m.type === 'hand_lowered' || m.type === 'chat_state')));
    assert.equal(now.chatOff, false);
    for (const c of [guest.c, colleague.c, orgAdmin.c]) assert.equal(c.closeCode, undefined, 'a refused host message does not close the socket');

    // A knocking participant may not send admin messages at all.
    knocker.c.send({ type: 'admit', knockId });
    assert.equal(await knocker.c.closed, 4400);
  });

  it('makes any ADMIN of the organization the host of a meeting without an owner, and no member of another organization', async () => {
    const meeting = await createMeeting(one.ctx, operatorActor(office), {});
    const stranger = await join(two, meeting, 'Dr Lee', { member: drLee });
    assert.equal(stranger.first.host, false);
    const admin = await join(one, meeting, 'Olu', { member: officeAdmin });
    assert.equal(admin.first.host, true);
    admin.c.send({ type: 'ask_mute', participantId: stranger.first.you.id });
    await stranger.c.next((m) => m.type === 'mute_requested');
  });

  it('removes a participant on the other instance, refuses their rejoin with the same link, and lets them in again only when the host does', async () => {
    const meeting = await consultation(drLee, { waitForOwner: false });
    const owner = await join(one, meeting, 'Dr Lee', { member: drLee });
    const browser = randomBytes(18).toString('base64url');
    const pat = await join(two, meeting, 'Pat', { browser });
    await owner.c.participantsBecome(['Dr Lee', 'Pat']);

    owner.c.send({ type: 'remove', participantId: pat.first.you.id });
    assert.equal(await pat.c.closed, 4460);
    assert.equal(pat.c.messages.at(-1)?.code, 'removed');
    await owner.c.participantsBecome(['Dr Lee']);

    // The same browser comes back, on either instance: it knocks, flagged, and is not in the call.
    const back = await join(one, meeting, 'Pat', { browser });
    assert.deepEqual(back.first, { type: 'knocking', wasRemoved: true });
    const knocks = await owner.c.latest('knocks', (m) => knockNames(m).includes('Pat'));
    assert.equal(knocks.knocks[0].wasRemoved, true);
    owner.c.send({ type: 'turn_away', knockId: knocks.knocks[0].id });
    assert.equal(await back.c.closed, 4461);
    await owner.c.participantsBecome(['Dr Lee']);

    const again = await join(two, meeting, 'Pat', { browser });
    assert.equal(again.first.type, 'knocking');
    owner.c.send({ type: 'admit', knockId: (await owner.c.latest('knocks', (m) => m.knocks.length === 1)).knocks[0].id });
    await again.c.next((m) => m.type === 'welcome');
    await owner.c.participantsBecome(['Dr Lee', 'Pat']);
    // Let in again, the removal is lifted: a reload enters directly.
    again.c.close();
    await owner.c.participantsBecome(['Dr Lee']);
    assert.equal((await join(one, meeting, 'Pat', { browser })).first.type, 'welcome');
  });

  it('ends the meeting for everyone on both instances, and its page then answers 410', async () => {
    const meeting = await consultation(drLee);
    const knocker = await join(two, meeting, 'Early');
    assert.equal(knocker.first.type, 'knocking');
    const owner = await join(one, meeting, 'Dr Lee', { member: drLee });
    const pat = await join(two, meeting, 'Pat');
    assert.equal(pat.first.type, 'welcome');
    owner.c.send({ type: 'end' });
    for (const c of [pat.c, owner.c, knocker.c]) {
      assert.deepEqual(await c.next((m) => m.type === 'ended'), { type: 'ended', reason: 'closed', by: 'host' });
      assert.equal(await c.closed, 4410);
    }
    assert.ok((await record(meeting)).closedAt);
    assert.equal((await fetch(`${two.origin}/meetings/${meeting.id}`)).status, 410);
    const late = await join(one, meeting, 'Late');
    assert.equal(late.first.code, 'closed');
  });

  it('locks and unlocks for everyone, and asks a participant on the other instance to mute', async () => {
    const meeting = await consultation(drLee, { waitForOwner: false });
    const owner = await join(one, meeting, 'Dr Lee', { member: drLee });
    const pat = await join(two, meeting, 'Pat');
    assert.equal(pat.first.locked, false);
    owner.c.send({ type: 'lock' });
    await pat.c.latest('lock', (m) => m.locked === true);
    assert.equal((await join(two, meeting, 'Sam')).first.type, 'knocking');
    owner.c.send({ type: 'unlock' });
    await pat.c.latest('lock', (m) => m.locked === false);
    assert.equal((await join(one, meeting, 'Tia')).first.type, 'welcome');
    owner.c.send({ type: 'ask_mute', participantId: pat.first.you.id });
    await pat.c.next((m) => m.type === 'mute_requested');
  });

  it('lowers a raised hand on the other instance: everyone sees it down, its owner is told by whom', async () => {
    const meeting = await consultation(drLee, { waitForOwner: false });
    const owner = await join(one, meeting, 'Dr Lee', { member: drLee });
    const pat = await join(two, meeting, 'Pat');
    const patId = pat.first.you.id as string;
    const handOf = (m: Message) => (m.participants as Array<{ id: string; hand: boolean }>).find((p) => p.id === patId)?.hand;
    pat.c.send({ type: 'hand', raised: true });
    await owner.c.latest('participants', (m) => handOf(m) === true);
    owner.c.send({ type: 'lower_hand', participantId: patId });
    assert.deepEqual(await pat.c.next((m) => m.type === 'hand_lowered'), { type: 'hand_lowered', by: 'host' });
    await owner.c.latest('participants', (m) => handOf(m) === false);
    await pat.c.latest('participants', (m) => handOf(m) === false);
    // Someone no longer there: refused in words, the host's socket stays.
    const from = owner.c.messages.length;
    owner.c.send({ type: 'lower_hand', participantId: 'c_gone' });
    assert.equal((await owner.c.next((m) => m.type === 'error', 5000, from)).code, 'not_found');
    assert.equal(owner.c.closeCode, undefined);
  });

  it('ends a waiting-list call for everyone as a hang-up: the client is served and the member free', async () => {
    const operator = operatorActor(clinic);
    const created = await createSpace(one.ctx, operator, 'queue', { name: 'Walk-in', slug: `walk-in-${Date.now().toString(36)}` });
    const queue = await updateSpace(one.ctx, operator, 'queue', created.id, { memberIds: [drKim.id] });
    const console = await connect(two, { member: drKim });
    console.send({ type: 'console', kind: 'queue', spaceId: queue.id });
    await console.next((m) => m.type === 'console');
    const waiting = await connect(one);
    waiting.send({ type: 'wait', slug: queue.slug, name: 'Wes', token: null });
    await waiting.next((m) => m.type === 'waiting');
    console.send({ type: 'take_next' });
    const meetingId = (await console.latest('console', (m) => m.view.me.current !== null)).view.me.current.meetingId as string;
    const meeting = await record({ id: meetingId } as Meeting);
    assert.equal(meeting.lock, 'open', 'the client taken does not knock');
    const member = await join(two, meeting, 'Dr Kim', { member: drKim });
    assert.equal(member.first.host, true, 'the member is the host of their waiting-list call');
    const client = await join(one, meeting, 'Wes');
    assert.equal(client.first.type, 'welcome');
    member.c.send({ type: 'end' });
    assert.equal((await client.c.next((m) => m.type === 'ended')).type, 'ended');
    await waiting.latest('waiting', (m) => m.view.state === 'served');
    await console.latest('console', (m) => m.view.me.current === null);
  });

  it('tells the owner’s meeting page, and only theirs, that they are the host, and gives every browser a participant cookie', async () => {
    const meeting = await consultation(drLee);
    const settingsOf = async (cookie?: string) => {
      const page = await fetch(`${one.origin}/meetings/${meeting.id}`, { headers: cookie ? { cookie } : {} });
      const json = /<script type="application\/json" id="foyer-settings">([^<]*)<\/script>/.exec(await page.text())?.[1];
      return { settings: JSON.parse(json ?? '{}'), setCookie: page.headers.get('set-cookie') ?? '' };
    };
    const session = async (user: User) => `foyer_session=${(await startSession(one.ctx, user, 'password')).token}`;
    const owner = await settingsOf(await session(drLee));
    assert.equal(owner.settings.host, true);
    assert.equal(owner.settings.consultation, true);
    assert.equal((await settingsOf(await session(drKim))).settings.host, false);
    assert.equal((await settingsOf(await session(clinicAdmin))).settings.host, false, 'an owned meeting is run by its owner only');
    const guest = await settingsOf();
    assert.equal(guest.settings.host, false);
    assert.match(guest.setCookie, /foyer_participant=[A-Za-z0-9_-]{24}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax/);
  });

  it('turns the chat off for everyone on every instance, refused by the server while off, and on again', async () => {
    const meeting = await consultation(drLee, { waitForOwner: false });
    const owner = await join(one, meeting, 'Dr Lee', { member: drLee });
    const pat = await join(two, meeting, 'Pat');
    assert.equal(pat.first.chatOff, false);
    owner.c.send({ type: 'set_chat', off: true });
    assert.deepEqual(await pat.c.next((m) => m.type === 'chat_state'), { type: 'chat_state', off: true });
    await owner.c.next((m) => m.type === 'chat_state');
    assert.equal((await record(meeting)).chatOff, true);
    // Refused on either instance, the host's own too; nothing reaches anyone.
    for (const c of [pat.c, owner.c]) {
      const from = c.messages.length;
      c.send({ type: 'chat', text: 'hello?' });
      const refused = await c.next((m) => m.type === 'error', 5000, from);
      assert.deepEqual([refused.code, refused.about], ['chat_off', 'chat']);
    }
    // Someone joining later learns it from their welcome.
    const sam = await join(one, meeting, 'Sam');
    assert.equal(sam.first.chatOff, true);
    assert.ok(![owner.c, pat.c, sam.c].some((c) => c.messages.some((m) => m.type === 'chat')));

    owner.c.send({ type: 'set_chat', off: false });
    await sam.c.latest('chat_state', (m) => m.off === false);
    await pat.c.latest('chat_state', (m) => m.off === false);
    pat.c.send({ type: 'chat', text: 'back on' });
    assert.equal((await sam.c.next((m) => m.type === 'chat')).text, 'back on');
  });
});

/**
 * Meetings and waiting lists run from the organization's own server, with
 * two Foyer instances on one PostgreSQL database and one Redis: the REST
 * calls go to one instance while the people are connected to the other.
 * - `GET /v3/meeting/:id/participants` lists everyone, whichever instance
 *   holds them, with the ids their pages and webhooks use;
 * - `DELETE …/participants/:id` removes one as the host's Remove does (their
 *   socket is told, they knock when they come back);
 * - `POST …/end` ends the call for everyone as the host's End does, and
 *   `GET` says closed, with when;
 * - a board's line is read, a client accepted for a member, whose link
 *   (their pass) makes their page that member without a sign-in session:
 *   the host of the call, and the member whose joining starts it;
 *   another client declined with a message; a queue's next client taken;
 * each raising the webhooks the browser path raises.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createApiKey } from '../../src/domain/keys.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { addUser } from '../../src/domain/organizations.ts';
import { startSession } from '../../src/domain/sign-in.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import type { Space, User } from '../../src/domain/types.ts';
import { createWebhookEndpoint } from '../../src/domain/webhooks/endpoints.ts';
import { postgresSkipReason } from '../support/databases.ts';
import { redisSkipReason } from '../support/redis.ts';
import { request, type ApiResponse } from '../support/server.ts';
import { useTwoInstances, waitFor, type FrontEnd } from './harness.ts';
import { TestClient } from './ws-client.ts';

const skip = (await postgresSkipReason()) ?? (await redisSkipReason());
let sequence = 0;

describe('the REST API running meetings and waiting lists across two instances (PostgreSQL, Redis)', { skip }, () => {
  const pair = useTwoInstances({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, orgType: 'medical' });
  let one: FrontEnd;
  let two: FrontEnd;
  let headers: Record<string, string>;
  let drLee: User;
  let drKim: User;

  /** A REST call to instance two. */
  const api = (method: string, path: string, json?: unknown): Promise<ApiResponse> =>
    request(`${two.origin}/api/v3${path}`, method, { headers, ...(json === undefined ? {} : { json }) });
  const connect = async (fe: FrontEnd, member?: User, browser?: string) => {
    const cookies = [`foyer_participant=${browser ?? `b${++sequence}${'x'.repeat(20)}`}`];
    if (member) cookies.push(`foyer_session=${(await startSession(fe.ctx, member, 'password')).token}`);
    const c = await TestClient.connect(fe.origin, { headers: { origin: fe.origin, cookie: cookies.join('; ') } });
    pair.clients.push(c);
    return c;
  };
  const deliveriesOf = async (type: string) => {
    const endpoints = await one.ctx.store.listWebhookEndpoints(one.org.id);
    const all = (await Promise.all(endpoints.map((e) => one.ctx.store.listWebhookDeliveries(one.org.id, e.id, 200)))).flat();
    return all.filter((d) => d.eventType === type).map((d) => JSON.parse(d.payload) as { data: Record<string, unknown> });
  };
  const newSpace = async (kind: 'board' | 'queue', members: User[]): Promise<Space> => {
    const space = await createSpace(one.ctx, one.operator, kind, { name: `${kind} ${++sequence}`, slug: `${kind}-rest-${sequence}-${Date.now().toString(36)}` });
    return updateSpace(one.ctx, one.operator, kind, space.id, { memberIds: members.map((m) => m.id) });
  };
  const wait = async (fe: FrontEnd, space: Space, name: string) => {
    const c = await connect(fe);
    c.send({ type: 'wait', slug: space.slug, name, token: null });
    await c.next((m) => m.type === 'waiting');
    c.send({ type: 'here' });
    await c.roundTrip();
    return c;
  };

  before(async () => {
    ({ one, two } = pair);
    const { key, secret } = await createApiKey(one.ctx, one.operator, { expiresAt: null });
    headers = { API_KEY: key.publicKey, API_SECRET: secret };
    drLee = await addUser(one.ctx, one.operator, { email: 'lee@clinic.test', fullName: 'Dr Lee' });
    drKim = await addUser(one.ctx, one.operator, { email: 'kim@clinic.test', fullName: 'Dr Kim' });
    // An endpoint for every event these calls raise: the outbox shows what would be sent.
    await createWebhookEndpoint(one.ctx, one.operator, {
      url: 'http://127.0.0.1:9/hooks',
      events: ['participant.removed', 'participant.left', 'meeting.ended', 'waiting.client.accepted', 'waiting.client.left'],
    });
  });

  it('lists who is in a meeting on either instance, removes one, and ends it for everyone, as the host would', async () => {
    const meeting = await createMeeting(one.ctx, one.operator, { type: 'CONSULTATION', ownerEmail: drLee.email, waitForOwner: false });
    const host = await connect(one, drLee);
    const hostWelcome = await host.join({ meetingId: meeting.id }, 'Dr Lee');
    const guest = await connect(two, undefined, 'guestbrowser-xxxxxxxxxxxxxx');
    const guestWelcome = await guest.join({ meetingId: meeting.id }, 'Pat');
    guest.send({ type: 'media', audio: false, video: true, screen: false });

    const read = await api('GET', `/meeting/${meeting.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual([read.body.state, read.body.closedAt], ['open', null]);
    let listed: ApiResponse | undefined;
    await waitFor(async () => {
      listed = await api('GET', `/meeting/${meeting.id}/participants`);
      return listed.body.participants?.length === 2 && listed.body.participants[1].audio === false;
    }, 10_000, 'both participants, Pat muted');
    const [lee, pat] = listed!.body.participants;
    assert.deepEqual(Object.keys(lee).sort(), ['audio', 'displayName', 'host', 'joinedAt', 'participantId', 'screen', 'video']);
    assert.deepEqual([lee.participantId, lee.displayName, lee.host], [hostWelcome.you.id, 'Dr Lee', true]);
    assert.deepEqual([pat.participantId, pat.displayName, pat.host, pat.audio, pat.video], [guestWelcome.you.id, 'Pat', false, false, true]);
    assert.ok(Date.parse(lee.joinedAt) <= Date.parse(pat.joinedAt));

    // The host cannot be removed; Pat can, and the socket on the other instance hears it.
    const refused = await api('DELETE', `/meeting/${meeting.id}/participants/${lee.participantId}`);
    assert.equal(refused.status, 400);
    assert.equal((await api('DELETE', `/meeting/${meeting.id}/participants/nobody-here`)).status, 404);
    const removed = await api('DELETE', `/meeting/${meeting.id}/participants/${pat.participantId}`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.participantId, pat.participantId);
    await guest.next((m) => m.type === 'error' && m.code === 'removed', 10_000);
    await host.participantsBecome(['Dr Lee'], 10_000);
    const again = await connect(two, undefined, 'guestbrowser-xxxxxxxxxxxxxx');
    again.send({ type: 'join', meetingId: meeting.id, name: 'Pat', audio: true, video: true });
    const knocking = await again.next((m) => m.type === 'knocking' || m.type === 'welcome', 10_000);
    assert.deepEqual([knocking.type, knocking.wasRemoved], ['knocking', true]);
    const [removal] = await deliveriesOf('participant.removed');
    assert.deepEqual(removal!.data, { meetingId: meeting.id, participantId: pat.participantId });

    // End for everyone, from instance two; the host on instance one is told.
    const ended = await api('POST', `/meeting/${meeting.id}/end`);
    assert.equal(ended.status, 200);
    assert.equal(ended.body.state, 'closed');
    assert.ok(Math.abs(Date.parse(ended.body.closedAt) - Date.now()) < 60_000);
    const told = await host.next((m) => m.type === 'ended', 10_000);
    assert.equal(told.by, 'host', 'the page says the meeting was ended for everyone, not closed by the idle rule');
    assert.equal((await api('POST', `/meeting/${meeting.id}/end`)).status, 409);
    assert.deepEqual((await api('GET', `/meeting/${meeting.id}/participants`)).body, { participants: [] });
    assert.equal((await api('GET', `/meeting/${meeting.id}`)).body.state, 'closed');
    assert.ok((await deliveriesOf('meeting.ended')).some((d) => d.data.meetingId === meeting.id && d.data.reason === 'closed'));
  });

  it('serves a board’s line for a member: the line, accept with the member’s link (their pass), and decline with a message', async () => {
    const board = await newSpace('board', [drLee]);
    const wanda = await wait(one, board, 'Wanda');
    const xavi = await wait(one, board, 'Xavi');
    const line = await api('GET', `/rooms/board/${board.id}/waiting`);
    assert.equal(line.status, 200);
    assert.deepEqual(line.body.waiting.map((w: { displayName: string; position: number; connected: boolean }) => [w.displayName, w.position, w.connected]), [['Wanda', 1, true], ['Xavi', 2, true]]);
    const [first, second] = line.body.waiting;

    const notMember = await api('POST', `/rooms/board/${board.id}/waiting/${first.entryId}/accept`, { userId: drKim.id });
    assert.equal(notMember.status, 400);
    assert.equal(notMember.body.errors[0].field, 'userId');
    const accepted = await api('POST', `/rooms/board/${board.id}/waiting/${first.entryId}/accept`, { userId: drLee.id });
    assert.equal(accepted.status, 200, accepted.text);
    assert.deepEqual(Object.keys(accepted.body).sort(), ['entryId', 'meetingId', 'redirectUrl', 'userId']);
    const link = new URL(accepted.body.redirectUrl);
    assert.equal(link.pathname, `/meetings/${accepted.body.meetingId}`);
    assert.equal(link.searchParams.get('displayName'), 'Dr Lee');
    const pass = link.searchParams.get('pass')!;
    assert.ok(pass.startsWith(`${drLee.id}.`));
    const view = await wanda.latest('waiting', (m) => m.view.meetingId === accepted.body.meetingId, 10_000);
    assert.equal(view.view.state, 'reserved');
    const [acceptance] = await deliveriesOf('waiting.client.accepted');
    assert.deepEqual(acceptance!.data, { spaceId: board.id, entryId: first.entryId, userId: drLee.id, meetingId: accepted.body.meetingId });

    // A forged pass is nobody; the member's own pass, without any sign-in session, is Dr Lee: the host, whose joining starts the call.
    const forger = await connect(two);
    forger.send({ type: 'join', meetingId: accepted.body.meetingId, name: 'Mallory', audio: true, video: true, pass: `${drLee.id}.9999999999.${'A'.repeat(43)}` });
    const forged = await forger.next((m) => m.type === 'welcome' || m.type === 'knocking' || m.type === 'error', 10_000);
    assert.notEqual(forged.host, true);
    forger.close();
    const member = await connect(two);
    member.send({ type: 'join', meetingId: accepted.body.meetingId, name: 'Dr Lee', audio: true, video: true, pass });
    const welcome = await member.next((m) => m.type === 'welcome', 10_000);
    assert.equal(welcome.host, true);
    // And acts as the host, not only shown as one: the pass's member locks and unlocks their call.
    member.send({ type: 'lock' });
    const locked = await member.next((m) => (m.type === 'lock' && m.locked === true) || m.type === 'error', 10_000);
    assert.equal(locked.type, 'lock', JSON.stringify(locked));
    member.send({ type: 'unlock' });
    await member.next((m) => m.type === 'lock' && m.locked === false, 10_000);
    await wanda.latest('waiting', (m) => m.view.state === 'in_call', 10_000);
    const after = await api('GET', `/rooms/board/${board.id}/waiting`);
    assert.deepEqual(after.body.waiting.map((w: { displayName: string; position: number }) => [w.displayName, w.position]), [['Xavi', 1]]);

    const declined = await api('POST', `/rooms/board/${board.id}/waiting/${second.entryId}/decline`, { message: 'Please call the practice.' });
    assert.deepEqual(declined.body, { entryId: second.entryId, outcome: 'declined' });
    const told = await xavi.latest('waiting', (m) => m.view.state === 'declined', 10_000);
    assert.equal(told.view.message, 'Please call the practice.');
    assert.equal((await api('POST', `/rooms/board/${board.id}/waiting/${second.entryId}/decline`)).status, 404);
    assert.ok((await deliveriesOf('waiting.client.left')).some((d) => d.data.entryId === second.entryId && d.data.outcome === 'declined'));
  });

  it('gives a queue’s next client to a member, and says when nobody waits', async () => {
    const queue = await newSpace('queue', [drKim]);
    const nobody = await api('POST', `/rooms/queue/${queue.id}/next`, { userId: drKim.id });
    assert.equal(nobody.status, 409);
    const yan = await wait(one, queue, 'Yan');
    const next = await api('POST', `/rooms/queue/${queue.id}/next`, { userId: drKim.id });
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body.userId, drKim.id);
    await yan.latest('waiting', (m) => m.view.meetingId === next.body.meetingId, 10_000);
    assert.deepEqual((await api('GET', `/rooms/queue/${queue.id}/waiting`)).body, { waiting: [] });
  });

  it('takes a place out of a queue’s or a board’s line, once, and not another organization’s', async () => {
    const queue = await newSpace('queue', [drKim]);
    const zed = await wait(one, queue, 'Zed');
    const ava = await wait(one, queue, 'Ava');
    const line = await api('GET', `/rooms/queue/${queue.id}/waiting`);
    const zedEntry = line.body.waiting.find((w: { displayName: string }) => w.displayName === 'Zed').entryId as string;
    const removed = await api('DELETE', `/rooms/queue/${queue.id}/waiting/${zedEntry}`);
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual(removed.body, { entryId: zedEntry, outcome: 'removed' });
    await zed.latest('waiting', (m) => m.view.state === 'declined', 10_000);
    assert.equal((await ava.latest('waiting', (m) => m.view.position === 1, 10_000)).view.position, 1);
    assert.equal((await api('DELETE', `/rooms/queue/${queue.id}/waiting/${zedEntry}`)).status, 404);
    assert.ok((await deliveriesOf('waiting.client.left')).some((d) => d.data.entryId === zedEntry && d.data.outcome === 'removed'));

    const board = await newSpace('board', [drLee]);
    await wait(one, board, 'Bea');
    const beaEntry = (await api('GET', `/rooms/board/${board.id}/waiting`)).body.waiting[0].entryId as string;
    assert.equal((await api('DELETE', `/rooms/queue/${queue.id}/waiting/${beaEntry}`)).status, 404, 'not in that line');
    assert.equal((await api('DELETE', `/rooms/board/${board.id}/waiting/${beaEntry}`)).status, 200);
  });
});

/**
 * The waiting-list events reach the outbox with the ids the API returns
 * and nothing more: a member going active, a client arriving, being
 * accepted (with the consultation's meeting.created), and another leaving.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createContext } from '../../src/context.ts';
import { memberActor, operatorActor } from '../../src/domain/actors.ts';
import { liveContext, type LiveContext } from '../../src/domain/lifecycle.ts';
import { addUser, createOrganization } from '../../src/domain/organizations.ts';
import { createSpace, updateSpace } from '../../src/domain/spaces.ts';
import { arrive, clientLeaves } from '../../src/domain/waiting/arrival.ts';
import { acceptClient, setMemberStatus } from '../../src/domain/waiting/serving.ts';
import { createWebhookEndpoint } from '../../src/domain/webhooks/endpoints.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhooks/types.ts';
import { openTestDatabase, type TestDatabase } from '../support/databases.ts';

describe('waiting-list webhooks', () => {
  let db: TestDatabase;
  let ctx: LiveContext;
  before(async () => {
    db = await openTestDatabase('sqlite');
    const base = await createContext({ databaseUrl: db.url, publicUrl: 'http://localhost:3000', idleCloseSeconds: 900, secretPepper: 'test' }, { store: db.store });
    ctx = liveContext(base, { instanceId: 'instance-a', instanceTtlMs: 15_000 });
  });
  after(() => db.dispose());

  it('writes member.status.changed, waiting.client.joined, accepted (with meeting.created) and left, with ids only', async () => {
    const org = await createOrganization(ctx, { name: 'Clinic', type: 'medical' });
    const operator = operatorActor(org);
    const ann = await addUser(ctx, operator, { email: 'ann.doc@clinic.test', fullName: 'Ann Doc', role: 'USER' });
    const board = await createSpace(ctx, operator, 'board', { name: 'Reception', slug: `reception-${randomUUID().slice(0, 8)}` });
    await updateSpace(ctx, operator, 'board', board.id, { memberIds: [ann.id] });
    const { endpoint } = await createWebhookEndpoint(ctx, operator, { url: 'https://crm.example.org/hooks', events: [...WEBHOOK_EVENT_TYPES] });

    const annActor = memberActor(org, ann);
    await setMemberStatus(ctx, annActor, 'board', board.id, { isActive: true });
    const readiness = { camera: 'ok', microphone: 'blocked', network: 'good' } as const;
    const first = await arrive(ctx, { slug: board.slug, displayName: 'Pat Client', connectionId: 'c1', readiness });
    const second = await arrive(ctx, { slug: board.slug, displayName: 'Sam Client', connectionId: 'c2' });
    assert.ok(first.ok && second.ok);
    const assignment = await acceptClient(ctx, annActor, board.id, first.entry.id);
    await clientLeaves(ctx, 'c2');

    const rows = (await db.store.listWebhookDeliveries(org.id, endpoint.id, 100)).reverse();
    const bodies = rows.map((r) => JSON.parse(r.payload));
    assert.deepEqual(bodies.map((b) => b.type), [
      'member.status.changed',
      'waiting.client.joined',
      'waiting.client.joined',
      'meeting.created',
      'waiting.client.accepted',
      'waiting.client.left',
    ]);
    assert.deepEqual(bodies[0].data, { spaceId: board.id, userId: ann.id, isActive: true, isAutoAccepting: false });
    assert.deepEqual(bodies[1].data, { spaceId: board.id, entryId: first.entry.id, displayName: 'Pat Client', readiness });
    assert.deepEqual(bodies[2].data, { spaceId: board.id, entryId: second.entry.id, displayName: 'Sam Client', readiness: null }, 'a page that ran no check');
    assert.deepEqual(bodies[3].data, { meetingId: assignment.meetingId });
    assert.deepEqual(bodies[4].data, { spaceId: board.id, entryId: first.entry.id, userId: ann.id, meetingId: assignment.meetingId });
    assert.deepEqual(bodies[5].data, { spaceId: board.id, entryId: second.entry.id, state: 'left', outcome: 'client_left' });
    assert.doesNotMatch(rows.map((r) => r.payload).join('\n'), /@|token/i, 'no emails, no client tokens');
    assert.equal(new Set(rows.map((r) => r.eventId)).size, rows.length);
  });
});

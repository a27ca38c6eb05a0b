/**
 * A participant whose socket drops without `leave` is kept, shown as
 * reconnecting, for RESUME_GRACE_SECONDS; a join with their resume token
 * within it is the same participant again (same id, host status, relayed
 * signalling), with no `participant.left` or `participant.joined`; after
 * the grace they leave as anyone would; a wrong, spent or late token is
 * refused (`resume_refused`) and the join goes on as a new participant.
 *
 * Each variant runs two instances (and a third with a short grace) on one
 * database: one SQLite file without Redis, and PostgreSQL with Redis,
 * where the participant also comes back on the other instance.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import type { DomainEvent } from '../../src/domain/events.ts';
import { createMeeting } from '../../src/domain/meetings.ts';
import { createRoom } from '../../src/domain/rooms.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import { openStore } from '../../src/store/open.ts';
import { freshDatabaseUrl, postgresSkipReason, type FreshDatabaseUrl } from '../support/databases.ts';
import { deletePrefix, redisSkipReason, TEST_REDIS_URL, uniquePrefix } from '../support/redis.ts';
import { startFrontEnd, waitFor, type FrontEnd } from './harness.ts';
import { TestClient, type Message } from './ws-client.ts';

const WAIT_MS = 30_000;
const SHORT_GRACE_SECONDS = 2;

const variants = [
  { name: 'SQLite, no Redis', kind: 'sqlite' as const, skip: undefined as string | undefined },
  { name: 'PostgreSQL and Redis', kind: 'postgres' as const, skip: (await postgresSkipReason()) ?? (await redisSkipReason()) },
];

type Person = { id: string; name: string; state: string };
const stateOf = (m: Message, id: string) => (m.participants as Person[]).find((p) => p.id === id)?.state;

for (const variant of variants) {
  describe(`resuming after a dropped socket: ${variant.name}`, { skip: variant.skip }, () => {
    let database: FreshDatabaseUrl;
    const stores: StoreConnection[] = [];
    let one: FrontEnd;
    let two: FrontEnd;
    let brief: FrontEnd;
    const clients: TestClient[] = [];
    const events: DomainEvent[] = [];
    const prefix = uniquePrefix();

    before(async () => {
      database = await freshDatabaseUrl(variant.kind);
      const env: Record<string, string> = { RESUME_GRACE_SECONDS: '60', ...(variant.kind === 'postgres' ? { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix } : {}) };
      stores.push(await openStore(database.url, { migrate: true }), await openStore(database.url));
      one = await startFrontEnd(stores[0]!, { env, realtime: { instanceId: 'one' } });
      two = await startFrontEnd(stores[1]!, { env, org: one.org, realtime: { instanceId: 'two' } });
      brief = await startFrontEnd(stores[0]!, { env: { ...env, RESUME_GRACE_SECONDS: String(SHORT_GRACE_SECONDS) }, org: one.org, realtime: { instanceId: 'brief' } });
      for (const fe of [one, two, brief]) fe.ctx.events.subscribe((e) => events.push(e));
    });
    after(async () => {
      for (const c of clients) c.terminate();
      for (const fe of [one, two, brief]) await fe?.close();
      for (const store of stores) await store.close();
      await database?.dispose();
      if (variant.kind === 'postgres') await deletePrefix(prefix);
    });

    const connect = async (fe: FrontEnd) => {
      const c = await TestClient.connect(fe.origin, { headers: { origin: fe.origin, cookie: `foyer_participant=${randomBytes(18).toString('base64url')}` } });
      clients.push(c);
      return c;
    };
    const join = async (fe: FrontEnd, meetingId: string, name: string, resume?: string) => {
      const c = await connect(fe);
      c.send({ type: 'join', meetingId, name, audio: true, video: false, ...(resume ? { resume } : {}) });
      const welcome = await c.next((m) => m.type === 'welcome', WAIT_MS);
      return { c, welcome };
    };
    const arrivalsAndDepartures = (id: string) => events.filter((e) => (e.type === 'participant.joined' || e.type === 'participant.left') && e.participantId === id).map((e) => e.type);

    it('keeps a dropped participant as reconnecting and gives them back their id, with no left or joined', async () => {
      const meeting = await createMeeting(one.ctx, one.operator, {});
      const ann = await join(one, meeting.id, 'Ann');
      const bob = await join(one, meeting.id, 'Bob');
      const annId = ann.welcome.you.id as string;
      assert.equal(typeof ann.welcome.resume, 'string');
      assert.ok(ann.welcome.resume.length >= 43, 'a token of 256 random bits');
      assert.equal(ann.welcome.resumed, false);

      ann.c.terminate();
      const started = Date.now();
      await bob.c.latest('participants', (m) => stateOf(m, annId) === 'reconnecting', WAIT_MS);
      console.log(`  Bob saw Ann reconnecting after ${Date.now() - started} ms`);
      const back = await join(one, meeting.id, 'Ann', ann.welcome.resume);
      assert.equal(back.welcome.resumed, true);
      assert.equal(back.welcome.you.id, annId);
      assert.notEqual(back.welcome.resume, ann.welcome.resume, 'a new token for the next time');
      assert.deepEqual((back.welcome.participants as Person[]).map((p) => [p.name, p.state]), [['Ann', 'connected'], ['Bob', 'connected']]);
      // Still muted as she was: the same participant, not a new join's defaults.
      assert.equal((back.welcome.participants as Array<Person & { video: boolean }>).find((p) => p.id === annId)?.video, false);
      await bob.c.latest('participants', (m) => stateOf(m, annId) === 'connected', WAIT_MS);
      // Signalling addressed to her id reaches her new socket.
      bob.c.send({ type: 'offer', to: annId, sdp: 'v=0 again' });
      assert.equal((await back.c.next((m) => m.type === 'offer', WAIT_MS)).from, bob.welcome.you.id);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(arrivalsAndDepartures(annId), ['participant.joined']);

      // The spent token takes nobody back: refused, and the join goes on as someone new.
      const again = await connect(one);
      again.send({ type: 'join', meetingId: meeting.id, name: 'Ann', resume: ann.welcome.resume });
      assert.equal((await again.next((m) => m.type === 'error', WAIT_MS)).code, 'resume_refused');
      const fresh = await again.next((m) => m.type === 'welcome', WAIT_MS);
      assert.equal(fresh.resumed, false);
      assert.notEqual(fresh.you.id, annId);
      // A hang-up (`leave`) is not a drop: she leaves at once (once Bob lists the new Ann too,
      // so that the two-name list below is the one after the leave).
      await bob.c.participantsBecome(['Ann', 'Ann', 'Bob'], WAIT_MS);
      back.c.send({ type: 'leave' });
      await bob.c.participantsBecome(['Ann', 'Bob'], WAIT_MS);
      assert.deepEqual(arrivalsAndDepartures(annId), ['participant.joined', 'participant.left']);
    });

    it('refuses a token that is not one, or of another place, and joins them anew', async () => {
      const meeting = await createMeeting(one.ctx, one.operator, {});
      const other = await createMeeting(one.ctx, one.operator, {});
      const ann = await join(one, meeting.id, 'Ann');
      ann.c.terminate();
      for (const [target, token] of [[meeting.id, randomBytes(32).toString('base64url')], [other.id, ann.welcome.resume], [meeting.id, 'x'.repeat(150)]] as const) {
        const c = await connect(one);
        c.send({ type: 'join', meetingId: target, name: 'Eve', resume: token });
        const refused = await c.next((m) => m.type === 'error', WAIT_MS);
        assert.equal(refused.code, 'resume_refused');
        const welcome = await c.next((m) => m.type === 'welcome', WAIT_MS);
        assert.equal(welcome.resumed, false);
        assert.notEqual(welcome.you.id, ann.welcome.you.id);
        c.send({ type: 'leave' });
      }
      // Those attempts did not spend Ann's token: she still comes back.
      const back = await join(one, meeting.id, 'Ann', ann.welcome.resume);
      assert.equal(back.welcome.you.id, ann.welcome.you.id);
    });

    it('lets a participant who does not come back within the grace leave, as any departure', async () => {
      const meeting = await createMeeting(one.ctx, one.operator, {});
      const ann = await join(brief, meeting.id, 'Ann');
      const bob = await join(brief, meeting.id, 'Bob');
      const annId = ann.welcome.you.id as string;
      ann.c.terminate();
      const started = Date.now();
      await bob.c.latest('participants', (m) => stateOf(m, annId) === 'reconnecting', WAIT_MS);
      await bob.c.participantsBecome(['Bob'], WAIT_MS);
      const after = Date.now() - started;
      console.log(`  Ann left ${after} ms after her socket dropped (grace ${SHORT_GRACE_SECONDS} s)`);
      assert.ok(after >= SHORT_GRACE_SECONDS * 1000 - 100, `kept for the grace (${after} ms)`);
      await waitFor(() => arrivalsAndDepartures(annId).length === 2, WAIT_MS, 'participant.left');
      assert.deepEqual(arrivalsAndDepartures(annId), ['participant.joined', 'participant.left']);
      const late = await connect(brief);
      late.send({ type: 'join', meetingId: meeting.id, name: 'Ann', resume: ann.welcome.resume });
      assert.equal((await late.next((m) => m.type === 'error', WAIT_MS)).code, 'resume_refused');
    });

    it('resumes in a room session too', async () => {
      const room = await createRoom(one.ctx, one.operator, { slug: `desk-${randomBytes(4).toString('hex')}`, title: 'Desk' });
      const c = await connect(one);
      c.send({ type: 'join', slug: room.slug, name: 'Ann' });
      const first = await c.next((m) => m.type === 'welcome', WAIT_MS);
      c.terminate();
      const back = await connect(one);
      back.send({ type: 'join', slug: room.slug, name: 'Ann', resume: first.resume });
      const welcome = await back.next((m) => m.type === 'welcome', WAIT_MS);
      assert.deepEqual([welcome.resumed, welcome.you.id, welcome.place], [true, first.you.id, { kind: 'room', title: 'Desk' }]);
    });

    // Across instances the deltas need Redis: only the PostgreSQL + Redis variant has two instances that talk.
    if (variant.kind !== 'sqlite') it('resumes on the other instance, closing a socket the server had not yet seen drop', async () => {
      const meeting = await createMeeting(one.ctx, operatorActor(one.org), {});
      const ann = await join(one, meeting.id, 'Ann');
      const bob = await join(two, meeting.id, 'Bob');
      const annId = ann.welcome.you.id as string;
      await bob.c.participantsBecome(['Ann', 'Bob'], WAIT_MS);
      ann.c.terminate();
      await bob.c.latest('participants', (m) => stateOf(m, annId) === 'reconnecting', WAIT_MS);
      const back = await join(two, meeting.id, 'Ann', ann.welcome.resume);
      assert.deepEqual([back.welcome.resumed, back.welcome.you.id], [true, annId]);
      await bob.c.latest('participants', (m) => stateOf(m, annId) === 'connected', WAIT_MS);
      bob.c.send({ type: 'offer', to: annId, sdp: 'v=0 across' });
      assert.equal((await back.c.next((m) => m.type === 'offer', WAIT_MS)).sdp, 'v=0 across');
      back.c.send({ type: 'answer', to: bob.welcome.you.id, sdp: 'v=0 back' });
      assert.equal((await bob.c.next((m) => m.type === 'answer', WAIT_MS)).from, annId);

      // Her page gives up on a socket that is in fact still open, and comes back on instance one: the old one is closed, nothing left.
      const third = await join(one, meeting.id, 'Ann', back.welcome.resume);
      assert.deepEqual([third.welcome.resumed, third.welcome.you.id], [true, annId]);
      assert.equal(await back.c.closed, 4409);
      bob.c.send({ type: 'offer', to: annId, sdp: 'v=0 third' });
      assert.equal((await third.c.next((m) => m.type === 'offer', WAIT_MS)).sdp, 'v=0 third');
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(arrivalsAndDepartures(annId), ['participant.joined']);
      assert.deepEqual((await bob.c.participantsBecome(['Ann', 'Bob'], WAIT_MS)).map((p) => p.state), ['connected', 'connected']);
    });
  });
}

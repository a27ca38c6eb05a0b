/**
 * v3 boards and queues through real HTTP on SQLite and PostgreSQL: create,
 * read, update (including member replacement) and delete, exact field sets,
 * defaults, refused updates that change nothing, and tenancy.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.ts';
import { PUBLIC_URL, UUID_V4, assertCreated, assertOk, assertProblem, keysOf, uniqueSlug, useApi, type ApiEnv } from './harness.ts';

const BOARD_KEYS = ['closingMessage', 'hasWaitingList', 'id', 'isActive', 'members', 'name', 'organizationId', 'redirectUrl', 'slug'];
const QUEUE_KEYS = BOARD_KEYS.filter((k) => k !== 'hasWaitingList');
const MEMBER_KEYS = ['fullName', 'isActive', 'isAutoAccepting', 'joinedCallAt', 'userId'];

async function create(env: ApiEnv, kind: 'board' | 'queue', body: Record<string, unknown> = {}) {
  const slug = uniqueSlug(kind);
  const res = await env.med.post(`/v3/rooms/${kind}`, { json: { name: `My ${kind}`, slug, ...body } });
  assertCreated(res);
  return { id: res.body.id as string, slug, res };
}

for (const storage of await testDatabases()) {
  describe(`boards and queues on ${storage.name}`, { skip: storage.skip }, () => {
    const env = useApi(storage);
    const ann = () => env.medical.users[0]!;
    const bob = () => env.medical.users[1]!;

    describe('boards', () => {
      it('creates a board and answers exactly {id, redirectUrl}', async () => {
        const { res, slug } = await create(env, 'board');
        assert.deepEqual(keysOf(res.body), ['id', 'redirectUrl']);
        assert.match(res.body.id, UUID_V4);
        assert.equal(res.body.redirectUrl, `${PUBLIC_URL}/${slug}`);
        assert.equal(res.headers.get('location'), `/api/v3/rooms/board/${res.body.id}`);
      });

      it('reads the whole board with its defaults: active, waiting list on, empty closing message, no members', async () => {
        const { id, slug } = await create(env, 'board');
        const res = await env.med.get(`/v3/rooms/board/${id}`);
        assertOk(res);
        assert.deepEqual(keysOf(res.body), BOARD_KEYS);
        assert.deepEqual(res.body, {
          id,
          name: 'My board',
          slug,
          isActive: true,
          organizationId: env.medical.organization.id,
          closingMessage: '',
          hasWaitingList: true,
          members: [],
          redirectUrl: `${PUBLIC_URL}/${slug}`,
        });
      });

      it('creates a board with a closing message and without waiting list', async () => {
        const { id } = await create(env, 'board', { closingMessage: 'Back at 9', hasWaitingList: false });
        const res = await env.med.get(`/v3/rooms/board/${id}`);
        assert.equal(res.body.closingMessage, 'Back at 9');
        assert.equal(res.body.hasWaitingList, false);
      });

      it('requires name and slug, and refuses wrong types', async () => {
        assertProblem(await env.med.post('/v3/rooms/board', { json: {} }), 400, 'validation-failed', ['name', 'slug']);
        assertProblem(await env.med.post('/v3/rooms/board'), 400, 'validation-failed', ['name', 'slug']);
        assertProblem(await env.med.post('/v3/rooms/board', { json: { name: '   ', slug: uniqueSlug() } }), 400, 'validation-failed', ['name']);
        assertProblem(
          await env.med.post('/v3/rooms/board', { json: { name: 'B', slug: uniqueSlug(), hasWaitingList: 'no', closingMessage: 3 } }),
          400,
          'validation-failed',
          ['closingMessage', 'hasWaitingList'],
        );
        assertProblem(await env.med.post('/v3/rooms/board', { json: { name: 'B', slug: 'Bad Slug' } }), 400, 'validation-failed', ['slug']);
      });

      it('updates every field and answers the updated board', async () => {
        const { id } = await create(env, 'board');
        const newSlug = uniqueSlug('renamed');
        const res = await env.med.post(`/v3/rooms/board/${id}`, {
          json: { name: 'Cardiology', slug: newSlug, closingMessage: 'Closed today', isActive: false, hasWaitingList: false, membersIds: [ann().id, bob().id] },
        });
        assertOk(res);
        assert.deepEqual(keysOf(res.body), BOARD_KEYS);
        assert.equal(res.body.name, 'Cardiology');
        assert.equal(res.body.slug, newSlug);
        assert.equal(res.body.redirectUrl, `${PUBLIC_URL}/${newSlug}`);
        assert.equal(res.body.closingMessage, 'Closed today');
        assert.equal(res.body.isActive, false);
        assert.equal(res.body.hasWaitingList, false);
        assert.deepEqual(res.body.members.map((m: { userId: string }) => m.userId), [ann().id, bob().id]);
        for (const member of res.body.members) assert.deepEqual(keysOf(member), MEMBER_KEYS);
        assert.deepEqual(res.body.members[0], { userId: ann().id, fullName: 'Ann Lee', isActive: true, isAutoAccepting: false, joinedCallAt: null });
        assert.deepEqual((await env.med.get(`/v3/rooms/board/${id}`)).body, res.body);
      });

      it('replaces the member set with membersIds', async () => {
        const { id } = await create(env, 'board');
        await env.med.post(`/v3/rooms/board/${id}`, { json: { membersIds: [ann().id, bob().id] } });
        const onlyBob = await env.med.post(`/v3/rooms/board/${id}`, { json: { membersIds: [bob().id] } });
        assert.deepEqual(onlyBob.body.members.map((m: { userId: string }) => m.userId), [bob().id]);
        const none = await env.med.post(`/v3/rooms/board/${id}`, { json: { membersIds: [] } });
        assert.deepEqual(none.body.members, []);
      });

      it('refuses membersIds naming a user of another organization, an unknown user or a duplicate, and changes nothing', async () => {
        const { id } = await create(env, 'board');
        await env.med.post(`/v3/rooms/board/${id}`, { json: { membersIds: [ann().id] } });
        const before = (await env.med.get(`/v3/rooms/board/${id}`)).body;
        for (const membersIds of [[env.stranger.users[0]!.id], [ann().id, randomUUID()], [bob().id, bob().id]]) {
          const res = await env.med.post(`/v3/rooms/board/${id}`, { json: { name: 'Changed', isActive: false, membersIds } });
          assertProblem(res, 400, 'validation-failed', ['membersIds']);
        }
        assertProblem(await env.med.post(`/v3/rooms/board/${id}`, { json: { membersIds: 'all' } }), 400, 'validation-failed', ['membersIds']);
        assert.deepEqual((await env.med.get(`/v3/rooms/board/${id}`)).body, before);
      });

      it('answers 409 when updating to a taken slug, 400 for an invalid one, and keeps the old slug', async () => {
        const a = await create(env, 'board');
        const b = await create(env, 'board');
        assertProblem(await env.med.post(`/v3/rooms/board/${a.id}`, { json: { slug: b.slug } }), 409, 'conflict', ['slug']);
        assertProblem(await env.med.post(`/v3/rooms/board/${a.id}`, { json: { slug: 'm' } }), 400, 'validation-failed', ['slug']);
        assert.equal((await env.med.get(`/v3/rooms/board/${a.id}`)).body.slug, a.slug);
      });

      it('frees the old slug when a board is renamed', async () => {
        const { id, slug } = await create(env, 'board');
        assertOk(await env.med.post(`/v3/rooms/board/${id}`, { json: { slug: uniqueSlug('moved') } }));
        assertCreated(await env.med.post('/v2/room', { json: { slug } }));
      });

      it('answers the unchanged board for an empty update', async () => {
        const { id } = await create(env, 'board');
        const before = (await env.med.get(`/v3/rooms/board/${id}`)).body;
        const res = await env.med.post(`/v3/rooms/board/${id}`, { json: {} });
        assertOk(res);
        assert.deepEqual(res.body, before);
        assert.deepEqual((await env.med.post(`/v3/rooms/board/${id}`)).body, before);
      });

      it('deletes a board, answers the deleted board, then 404, and frees its slug', async () => {
        const { id, slug } = await create(env, 'board');
        await env.med.post(`/v3/rooms/board/${id}`, { json: { membersIds: [ann().id] } });
        const before = (await env.med.get(`/v3/rooms/board/${id}`)).body;
        const res = await env.med.delete(`/v3/rooms/board/${id}`);
        assertOk(res);
        assert.deepEqual(res.body, before);
        assertProblem(await env.med.get(`/v3/rooms/board/${id}`), 404, 'not-found');
        assertProblem(await env.med.delete(`/v3/rooms/board/${id}`), 404, 'not-found');
        assertProblem(await env.med.post(`/v3/rooms/board/${id}`, { json: { name: 'x' } }), 404, 'not-found');
        assertCreated(await env.med.post('/room', { form: { slug } }));
      });
    });

    describe('queues', () => {
      it('creates a queue and answers exactly {id, redirectUrl}', async () => {
        const { res, slug } = await create(env, 'queue');
        assert.deepEqual(keysOf(res.body), ['id', 'redirectUrl']);
        assert.equal(res.body.redirectUrl, `${PUBLIC_URL}/${slug}`);
        assert.equal(res.headers.get('location'), `/api/v3/rooms/queue/${res.body.id}`);
      });

      it('reads the whole queue, without hasWaitingList', async () => {
        const { id, slug } = await create(env, 'queue', { closingMessage: 'We are closed' });
        const res = await env.med.get(`/v3/rooms/queue/${id}`);
        assertOk(res);
        assert.deepEqual(keysOf(res.body), QUEUE_KEYS);
        assert.deepEqual(res.body, {
          id,
          name: 'My queue',
          slug,
          isActive: true,
          organizationId: env.medical.organization.id,
          closingMessage: 'We are closed',
          members: [],
          redirectUrl: `${PUBLIC_URL}/${slug}`,
        });
      });

      it('requires name and slug', async () => {
        assertProblem(await env.med.post('/v3/rooms/queue', { json: { closingMessage: 'x' } }), 400, 'validation-failed', ['name', 'slug']);
      });

      it('updates a queue, honouring isActive, and ignores hasWaitingList and unknown fields', async () => {
        const { id } = await create(env, 'queue');
        const res = await env.med.post(`/v3/rooms/queue/${id}`, {
          json: { name: 'Dermatology', closingMessage: 'Opens at 8', isActive: false, membersIds: [bob().id], hasWaitingList: true, colour: 'red' },
        });
        assertOk(res);
        assert.deepEqual(keysOf(res.body), QUEUE_KEYS);
        assert.equal(res.body.name, 'Dermatology');
        assert.equal(res.body.closingMessage, 'Opens at 8');
        assert.equal(res.body.isActive, false);
        assert.deepEqual(res.body.members, [{ userId: bob().id, fullName: 'Bob Stone', isActive: true, isAutoAccepting: false, joinedCallAt: null }]);
        const read = await env.med.get(`/v3/rooms/queue/${id}`);
        assert.deepEqual(read.body, res.body);
        assertOk(await env.med.post(`/v3/rooms/queue/${id}`, { json: { isActive: true } }));
        assert.equal((await env.med.get(`/v3/rooms/queue/${id}`)).body.isActive, true);
      });

      it("refuses another organization's user as a queue member", async () => {
        const { id } = await create(env, 'queue');
        assertProblem(await env.med.post(`/v3/rooms/queue/${id}`, { json: { membersIds: [env.stranger.users[0]!.id] } }), 400, 'validation-failed', ['membersIds']);
        assert.deepEqual((await env.med.get(`/v3/rooms/queue/${id}`)).body.members, []);
      });

      it('deletes a queue, answers the deleted queue, then 404', async () => {
        const { id } = await create(env, 'queue');
        const before = (await env.med.get(`/v3/rooms/queue/${id}`)).body;
        const res = await env.med.delete(`/v3/rooms/queue/${id}`);
        assertOk(res);
        assert.deepEqual(res.body, before);
        assertProblem(await env.med.get(`/v3/rooms/queue/${id}`), 404, 'not-found');
      });
    });

    describe('unknown ids and tenancy', () => {
      it('answers 404 for unknown and malformed ids, and for an id of the other kind', async () => {
        const board = await create(env, 'board');
        const queue = await create(env, 'queue');
        for (const kind of ['board', 'queue']) {
          for (const id of [randomUUID(), 'not-an-id', '%00']) {
            assertProblem(await env.med.get(`/v3/rooms/${kind}/${id}`), 404, 'not-found');
            assertProblem(await env.med.post(`/v3/rooms/${kind}/${id}`, { json: { name: 'x' } }), 404, 'not-found');
            assertProblem(await env.med.delete(`/v3/rooms/${kind}/${id}`), 404, 'not-found');
          }
        }
        assertProblem(await env.med.get(`/v3/rooms/queue/${board.id}`), 404, 'not-found');
        assertProblem(await env.med.get(`/v3/rooms/board/${queue.id}`), 404, 'not-found');
      });

      it('finds a board by its id in any letter case', async () => {
        const { id } = await create(env, 'board');
        assertOk(await env.med.get(`/v3/rooms/board/${id.toUpperCase()}`));
      });

      for (const kind of ['board', 'queue'] as const) {
        it(`answers 404 for another organization's ${kind} on read, update and delete, with the unknown-id body, and changes nothing`, async () => {
          const { id } = await create(env, kind);
          const before = (await env.med.get(`/v3/rooms/${kind}/${id}`)).body;
          const unknown = await env.str.get(`/v3/rooms/${kind}/${randomUUID()}`);
          for (const res of [
            await env.str.get(`/v3/rooms/${kind}/${id}`),
            await env.str.post(`/v3/rooms/${kind}/${id}`, { json: { name: 'Hijacked', membersIds: [env.stranger.users[0]!.id] } }),
            await env.str.delete(`/v3/rooms/${kind}/${id}`),
          ]) {
            assertProblem(res, 404, 'not-found');
            assert.deepEqual(res.body, unknown.body);
          }
          assert.deepEqual((await env.med.get(`/v3/rooms/${kind}/${id}`)).body, before);
        });
      }
    });
  });
}

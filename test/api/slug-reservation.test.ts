/**
 * Slugs an organization gives up, through real HTTP on SQLite and
 * PostgreSQL: after a board or queue is renamed or deleted, another
 * organization cannot take its slug (409, through every version of the
 * API), the same organization can, and the old link says "this link has
 * moved" (with the new address) or "has ended", in English or German,
 * instead of leading anywhere else; the reservation lasts
 * SLUG_RESERVATION_DAYS.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SLUG_RESERVATION_DEFAULT_DAYS } from '../../src/domain/slugs.ts';
import { testDatabases } from '../support/databases.ts';
import { assertCreated, assertOk, assertProblem, uniqueSlug, useApi, type ApiEnv } from './harness.ts';

const DAY = 86_400_000;

async function created(env: ApiEnv, kind: 'board' | 'queue') {
  const slug = uniqueSlug(kind);
  const res = await env.med.post(`/v3/rooms/${kind}`, { json: { name: `Dr Lee's ${kind}`, slug } });
  assertCreated(res);
  return { id: res.body.id as string, slug };
}

async function page(env: ApiEnv, path: string) {
  const res = await fetch(`${env.server.origin}${path}`, { redirect: 'manual' });
  return { status: res.status, text: await res.text() };
}

for (const storage of await testDatabases()) {
  describe(`slugs given up, on ${storage.name}`, { skip: storage.skip }, () => {
    const env = useApi(storage);

    it('answers 409 to another organization taking a renamed queue’s old slug, through v1, v2 and v3, and lets the same organization take it back', async () => {
      const { id, slug } = await created(env, 'queue');
      const renamed = uniqueSlug('renamed');
      assertOk(await env.med.post(`/v3/rooms/queue/${id}`, { json: { slug: renamed } }));

      assertProblem(await env.bas.post('/v3/rooms/board', { json: { name: 'Take over', slug } }), 409, 'conflict', ['slug']);
      assertProblem(await env.bas.post('/v3/rooms/queue', { json: { name: 'Take over', slug } }), 409, 'conflict', ['slug']);
      assert.equal((await env.bas.post('/v2/room', { json: { slug, title: 'Take over' } })).status, 409);
      assert.equal((await env.bas.post('/room', { form: { slug, title: 'Take over' } })).status, 409);
      const { id: theirs } = await created(env, 'board');
      assertProblem(await env.bas.post(`/v3/rooms/board/${theirs}`, { json: { slug } }), 404, 'not-found');
      const basBoard = await env.bas.post('/v3/rooms/board', { json: { name: 'Theirs', slug: uniqueSlug('theirs') } });
      assertCreated(basBoard);
      assertProblem(await env.bas.post(`/v3/rooms/board/${basBoard.body.id}`, { json: { slug } }), 409, 'conflict', ['slug']);

      const back = await env.med.post('/v3/rooms/board', { json: { name: 'Ours again', slug } });
      assertCreated(back);
      assert.equal((await page(env, `/${slug}`)).status, 200, 'the slug leads to the organization’s new board');
    });

    it('answers 409 to another organization after a board is deleted', async () => {
      const { id, slug } = await created(env, 'board');
      assertOk(await env.med.delete(`/v3/rooms/board/${id}`));
      assertProblem(await env.bas.post('/v3/rooms/board', { json: { name: 'Take over', slug } }), 409, 'conflict', ['slug']);
      assertProblem(await env.bas.get(`/v3/room/${slug}`), 404, 'not-found');
    });

    it('tells patients following a renamed queue’s old link that it has moved, with the new address, in English and German', async () => {
      const { id, slug } = await created(env, 'queue');
      const renamed = uniqueSlug('moved');
      assertOk(await env.med.post(`/v3/rooms/queue/${id}`, { json: { slug: renamed } }));
      const en = await page(env, `/${slug}`);
      assert.equal(en.status, 410);
      assert.match(en.text, /<h1>This link has moved<\/h1>/);
      assert.match(en.text, new RegExp(`href="/${renamed}">Go to the new address</a>`));
      assert.doesNotMatch(en.text, /Dr Lee/, 'nothing of the place itself');
      const de = await page(env, `/${slug}?lang=de`);
      assert.equal(de.status, 410);
      assert.match(de.text, /<html lang="de"/);
      assert.match(de.text, /Dieser Link ist umgezogen/);
      assert.match(de.text, new RegExp(`href="/${renamed}\\?lang=de">Zur neuen Adresse</a>`));
    });

    it('tells patients following a deleted board’s link that it has ended, in English and German; an unknown slug stays not found', async () => {
      const { id, slug } = await created(env, 'board');
      assertOk(await env.med.delete(`/v3/rooms/board/${id}`));
      const en = await page(env, `/${slug}`);
      assert.equal(en.status, 410);
      assert.match(en.text, /This link has ended/);
      assert.doesNotMatch(en.text, /moved-link/, 'no new address to go to');
      assert.match((await page(env, `/${slug}?lang=de`)).text, /Dieser Link ist abgelaufen/);
      assert.equal((await page(env, `/${uniqueSlug('never')}`)).status, 404);
    });

    it('keeps the reservation for SLUG_RESERVATION_DAYS (at least 90), then frees the slug', async () => {
      assert.ok(SLUG_RESERVATION_DEFAULT_DAYS >= 90);
      const { id, slug } = await created(env, 'queue');
      assertOk(await env.med.delete(`/v3/rooms/queue/${id}`));
      const store = env.server.ctx.store;
      assert.ok(await store.findReleasedSlug(slug, new Date(Date.now() + (SLUG_RESERVATION_DEFAULT_DAYS - 1) * DAY)));
      assert.equal(await store.findReleasedSlug(slug, new Date(Date.now() + (SLUG_RESERVATION_DEFAULT_DAYS + 1) * DAY)), undefined);
    });
  });
}

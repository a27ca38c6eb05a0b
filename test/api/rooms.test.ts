/**
 * Rooms through real HTTP on SQLite and PostgreSQL: created through v1
 * (form) and v2 (JSON), read through v1, v2 and v3; exact field sets, slug
 * rules, the one slug namespace shared with boards and queues, tenancy.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.ts';
import { PUBLIC_URL, assertCreated, assertOk, assertProblem, keysOf, uniqueSlug, useApi } from './harness.ts';

for (const storage of await testDatabases()) {
  describe(`rooms on ${storage.name}`, { skip: storage.skip }, () => {
    const env = useApi(storage);

    describe('v1 (form, snake_case)', () => {
      it('creates a room with a title: exactly {title, slug, redirect_url}', async () => {
        const slug = uniqueSlug();
        const res = await env.med.post('/room', { form: { slug, title: 'Waiting room' } });
        assertCreated(res);
        assert.deepEqual(res.body, { title: 'Waiting room', slug, redirect_url: `${PUBLIC_URL}/${slug}` });
        assert.equal(res.headers.get('location'), `/api/room/${slug}`);
        const read = await env.med.get(`/room/${slug}`);
        assertOk(read);
        assert.deepEqual(read.body, res.body);
      });

      it('omits the title key when the room has none (absent or empty)', async () => {
        for (const form of [{ slug: uniqueSlug() }, { slug: uniqueSlug(), title: '' }] as Array<Record<string, string>>) {
          const res = await env.med.post('/room', { form });
          assertCreated(res);
          assert.deepEqual(keysOf(res.body), ['redirect_url', 'slug']);
          assert.deepEqual(keysOf((await env.med.get(`/room/${form.slug}`)).body), ['redirect_url', 'slug']);
        }
      });

      it('requires a slug', async () => {
        assertProblem(await env.med.post('/room', { form: { title: 'No slug' } }), 400, 'validation-failed', ['slug']);
        assertProblem(await env.med.post('/room'), 400, 'validation-failed', ['slug']);
      });
    });

    describe('v2 (JSON, camelCase)', () => {
      it('creates a room: exactly {title, slug, organizationSlug, redirectUrl}', async () => {
        const slug = uniqueSlug();
        const res = await env.med.post('/v2/room', { json: { slug, title: 'Consult' } });
        assertCreated(res);
        assert.deepEqual(res.body, {
          title: 'Consult',
          slug,
          organizationSlug: env.medical.organization.slug,
          redirectUrl: `${PUBLIC_URL}/${slug}`,
        });
        assert.equal(res.headers.get('location'), `/api/v2/room/${slug}`);
        const read = await env.med.get(`/v2/room/${slug}`);
        assertOk(read);
        assert.deepEqual(read.body, res.body);
      });

      it('omits the title key when none is given', async () => {
        const slug = uniqueSlug();
        const res = await env.med.post('/v2/room', { json: { slug } });
        assertCreated(res);
        assert.deepEqual(keysOf(res.body), ['organizationSlug', 'redirectUrl', 'slug']);
      });

      it('requires a slug and a string title', async () => {
        assertProblem(await env.med.post('/v2/room', { json: { title: 'x' } }), 400, 'validation-failed', ['slug']);
        assertProblem(await env.med.post('/v2/room', { json: { slug: uniqueSlug(), title: 42 } }), 400, 'validation-failed', ['title']);
      });

      it('refuses a title over 200 characters and then creates nothing', async () => {
        const slug = uniqueSlug();
        assertProblem(await env.med.post('/v2/room', { json: { slug, title: 'x'.repeat(201) } }), 400, 'validation-failed', ['title']);
        assertProblem(await env.med.get(`/v2/room/${slug}`), 404, 'not-found');
        assertCreated(await env.med.post('/v2/room', { json: { slug, title: 'x'.repeat(200) } }));
      });
    });

    describe('v3 (read by slug)', () => {
      it('reads a room created through v1, in the v2/v3 shape, without title when it has none', async () => {
        const titled = uniqueSlug();
        await env.med.post('/room', { form: { slug: titled, title: 'Front desk' } });
        const res = await env.med.get(`/v3/room/${titled}`);
        assertOk(res);
        assert.deepEqual(res.body, {
          title: 'Front desk',
          slug: titled,
          organizationSlug: env.medical.organization.slug,
          redirectUrl: `${PUBLIC_URL}/${titled}`,
        });
        const untitled = uniqueSlug();
        await env.med.post('/room', { form: { slug: untitled } });
        assert.deepEqual(keysOf((await env.med.get(`/v3/room/${untitled}`)).body), ['organizationSlug', 'redirectUrl', 'slug']);
      });

      it('reads a v2 room through v1 without organizationSlug', async () => {
        const slug = uniqueSlug();
        await env.med.post('/v2/room', { json: { slug, title: 'T' } });
        assert.deepEqual((await env.med.get(`/room/${slug}`)).body, { title: 'T', slug, redirect_url: `${PUBLIC_URL}/${slug}` });
      });

      it('has no room creation in v3', async () => {
        assertProblem(await env.med.post('/v3/room', { json: { slug: uniqueSlug() } }), 404, 'not-found');
      });
    });

    describe('slug rules', () => {
      const invalid: Array<[string, string]> = [
        ['uppercase', 'Front-Desk'],
        ['too short', 'ab'],
        ['too long', 'a'.repeat(65)],
        ['double hyphen', 'front--desk'],
        ['leading hyphen', '-front'],
        ['trailing hyphen', 'front-'],
        ['space', 'front desk'],
        ['underscore', 'front_desk'],
        ['non-ASCII', 'café'],
        ['reserved api', 'api'],
        ['reserved meetings', 'meetings'],
        ['reserved dashboard', 'dashboard'],
        ['reserved health', 'health'],
        ['reserved static', 'static'],
      ];
      for (const [why, slug] of invalid) {
        it(`refuses a slug that is ${why} (${JSON.stringify(slug)}) in v1 and v2`, async () => {
          assertProblem(await env.med.post('/room', { form: { slug } }), 400, 'validation-failed', ['slug']);
          assertProblem(await env.med.post('/v2/room', { json: { slug } }), 400, 'validation-failed', ['slug']);
        });
      }

      it('accepts 3 and 64 character slugs of lowercase letters, digits and single hyphens', async () => {
        assertCreated(await env.med.post('/v2/room', { json: { slug: `r${Date.now() % 10}${storage.name[0]}` } }));
        const long = `${storage.name}-${'a1'.repeat(40)}`.slice(0, 64);
        assertCreated(await env.med.post('/room', { form: { slug: long } }));
      });

      it('answers 409 for a taken slug, also when another organization holds it', async () => {
        const slug = uniqueSlug();
        assertCreated(await env.med.post('/room', { form: { slug } }));
        assertProblem(await env.med.post('/v2/room', { json: { slug } }), 409, 'conflict', ['slug']);
        assertProblem(await env.str.post('/room', { form: { slug } }), 409, 'conflict', ['slug']);
        // The stranger still cannot read it.
        assertProblem(await env.str.get(`/v2/room/${slug}`), 404, 'not-found');
      });

      it('shares one namespace with boards and queues', async () => {
        const roomSlug = uniqueSlug('room');
        assertCreated(await env.med.post('/room', { form: { slug: roomSlug } }));
        assertProblem(await env.med.post('/v3/rooms/board', { json: { name: 'B', slug: roomSlug } }), 409, 'conflict', ['slug']);
        assertProblem(await env.med.post('/v3/rooms/queue', { json: { name: 'Q', slug: roomSlug } }), 409, 'conflict', ['slug']);

        const boardSlug = uniqueSlug('board');
        assertCreated(await env.med.post('/v3/rooms/board', { json: { name: 'B', slug: boardSlug } }));
        assertProblem(await env.med.post('/v2/room', { json: { slug: boardSlug } }), 409, 'conflict', ['slug']);
        assertProblem(await env.str.post('/v3/rooms/queue', { json: { name: 'Q', slug: boardSlug } }), 409, 'conflict', ['slug']);

        const queueSlug = uniqueSlug('queue');
        assertCreated(await env.med.post('/v3/rooms/queue', { json: { name: 'Q', slug: queueSlug } }));
        assertProblem(await env.med.post('/room', { form: { slug: queueSlug } }), 409, 'conflict', ['slug']);
        assertProblem(await env.med.post('/v3/rooms/board', { json: { name: 'B', slug: queueSlug } }), 409, 'conflict', ['slug']);
      });
    });

    describe('unknown slugs and tenancy', () => {
      it('answers 404 for an unknown slug in every version', async () => {
        for (const prefix of ['', '/v2', '/v3']) {
          assertProblem(await env.med.get(`${prefix}/room/${uniqueSlug('nowhere')}`), 404, 'not-found');
        }
      });

      it('answers 404 for a path value that cannot be a slug (uppercase, reserved, NUL)', async () => {
        for (const value of ['Front-Desk', 'api', '%00abc', 'a%2Fb']) {
          assertProblem(await env.med.get(`/v3/room/${value}`), 404, 'not-found');
        }
      });

      it("answers 404 for another organization's room, with the same body as for an unknown one", async () => {
        const slug = uniqueSlug('theirs');
        assertCreated(await env.str.post('/v2/room', { json: { slug, title: 'Private' } }));
        for (const prefix of ['', '/v2', '/v3']) {
          const foreign = await env.med.get(`${prefix}/room/${slug}`);
          const unknown = await env.med.get(`${prefix}/room/${uniqueSlug('nowhere')}`);
          assertProblem(foreign, 404, 'not-found');
          assert.deepEqual(foreign.body, unknown.body);
        }
      });
    });
  });
}

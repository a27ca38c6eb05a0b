/**
 * GET /organizations in v1, v2 and v3 through real HTTP on SQLite and
 * PostgreSQL: one identical shape, only the caller's own users.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.ts';
import { client, seedOrganization } from '../support/server.ts';
import { assertOk, keysOf, useApi } from './harness.ts';

for (const storage of await testDatabases()) {
  describe(`organizations on ${storage.name}`, { skip: storage.skip }, () => {
    const env = useApi(storage);

    for (const path of ['/organizations', '/v2/organizations', '/v3/organizations']) {
      it(`answers the caller's organization with all its users at ${path}`, async () => {
        const res = await env.med.get(path);
        assertOk(res);
        assert.deepEqual(keysOf(res.body), ['name', 'users']);
        assert.equal(res.body.name, env.medical.organization.name);
        assert.deepEqual(
          res.body.users,
          env.medical.users.map((u) => ({ id: u.id, fullName: u.fullName, email: u.email, organizationRole: u.role })),
        );
        for (const user of res.body.users) assert.deepEqual(keysOf(user), ['email', 'fullName', 'id', 'organizationRole']);
      });
    }

    it('answers the identical object in every version', async () => {
      const v1 = await env.bas.get('/organizations');
      assert.deepEqual((await env.bas.get('/v2/organizations')).body, v1.body);
      assert.deepEqual((await env.bas.get('/v3/organizations')).body, v1.body);
    });

    it('never shows users of another organization', async () => {
      const res = await env.str.get('/v3/organizations');
      assert.deepEqual(res.body.users.map((u: { email: string }) => u.email), ['zed@elsewhere.test']);
    });

    it('answers an empty users array for an organization without users', async () => {
      const empty = await seedOrganization(env.server.ctx, 'basic', []);
      const res = await client(env.server.baseUrl, empty).get('/v3/organizations');
      assertOk(res);
      assert.deepEqual(res.body, { name: empty.organization.name, users: [] });
    });
  });
}

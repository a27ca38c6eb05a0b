/**
 * What the meeting page is told about `skipPrejoin` (its settings block),
 * on SQLite and PostgreSQL: only a meeting whose stored parameters, set by
 * its organization through the API, say `skipPrejoin` joins with camera
 * and microphone on without a click; a bare link's parameter does not.
 * (The page's behaviour: test/browser/skip-prejoin.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { client, seedOrganization, startServer, type Client, type TestServer } from '../support/server.ts';

const settingsOf = (html: string) => JSON.parse(/<script type="application\/json" id="foyer-settings">([^<]*)<\/script>/.exec(html)![1]!.replace(/\\u003c/g, '<'));

for (const factory of await testDatabases()) {
  describe(`the meeting page's skipPrejoin settings (${factory.name})`, { skip: factory.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let api: Client;
    before(async () => {
      db = await factory.open();
      server = await startServer(db.store);
      api = client(server.baseUrl, await seedOrganization(server.ctx, 'basic'));
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });
    const page = async (path: string) => {
      const response = await fetch(server.origin + path);
      assert.equal(response.status, 200);
      return settingsOf(await response.text());
    };

    it('tells the page to join with media only when the meeting’s stored parameters say skipPrejoin', async () => {
      const bare = await api.post('/v3/meeting', { json: {} });
      assert.equal((await page(`/meetings/${bare.body.id}?skipPrejoin=true&displayName=Jane`)).joinWithMedia, false);
      for (const stored of [true, 'true']) {
        const created = await api.post('/v3/meeting', { json: { queryParameters: { skipPrejoin: stored } } });
        assert.equal(created.status, 201, created.text);
        assert.equal((await page(`/meetings/${created.body.id}`)).joinWithMedia, true, String(stored));
      }
      const other = await api.post('/v3/meeting', { json: { queryParameters: { skipPrejoin: false, displayName: 'Zed' } } });
      assert.equal((await page(`/meetings/${other.body.id}?skipPrejoin=true`)).joinWithMedia, false);
    });
  });
}

/**
 * Single sign-on through a real OpenID Connect provider (oidc-provider)
 * started in the test, over HTTP on SQLite and PostgreSQL: the member
 * names their organization, is sent to the provider, signs in there, and
 * comes back signed in to Foyer with the same kind of server-side session
 * as a password gives. Refused, with a page saying why and no session: an
 * email the provider does not call verified, a member of another
 * organization, an unknown email, a tampered state, a callback without
 * the flow cookie (another browser), and the same callback twice.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { tokenHash } from '../../src/domain/member-links.ts';
import { addUser } from '../../src/domain/organizations.ts';
import { configureSso, SSO_CALLBACK_PATH } from '../../src/domain/sso.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { DashboardClient, type Page } from '../support/dashboard-client.ts';
import { signInAt, startOidcProvider, type TestOidcProvider } from '../support/oidc.ts';
import { seedOrganization, startServer, TEST_PUBLIC_URL, type SeededOrganization, type TestServer } from '../support/server.ts';

const SSO_KEY = 'a test key for sealing single sign-on secrets';

for (const database of await testDatabases()) {
  describe(`single sign-on on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let provider: TestOidcProvider;
    let clinic: SeededOrganization;
    let other: SeededOrganization;
    const logLines: string[] = [];

    before(async () => {
      db = await database.open();
      const stream = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
      server = await startServer(db.store, { ssoSecretKey: SSO_KEY, passwordHashCost: 14 }, { logger: { level: 'info', stream } });
      provider = await startOidcProvider({
        redirectUri: `${TEST_PUBLIC_URL}${SSO_CALLBACK_PATH}`,
        accounts: {
          alice: { email: 'Alice.Hart@clinic.test', email_verified: true },
          uma: { email: 'uma.stein@clinic.test', email_verified: false },
          otto: { email: 'otto.berg@other.test', email_verified: true },
          nobody: { email: 'nobody@clinic.test', email_verified: true },
        },
      });
      clinic = await seedOrganization(server.ctx, 'medical', [
        { email: 'alice.hart@clinic.test', fullName: 'Alice Hart', role: 'ADMIN' },
        { email: 'uma.stein@clinic.test', fullName: 'Uma Stein' },
      ]);
      other = await seedOrganization(server.ctx, 'basic', [{ email: 'otto.berg@other.test', fullName: 'Otto Berg' }]);
      await configureSso(server.ctx, operatorActor(clinic.organization), {
        issuer: provider.issuer,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
      });
    });
    after(async () => {
      await server?.close();
      await provider?.close();
      await db?.dispose();
    });

    /** Names the organization on Foyer's form; answers the provider's authorization URL. */
    const start = async (client: DashboardClient, organization = clinic.organization.slug, next?: string) => {
      const form = await client.get(`/dashboard/sso${next ? `?next=${encodeURIComponent(next)}` : ''}`);
      assert.equal(form.status, 200);
      const sent = await client.post('/dashboard/sso', { organization, next: next ?? '' });
      assert.equal(sent.status, 303, sent.text.slice(0, 500));
      return sent.headers.get('location')!;
    };

    /** Back at Foyer's callback (PUBLIC_URL is not this server's origin, so the path is taken over). */
    const back = (client: DashboardClient, callback: URL): Promise<Page> => client.get(callback.pathname + callback.search);

    /** The callback sent the visitor to the refusal page for `reason`, which says so; and there is no session. */
    const assertRefused = async (callback: Page, status: number, reason: string, client: DashboardClient): Promise<Page> => {
      assert.equal(callback.status, 303, callback.text.slice(0, 500));
      assert.match(callback.location!, new RegExp(`^/dashboard/sso/refused\\?reason=${reason}(&|$)`));
      const page = await client.get(callback.location!);
      assert.equal(page.status, status, page.text.slice(0, 500));
      assert.match(page.text, new RegExp(`data-reason="${reason}"`));
      assert.equal(client.cookie('foyer_session'), undefined, 'no session');
      return page;
    };

    it('offers single sign-on on the sign-in page once an organization has it', async () => {
      const page = await new DashboardClient(server.origin).get('/dashboard/sign-in?lang=en');
      assert.match(page.text, /<a class="button wide" href="\/dashboard\/sso" id="sso">Sign in with single sign-on<\/a>/);
    });

    it('signs a member in through the provider, with PKCE, state and nonce, into a server-side session', async () => {
      const client = new DashboardClient(server.origin);
      const authorization = new URL(await start(client, clinic.organization.slug.toUpperCase(), '/dashboard/meetings'));
      assert.equal(authorization.origin, provider.issuer);
      assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(authorization.searchParams.get('code_challenge'));
      assert.ok(authorization.searchParams.get('state'));
      assert.ok(authorization.searchParams.get('nonce'));
      assert.equal(authorization.searchParams.get('redirect_uri'), `${TEST_PUBLIC_URL}${SSO_CALLBACK_PATH}`);
      assert.ok(client.cookie('foyer_sso'), 'the flow is kept in a cookie');
      assert.ok(!client.cookie('foyer_sso')!.includes(authorization.searchParams.get('state')!), 'sealed, not readable');

      const callback = await signInAt(authorization.href, 'alice');
      assert.equal(callback.origin + callback.pathname, `${TEST_PUBLIC_URL}${SSO_CALLBACK_PATH}`);
      const signedIn = await back(client, callback);
      assert.equal(signedIn.status, 303, signedIn.text.slice(0, 500));
      assert.equal(signedIn.location, '/dashboard/meetings');
      assert.equal(client.cookie('foyer_sso'), undefined, 'the flow cookie is used up');

      const session = await server.ctx.store.findMemberSession(tokenHash(client.cookie('foyer_session')!));
      assert.equal(session?.method, 'sso');
      assert.equal(session?.userId, clinic.users[0]!.id);
      const overview = await client.get('/dashboard');
      assert.equal(overview.status, 200);
      assert.match(overview.text, /Signed in as Alice Hart/);
      assert.match(overview.text, new RegExp(clinic.organization.name));

      const code = callback.searchParams.get('code')!;
      assert.ok(logLines.some((line) => line.includes('/dashboard/sso/callback?[redacted]')), 'the callback is logged');
      assert.ok(!logLines.some((line) => line.includes(code)), 'without its authorization code');

      // The same answer from the provider a second time finds no flow: it worked once.
      const replay = new DashboardClient(server.origin);
      await assertRefused(await back(replay, callback), 400, 'ssoExpired', replay);
    });

    it('refuses an email the provider does not call verified', async () => {
      const client = new DashboardClient(server.origin);
      await assertRefused(await back(client, await signInAt(await start(client), 'uma')), 403, 'ssoUnverified', client);
    });

    it("refuses a member of another organization, even one the provider vouches for", async () => {
      const client = new DashboardClient(server.origin);
      const page = await assertRefused(await back(client, await signInAt(await start(client), 'otto')), 403, 'ssoNotAMember', client);
      assert.match(page.text, /Foyer does not create members on its own/);
      assert.equal((await server.ctx.store.listUsers(other.organization.id)).length, 1);
    });

    it('refuses an unknown email and creates nobody', async () => {
      const client = new DashboardClient(server.origin);
      await assertRefused(await back(client, await signInAt(await start(client), 'nobody')), 403, 'ssoNotAMember', client);
      assert.equal((await server.ctx.store.findUsersByEmail('nobody@clinic.test')).length, 0);
    });

    it('refuses a callback whose state is not the one it sent', async () => {
      const client = new DashboardClient(server.origin);
      const callback = await signInAt(await start(client), 'alice');
      callback.searchParams.set('state', 'forged-state');
      await assertRefused(await back(client, callback), 400, 'ssoFailed', client);
    });

    it('refuses a callback in a browser that did not start the sign-in', async () => {
      const starter = new DashboardClient(server.origin);
      const callback = await signInAt(await start(starter), 'alice');
      const stranger = new DashboardClient(server.origin);
      await assertRefused(await back(stranger, callback), 400, 'ssoExpired', stranger);
    });

    it('says beside the field when the organization has no single sign-on, and keeps what was typed', async () => {
      const client = new DashboardClient(server.origin);
      for (const organization of [other.organization.slug, 'no-such-clinic']) {
        await client.get('/dashboard/sso?lang=en');
        const page = await client.post('/dashboard/sso', { organization });
        assert.equal(page.status, 400);
        assert.match(page.text, /id="organization-error">No single sign-on is set up for this organization/);
        assert.match(page.text, new RegExp(`value="${organization}"`));
      }
    });

    it('refuses to start without the form\'s CSRF token', async () => {
      const client = new DashboardClient(server.origin);
      const page = await client.post('/dashboard/sso', { _csrf: null, organization: clinic.organization.slug });
      assert.equal(page.status, 403);
      assert.equal(client.cookie('foyer_sso'), undefined);
    });

    it('keeps the client secret sealed in the database', async () => {
      const stored = await server.ctx.store.findOrganizationSso(clinic.organization.id);
      assert.ok(stored);
      assert.ok(!stored.clientSecretSealed.includes(provider.clientSecret));
      assert.match(stored.clientSecretSealed, /^v1\./);
    });
  });
}

describe('single sign-on without SSO_SECRET_KEY', () => {
  it('does not exist: the pages answer 404 and the sign-in page does not offer it', async (t) => {
    const db = await (await testDatabases())[0]!.open();
    const server = await startServer(db.store);
    t.after(async () => {
      await server.close();
      await db.dispose();
    });
    const client = new DashboardClient(server.origin);
    assert.doesNotMatch((await client.get('/dashboard/sign-in')).text, /id="sso"/);
    assert.equal((await client.get('/dashboard/sso')).status, 404);
    assert.equal((await client.get('/dashboard/sso/callback?code=x&state=y')).status, 404);
  });
});

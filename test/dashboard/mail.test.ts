/**
 * Mail to members, through a real SMTP server started in the test: the
 * operator's `foyer user invite` (the CLI in a child process, as run on a
 * server) mails the link, the member opens it from the mail, sets a
 * password and signs in; "forgot password?" mails a reset link to a
 * member and answers an unknown address the same, sending nothing; the
 * form is CSRF-protected and limited per address. Without SMTP_URL the
 * dashboard neither offers nor answers it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { operatorActor } from '../../src/domain/actors.ts';
import { addUser } from '../../src/domain/organizations.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import { openStore } from '../../src/store/open.ts';
import { freshDatabaseUrl, postgresSkipReason, type FreshDatabaseUrl } from '../support/databases.ts';
import { DashboardClient } from '../support/dashboard-client.ts';
import { seedOrganization, startServer, TEST_PUBLIC_URL, type SeededOrganization, type TestServer } from '../support/server.ts';
import { passwordLinkPath, startSmtp, type TestSmtp } from '../support/smtp.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/foyer.js', import.meta.url).pathname;
const FROM = 'Foyer <foyer@clinic.test>';
const PASSWORD = 'a long enough passphrase';
let sequence = 0;
const email = (name: string) => `${name}.${++sequence}@clinic.test`;

/** The page's main text, without the per-request CSRF token. */
const answer = (html: string) => /<main[^>]*>([\s\S]*)<\/main>/.exec(html)![1]!.replace(/name="_csrf" value="[^"]*"/g, '');

const postgresSkip = await postgresSkipReason();

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`mail to members on ${kind}`, { skip: kind === 'postgres' ? postgresSkip : undefined }, () => {
    let smtp: TestSmtp;
    let database: FreshDatabaseUrl;
    let store: StoreConnection;
    let server: TestServer;
    let org: SeededOrganization;

    const foyer = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, [BIN, ...args], {
        env: { ...process.env, DATABASE_URL: database.url, PUBLIC_URL: TEST_PUBLIC_URL, API_SECRET_PEPPER: 'test-pepper', SMTP_URL: smtp.url, MAIL_FROM: FROM },
      });
      return stdout;
    };

    const signIn = async (client: DashboardClient, address: string, password: string) => {
      await client.get('/dashboard/sign-in');
      return client.post('/dashboard/sign-in', { email: address, password, next: '/dashboard' });
    };

    before(async () => {
      smtp = await startSmtp();
      database = await freshDatabaseUrl(kind);
      store = await openStore(database.url, { migrate: true });
      server = await startServer(store, { mail: { smtpUrl: smtp.url, from: FROM }, passwordHashCost: 14 });
      org = await seedOrganization(server.ctx, 'medical', []);
    });
    after(async () => {
      await server?.close();
      await store?.close();
      await database?.dispose();
      await smtp?.close();
    });

    it('mails the invitation of `foyer user invite`; the link in the mail sets the password and the member signs in', async () => {
      const address = email('ines');
      await addUser(server.ctx, operatorActor(org.organization), { email: address, fullName: 'Ines Roth', role: 'ADMIN' });
      const sent = smtp.mails.length;
      const printed = JSON.parse(await foyer('user', 'invite', '--org', org.organization.slug, '--email', address, '--json'));
      const mail = await smtp.nth(sent + 1);

      assert.deepEqual(mail.to, [address]);
      assert.equal(mail.from, 'foyer@clinic.test');
      assert.match(mail.subject, new RegExp(`invitation to ${org.organization.name}`));
      assert.match(mail.text, /Hello Ines Roth,/);
      assert.equal(`${TEST_PUBLIC_URL}${passwordLinkPath(mail)}`, printed.url, 'the mailed link is the printed one');
      assert.ok(mail.html.includes(`href="${printed.url}"`), 'the HTML part links to it too');
      assert.ok(!mail.raw.includes('test-pepper'));

      const client = new DashboardClient(server.origin);
      const link = passwordLinkPath(mail);
      assert.equal((await client.get(link)).status, 200);
      assert.equal((await client.post(link, { password: PASSWORD, confirm: PASSWORD })).status, 303);
      const signedIn = await signIn(client, address, PASSWORD);
      assert.equal(signedIn.status, 303);
      assert.equal(signedIn.location, '/dashboard');
      assert.equal((await client.get('/dashboard')).status, 200);
    });

    it('writes the invitation in German with --lang de', async () => {
      const address = email('jonas');
      await addUser(server.ctx, operatorActor(org.organization), { email: address, fullName: 'Jonas Weiß' });
      const sent = smtp.mails.length;
      await foyer('user', 'invite', '--org', org.organization.slug, '--email', address, '--lang', 'de', '--json');
      const mail = await smtp.nth(sent + 1);
      assert.match(mail.subject, /Ihre Einladung zu/);
      assert.match(mail.text, /Guten Tag Jonas Weiß,/);
      assert.match(mail.html, /<html lang="de">/);
    });

    it('offers "forgot password?", mails a member a reset link and answers an unknown address the same, sending nothing', async () => {
      const address = email('karl');
      await addUser(server.ctx, operatorActor(org.organization), { email: address, fullName: 'Karl Brandt' });
      const invited = new DashboardClient(server.origin);
      const sent = smtp.mails.length;
      const invite = JSON.parse(await foyer('user', 'invite', '--org', org.organization.slug, '--email', address, '--json'));
      await smtp.nth(sent + 1);
      const invitePath = new URL(invite.url).pathname;
      await invited.get(invitePath);
      await invited.post(invitePath, { password: PASSWORD, confirm: PASSWORD });

      const visitor = new DashboardClient(server.origin);
      const signInPage = await visitor.get('/dashboard/sign-in?lang=de');
      assert.match(signInPage.text, /<a href="\/dashboard\/forgot-password" id="forgot-password">Passwort vergessen\?<\/a>/);
      const form = await visitor.get('/dashboard/forgot-password');
      assert.equal(form.status, 200);
      assert.match(form.text, /<label for="email">E-Mail<\/label>/);

      const before = smtp.mails.length;
      const unknown = await visitor.post('/dashboard/forgot-password', { email: 'nobody@clinic.test' });
      await visitor.get('/dashboard/forgot-password');
      const known = await visitor.post('/dashboard/forgot-password', { email: address.toUpperCase() });
      assert.equal(unknown.status, 200);
      assert.equal(known.status, 200);
      assert.equal(answer(known.text), answer(unknown.text), 'the same answer for a member and for nobody');
      assert.match(known.text, /Wenn diese Adresse zu einem Mitglied gehört, ist ein Link unterwegs\./);

      const mail = await smtp.nth(before + 1);
      assert.deepEqual(mail.to, [address]);
      assert.match(mail.subject, /Passwort für .* zurücksetzen/, 'in the language of the request');
      // The unknown address was asked first and sends nothing: the member's mail is the only one.
      assert.equal(smtp.mails.length, before + 1);

      const link = passwordLinkPath(mail);
      assert.equal((await visitor.get(link)).status, 200);
      const newPassword = 'another long passphrase';
      assert.equal((await visitor.post(link, { password: newPassword, confirm: newPassword })).status, 303);
      assert.equal((await signIn(new DashboardClient(server.origin), address, PASSWORD)).status, 401, 'the old password no longer works');
      assert.equal((await signIn(new DashboardClient(server.origin), address, newPassword)).status, 303);
    });

    it('refuses the form without its CSRF token, sending nothing', async () => {
      const address = email('lena');
      await addUser(server.ctx, operatorActor(org.organization), { email: address, fullName: 'Lena Voss' });
      const before = smtp.mails.length;
      const visitor = new DashboardClient(server.origin);
      const refused = await visitor.post('/dashboard/forgot-password', { _csrf: null, email: address });
      assert.equal(refused.status, 403);
      await visitor.get('/dashboard/forgot-password');
      const wrong = await visitor.post('/dashboard/forgot-password', { _csrf: 'forged', email: address });
      assert.equal(wrong.status, 403);
      assert.equal(smtp.mails.length, before);
    });

    it('limits requests per client address, whatever the email', async () => {
      const visitor = new DashboardClient(server.origin);
      let page;
      for (let i = 0; i < 40; i++) {
        await visitor.get('/dashboard/forgot-password?lang=en');
        page = await visitor.post('/dashboard/forgot-password', { email: `nobody.${i}@clinic.test` });
        if (page.status !== 200) break;
      }
      assert.equal(page!.status, 429);
      assert.match(page!.text, /Too many requests from your network/);
    });

    it('without SMTP_URL neither offers nor answers "forgot password?"', async () => {
      const plain = await startServer(store, { passwordHashCost: 14 });
      try {
        const visitor = new DashboardClient(plain.origin);
        const signInPage = await visitor.get('/dashboard/sign-in');
        assert.equal(signInPage.status, 200);
        assert.doesNotMatch(signInPage.text, /forgot-password/);
        assert.equal((await visitor.get('/dashboard/forgot-password')).status, 404);
        assert.equal((await visitor.post('/dashboard/forgot-password', { email: 'x@clinic.test' })).status, 404);
      } finally {
        await plain.close();
      }
    });
  });
}

/**
 * An organization's ADMIN running its members from the dashboard, over
 * real HTTP on SQLite and PostgreSQL: inviting (the one-time link shown to
 * hand over without a mail server; mailed, and not shown, with one), the
 * invited member setting a password and signing in, changing a role (and
 * a demoted ADMIN signed out), removing a member (whose open session stops
 * working at once), the last ADMIN kept with the reason beside the list,
 * the record of every change with who, what and when, and a USER refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import { openStore } from '../../src/store/open.ts';
import { freshDatabaseUrl, postgresSkipReason, type FreshDatabaseUrl } from '../support/databases.ts';
import { DashboardClient, signedIn } from '../support/dashboard-client.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';
import { passwordLinkPath, startSmtp, type TestSmtp } from '../support/smtp.ts';

const PASSWORD = 'a long enough passphrase';
const FROM = 'Foyer <foyer@clinic.test>';
const postgresSkip = await postgresSkipReason();

/** The text of an element with this id (tags dropped). */
const textOf = (html: string, id: string) => new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(html)?.[1]?.replace(/<[^>]+>/g, '').trim();
const rowOf = (html: string, userId: string) => new RegExp(`<tr id="member-${userId}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? '';

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`members run by their organization's ADMINs in the dashboard, on ${kind}`, { skip: kind === 'postgres' ? postgresSkip : undefined }, () => {
    let database: FreshDatabaseUrl;
    let store: StoreConnection;
    let server: TestServer;
    let org: SeededOrganization;
    let ada: DashboardClient;

    before(async () => {
      database = await freshDatabaseUrl(kind);
      store = await openStore(database.url, { migrate: true });
      server = await startServer(store, { passwordHashCost: 14 });
      org = await seedOrganization(server.ctx, 'medical', [
        { email: 'ada@clinic.test', fullName: 'Ada Admin', role: 'ADMIN' },
        { email: 'uma@clinic.test', fullName: 'Uma User', role: 'USER' },
      ]);
      ada = await signedIn(server.origin, server.ctx, org.organization, 'ada@clinic.test');
    });
    after(async () => {
      await server?.close();
      await store?.close();
      await database?.dispose();
    });

    const userId = async (email: string) => (await server.ctx.store.findUserByEmail(org.organization.id, email))!.id;

    it('invites a member without a mail server: the answer shows the one-time link, once; the member sets a password with it and signs in', async () => {
      const form = await ada.get('/dashboard/members/new?lang=en');
      assert.equal(form.status, 200);
      assert.match(form.text, /<label for="email">Email<\/label>/);
      assert.doesNotMatch(form.text, /id="lang"/, 'no mail language without mail');
      const formId = /name="formId" value="([^"]+)"/.exec(form.text)![1]!;
      const sent = await ada.post('/dashboard/members', { email: 'Nia.Doc@clinic.test', fullName: 'Dr Nia Doc', role: 'USER', lang: 'en', formId });
      assert.equal(sent.status, 201);
      assert.match(textOf(sent.text, 'invitation-link-note')!, /Give this link to Dr Nia Doc yourself/);
      assert.match(sent.text, /Signed in as Ada Admin/);
      const link = new URL(textOf(sent.text, 'invitation-link')!);
      assert.equal(link.origin, server.config.publicUrl);
      // Sending the same form again (a reload) issues nothing more.
      const again = await ada.post('/dashboard/members', { email: 'Nia.Doc@clinic.test', fullName: 'Dr Nia Doc', role: 'USER', lang: 'en', formId });
      assert.equal(`${again.status} ${again.location}`, '303 /dashboard/members?alreadyInvited');

      const list = await ada.get('/dashboard/members');
      const nia = await userId('nia.doc@clinic.test');
      assert.match(rowOf(list.text, nia), /Invited/);
      assert.match(rowOf(list.text, nia), /New invitation/);

      const newcomer = new DashboardClient(server.origin);
      await newcomer.get(link.pathname);
      assert.equal((await newcomer.post(link.pathname, { password: PASSWORD, confirm: PASSWORD })).status, 303);
      await newcomer.get('/dashboard/sign-in');
      assert.equal((await newcomer.post('/dashboard/sign-in', { email: 'nia.doc@clinic.test', password: PASSWORD, next: '/dashboard' })).status, 303);
      assert.equal((await newcomer.get('/dashboard')).status, 200);
      const after = await ada.get('/dashboard/members');
      assert.match(rowOf(after.text, nia), /Password set/);
      assert.doesNotMatch(rowOf(after.text, nia), /New invitation/);
      // A member with a password gets no new link from an ADMIN.
      assert.equal((await ada.post(`/dashboard/members/${nia}/invite`, {})).status, 403);
    });

    it('shows refused fields beside them, in German too, and adds nobody', async () => {
      const form = await ada.get('/dashboard/members/new?lang=de');
      const formId = /name="formId" value="([^"]+)"/.exec(form.text)![1]!;
      const refused = await ada.post('/dashboard/members?lang=de', { email: 'UMA@clinic.test', fullName: '', role: 'USER', formId });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /id="fullName-error">Geben Sie einen Namen/);
      const taken = await ada.post('/dashboard/members?lang=de', { email: 'UMA@clinic.test', fullName: 'Uma Twin', role: 'USER', formId });
      assert.equal(taken.status, 409);
      assert.match(taken.text, /id="email-error">Jemand mit dieser E-Mail-Adresse ist bereits Mitglied/);
      assert.match(taken.text, /aria-invalid="true"/);
      assert.equal((await server.ctx.store.listUsers(org.organization.id)).filter((u) => /uma/i.test(u.email)).length, 1);
      await ada.get('/dashboard?lang=en');
    });

    it('changes a role; a demoted ADMIN’s open session ends at once, a promoted member keeps theirs', async () => {
      const zoe = await server.ctx.store.findUserByEmail(org.organization.id, 'uma@clinic.test');
      const uma = await signedIn(server.origin, server.ctx, org.organization, 'uma@clinic.test');
      assert.equal((await uma.get('/dashboard/members')).status, 403);
      await ada.get('/dashboard/members');
      const promoted = await ada.post(`/dashboard/members/${zoe!.id}/role`, { role: 'ADMIN' });
      assert.equal(`${promoted.status} ${promoted.location}`, '303 /dashboard/members?roleChanged');
      assert.equal((await uma.get('/dashboard/members')).status, 200, 'the new ADMIN has the section at once');
      await ada.get('/dashboard/members');
      await ada.post(`/dashboard/members/${zoe!.id}/role`, { role: 'USER' });
      const after = await uma.get('/dashboard/members');
      assert.equal(after.status, 303, 'signed out');
      assert.match(after.location!, /^\/dashboard\/sign-in/);
    });

    it('keeps the last ADMIN, saying why beside the list, and changes nothing', async () => {
      const self = await userId('ada@clinic.test');
      await ada.get('/dashboard/members');
      const demote = await ada.post(`/dashboard/members/${self}/role`, { role: 'USER' });
      assert.equal(demote.status, 409);
      assert.match(textOf(demote.text, 'members-error')!, /at least one administrator/);
      await ada.get('/dashboard/members');
      const remove = await ada.post(`/dashboard/members/${self}/remove`, {});
      assert.equal(remove.status, 409);
      assert.equal((await server.ctx.store.findUser(org.organization.id, self))?.role, 'ADMIN');
    });

    it('removes a member: their open session stops working at once, and they leave the list', async () => {
      await ada.get('/dashboard/members');
      await ada.post('/dashboard/members', { email: 'leo@clinic.test', fullName: 'Leo Leaving', role: 'USER', lang: 'en', formId: 'x' });
      const leo = await signedIn(server.origin, server.ctx, org.organization, 'leo@clinic.test');
      assert.equal((await leo.get('/dashboard/meetings')).status, 200);
      const id = await userId('leo@clinic.test');
      await ada.get('/dashboard/members');
      const removed = await ada.post(`/dashboard/members/${id}/remove`, {});
      assert.equal(`${removed.status} ${removed.location}`, '303 /dashboard/members?removed');
      assert.equal((await leo.get('/dashboard/meetings')).status, 303);
      const list = await ada.get('/dashboard/members?removed');
      assert.doesNotMatch(list.text, /Leo Leaving/);
      assert.match(list.text, /The member was removed and signed out/);
    });

    it('lists every change with who, what and when, newest first', async () => {
      const page = await ada.get('/dashboard/members/changes?lang=en');
      assert.equal(page.status, 200);
      const rows = [...page.text.matchAll(/<tr id="change-[^"]+">([\s\S]*?)<\/tr>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').replace(/&#60;/g, '<').replace(/&#62;/g, '>').replace(/\s+/g, ' ').trim());
      assert.ok(rows.length >= 8, rows.join('\n'));
      assert.match(rows[0]!, /Ada Admin <ada@clinic\.test> Removed Leo Leaving <leo@clinic\.test>/);
      assert.ok(rows.some((r) => /Ada Admin <ada@clinic\.test> Role changed from Administrator to Member Uma User/.test(r)));
      assert.ok(rows.some((r) => /Invitation issued \(link handed over\) Dr Nia Doc/.test(r)));
      assert.ok(rows.some((r) => /Operator Added as Administrator Ada Admin/.test(r)));
      assert.match(page.text, /<time datetime="\d{4}-\d\d-\d\dT/);
      const german = await ada.get('/dashboard/members/changes?lang=de');
      assert.match(german.text, /Änderungsprotokoll/);
      await ada.get('/dashboard?lang=en');
    });
  });
}

describe('inviting a member with a mail server configured', () => {
  let smtp: TestSmtp;
  let database: FreshDatabaseUrl;
  let store: StoreConnection;
  let server: TestServer;
  let org: SeededOrganization;

  before(async () => {
    smtp = await startSmtp();
    database = await freshDatabaseUrl('sqlite');
    store = await openStore(database.url, { migrate: true });
    server = await startServer(store, { mail: { smtpUrl: smtp.url, from: FROM }, passwordHashCost: 14 });
    org = await seedOrganization(server.ctx, 'basic', [{ email: 'ada@mail.test', fullName: 'Ada Admin', role: 'ADMIN' }]);
  });
  after(async () => {
    await server?.close();
    await store?.close();
    await database?.dispose();
    await smtp?.close();
  });

  it('mails the invitation in the language chosen and does not show the link; the mailed link works', async () => {
    const ada = await signedIn(server.origin, server.ctx, org.organization, 'ada@mail.test');
    const form = await ada.get('/dashboard/members/new?lang=en');
    assert.match(form.text, /id="lang"/);
    const formId = /name="formId" value="([^"]+)"/.exec(form.text)![1]!;
    const sent = await ada.post('/dashboard/members', { email: 'jonas@mail.test', fullName: 'Jonas Weiß', role: 'USER', lang: 'de', formId });
    assert.equal(sent.status, 201);
    assert.match(textOf(sent.text, 'invitation-mailed')!, /Jonas Weiß gets the invitation by mail at jonas@mail.test/);
    assert.doesNotMatch(sent.text, /\/dashboard\/password\//, 'the link is in the mail only');
    const mail = await smtp.nth(smtp.mails.length || 1);
    assert.deepEqual(mail.to, ['jonas@mail.test']);
    assert.match(mail.text, /Jonas Weiß/);
    assert.match(mail.subject + mail.text, /Einladung|eingeladen/);
    const path = passwordLinkPath(mail);
    const jonas = new DashboardClient(server.origin);
    assert.equal((await jonas.get(path)).status, 200);
    assert.equal((await jonas.post(path, { password: PASSWORD, confirm: PASSWORD })).status, 303);
    const changes = await ada.get('/dashboard/members/changes');
    assert.match(changes.text, /Invitation issued \(by mail\)/);
  });
});

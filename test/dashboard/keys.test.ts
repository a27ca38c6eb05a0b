/**
 * The dashboard's API keys, through real HTTP on SQLite and PostgreSQL: an
 * administrator creates a key and sees its secret once, in the answer to
 * the form (never in a URL, a later page or the log); the REST API accepts
 * the key at once; its use shows as last used; revoking it after being
 * asked makes the API answer 401 at once, although the key was in the
 * lookup cache. Every expiry choice, refused input beside its field with
 * nothing issued, a USER refused, another organization's keys not found.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { signedIn, type DashboardClient, type Page } from '../support/dashboard-client.ts';
import { errorBeside, isChecked, tableRows, textById, valueOf } from '../support/html.ts';
import { client, credentialHeaders, seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';

const DAY = 86_400_000;
const USERS = [
  { email: 'ada.keys@clinic.test', fullName: 'Ada Keys', role: 'ADMIN' as const },
  { email: 'uma.keys@clinic.test', fullName: 'Uma Keys', role: 'USER' as const },
];

/** The form id of the new-key page last shown, so a test can send the form as a browser would. */
function formIdOf(page: Page): string {
  const id = /name="formId" value="([^"]+)"/.exec(page.text)?.[1];
  assert.ok(id, 'the form carries a one-time id');
  return id;
}

for (const database of await testDatabases()) {
  describe(`dashboard API keys on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let org: SeededOrganization;
    let other: SeededOrganization;
    let ada: DashboardClient;
    let uma: DashboardClient;
    const log: string[] = [];
    /** Every secret a test saw, for the log test at the end. */
    const secrets: string[] = [];

    before(async () => {
      db = await database.open();
      const stream = new Writable({ write(chunk, _encoding, done) { log.push(String(chunk)); done(); } });
      server = await startServer(db.store, { passwordHashCost: 14 }, { logger: { level: 'trace', stream }, limits: true });
      org = await seedOrganization(server.ctx, 'medical', USERS);
      other = await seedOrganization(server.ctx, 'medical', [{ email: 'olga@elsewhere.test', fullName: 'Olga Other', role: 'ADMIN' }]);
      ada = await signedIn(server.origin, server.ctx, org.organization, USERS[0]!.email);
      uma = await signedIn(server.origin, server.ctx, org.organization, USERS[1]!.email);
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    const keys = () => server.ctx.store.listApiKeys(org.organization.id);

    /** Creates a key through the form; returns the page answering it and the key's two halves. */
    async function create(form: Record<string, string>) {
      const page = await ada.get('/dashboard/keys/new?lang=en');
      assert.equal(page.status, 200);
      const created = await ada.post('/dashboard/keys', { formId: formIdOf(page), ...form });
      assert.equal(created.status, 201, created.text.slice(0, 500));
      const publicKey = textById(created.text, 'new-key')!;
      const secret = textById(created.text, 'new-secret')!;
      secrets.push(secret);
      return { page: created, publicKey, secret };
    }

    it('creates a key and shows its secret once, in the answer to the form; the API accepts it at once', async () => {
      const before = (await keys()).length;
      const { page, publicKey, secret } = await create({ name: 'Practice software', expires: 'never' });
      assert.match(publicKey, /^fk_[A-Za-z0-9]{24}$/);
      assert.match(secret, /^fs_/);
      assert.equal(page.location, undefined, 'rendered, not redirected: the secret is in no URL');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.match(textById(page.text, 'secret-warning')!, /shown only this once/);
      assert.match(page.text, /data-copy="new-secret"/);
      assert.equal((await keys()).length, before + 1);

      const api = client(server.baseUrl, { headers: credentialHeaders(publicKey, secret) });
      assert.equal((await api.get('/v3/organizations')).status, 200);

      // Never again: not in the list, the form, the usage page, or the answer to the same form sent again.
      const list = await ada.get('/dashboard/keys?lang=en');
      const row = tableRows(list.text, 'keys').find((r) => r.text.startsWith('Practice software'));
      assert.ok(row, 'listed');
      // Expires never; last used "Never", or already the request above if its total was written meanwhile (every few seconds).
      assert.match(row.text, new RegExp(`^Practice software ${publicKey.slice(0, 9)}… .+ UTC Never (Never|.+ UTC) Active Revoke$`));
      for (const path of ['/dashboard/keys', '/dashboard/keys/new', '/dashboard/usage', '/dashboard']) {
        const shown = await ada.get(path);
        assert.equal(shown.status, 200, path);
        assert.ok(!shown.text.includes(secret), `${path} does not show the secret`);
        assert.ok(!shown.text.includes(publicKey), `${path} shows only the key's first characters`);
      }
    });

    it('answers the same form sent again (a reload) with the list, issuing no second key and showing no secret', async () => {
      const page = await ada.get('/dashboard/keys/new?lang=en');
      const form = { formId: formIdOf(page), name: 'Sent twice', expires: '30' };
      const first = await ada.post('/dashboard/keys', form);
      assert.equal(first.status, 201);
      secrets.push(textById(first.text, 'new-secret')!);
      const count = (await keys()).length;
      const again = await ada.post('/dashboard/keys', form);
      assert.equal(again.status, 303);
      assert.equal(again.location, '/dashboard/keys?alreadyCreated');
      assert.equal((await keys()).length, count);
      assert.match((await ada.get(`${again.location}&lang=en`)).text, /already sent and its key created/);
    });

    it('shows the key’s last use, and revoking it after asking makes the API answer 401 at once', async () => {
      const { publicKey, secret } = await create({ name: 'Front desk', expires: '90' });
      const api = client(server.baseUrl, { headers: credentialHeaders(publicKey, secret) });
      for (let i = 0; i < 3; i++) assert.equal((await api.get('/v3/organizations')).status, 200);
      await server.limits!.usage.flush();
      const key = (await keys()).find((k) => k.publicKey === publicKey)!;
      assert.ok(key.lastUsedAt && Date.now() - key.lastUsedAt.getTime() < 60_000, 'last used just now');

      const list = await ada.get('/dashboard/keys?lang=en');
      const row = tableRows(list.text, 'keys').find((r) => r.tag.includes(key.id))!;
      assert.match(row.html, new RegExp(`<time datetime="${key.lastUsedAt!.toISOString()}"`));
      assert.match(list.text, new RegExp(`<form method="post" action="/dashboard/keys/${key.id}/revoke" data-confirm="Revoke the key “Front desk”\\?`));

      const revoked = await ada.post(`/dashboard/keys/${key.id}/revoke`, {});
      assert.equal(revoked.status, 303);
      assert.equal(revoked.location, '/dashboard/keys?revoked');
      // The key was read moments ago and sits in the lookup cache: the revocation must reach it.
      assert.ok(server.config.apiKeyCacheSeconds > 0);
      assert.equal((await api.get('/v3/organizations')).status, 401);
      const after = await ada.get('/dashboard/keys?revoked&lang=en');
      assert.match(after.text, /The key is revoked/);
      const again = tableRows(after.text, 'keys').find((r) => r.tag.includes(key.id))!;
      assert.match(again.text, /Revoked$/, 'revoked, with nothing left to revoke');
    });

    it('offers every expiry: never, in 30, 90 or 365 days, or through a chosen UTC day', async () => {
      const expiry = async (form: Record<string, string>) => {
        const { publicKey } = await create({ name: `Expiry ${form.expires}`, ...form });
        return (await server.ctx.store.findApiKey(publicKey))!.expiresAt;
      };
      assert.equal(await expiry({ expires: 'never' }), null);
      for (const days of [30, 90, 365]) {
        const at = (await expiry({ expires: String(days) }))!.getTime();
        assert.ok(Math.abs(at - (Date.now() + days * DAY)) < 60_000, `${days} days`);
      }
      assert.deepEqual(await expiry({ expires: 'date', expiresAt: '2099-12-31' }), new Date('2100-01-01T00:00:00.000Z'));
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual(await expiry({ expires: 'date', expiresAt: today }), new Date(Date.parse(today) + DAY), 'today is allowed: the key works until the day ends');
      const page = await ada.get('/dashboard/keys/new?lang=en');
      for (const choice of ['never', '30', '90', '365', 'date']) assert.ok(valueOf(page.text, `expires-${choice}`) === choice, choice);
      assert.ok(isChecked(page.text, 'expires-never'), 'never is the default');
    });

    it('refuses an empty name and a past date beside each field, keeping what was typed and issuing nothing', async () => {
      const before = await keys();
      const page = await ada.get('/dashboard/keys/new?lang=de');
      const refused = await ada.post('/dashboard/keys', { formId: formIdOf(page), name: '   ', expires: 'date', expiresAt: '2001-02-03' });
      assert.equal(refused.status, 400);
      assert.equal(errorBeside(refused.text, 'name'), 'name must not be empty.');
      assert.equal(errorBeside(refused.text, 'expiresAt'), 'expiresAt must be in the future.');
      assert.match(refused.text, /Bitte korrigieren Sie die markierten Felder/);
      assert.equal(valueOf(refused.text, 'name'), '   ');
      assert.equal(valueOf(refused.text, 'expiresAt'), '2001-02-03');
      assert.ok(isChecked(refused.text, 'expires-date'));
      assert.equal(textById(refused.text, 'new-secret'), undefined);

      const cases: Array<[Record<string, string>, string, string]> = [
        [{ name: 'No date', expires: 'date', expiresAt: '' }, 'expiresAt', 'Choose the last day the key works.'],
        [{ name: 'Bad date', expires: 'date', expiresAt: '2027-02-30' }, 'expiresAt', 'Enter a date as YYYY-MM-DD.'],
        [{ name: 'Bad date', expires: 'date', expiresAt: 'tomorrow' }, 'expiresAt', 'Enter a date as YYYY-MM-DD.'],
        [{ name: 'Odd choice', expires: '42' }, 'expires', 'Choose when the key expires.'],
        [{ name: 'x'.repeat(101), expires: 'never' }, 'name', 'name has at most 100 characters.'],
        [{ name: '', expires: '' }, 'name', 'name must not be empty.'],
      ];
      for (const [form, field, message] of cases) {
        const shown = await ada.get('/dashboard/keys/new?lang=en');
        const answer = await ada.post('/dashboard/keys', { formId: formIdOf(shown), ...form });
        assert.equal(answer.status, 400, JSON.stringify(form));
        assert.equal(errorBeside(answer.text, field), message, JSON.stringify(form));
        assert.equal(valueOf(answer.text, 'name'), form.name);
      }
      assert.deepEqual(await keys(), before, 'nothing issued');
    });

    it('refuses a USER every key page and action (403) and does not offer the section; nothing changes', async () => {
      const before = await keys();
      const home = await uma.get('/dashboard?lang=en');
      assert.doesNotMatch(home.text, /href="\/dashboard\/keys"/);
      assert.equal((await uma.get('/dashboard/keys')).status, 403);
      assert.equal((await uma.get('/dashboard/keys/new')).status, 403);
      assert.equal((await uma.post('/dashboard/keys', { name: 'Mine', expires: 'never' })).status, 403);
      const refused = await uma.post(`/dashboard/keys/${org.key.id}/revoke`, {});
      assert.equal(refused.status, 403);
      assert.match(refused.text, /Your role does not allow this|Ihre Rolle erlaubt das nicht/);
      assert.deepEqual(await keys(), before);
      assert.equal((await client(server.baseUrl, org).get('/v3/organizations')).status, 200, 'the key still works');
    });

    it('answers 404 for another organization’s key, which keeps working', async () => {
      await ada.get('/dashboard/keys');
      assert.equal((await ada.post(`/dashboard/keys/${other.key.id}/revoke`, {})).status, 404);
      assert.equal((await ada.post('/dashboard/keys/not-a-key/revoke', {})).status, 404);
      assert.equal((await server.ctx.store.findApiKey(other.key.publicKey))!.revokedAt, null);
      assert.equal((await client(server.baseUrl, other).get('/v3/organizations')).status, 200);
      assert.doesNotMatch((await ada.get('/dashboard/keys')).text, new RegExp(other.key.publicKey.slice(0, 9)));
    });

    it('never writes a secret to the log', () => {
      assert.ok(secrets.length >= 8, `secrets seen: ${secrets.length}`);
      const text = log.join('');
      assert.match(text, /"url":"\/dashboard\/keys"/, 'the log was captured, with the requests that issued keys');
      for (const secret of [...secrets, org.secret]) assert.ok(!text.includes(secret), 'a secret is in the log');
    });
  });
}

/**
 * Members signing in to the dashboard, through real HTTP on SQLite and
 * PostgreSQL: invitation links, passwords, sessions (idle and absolute
 * expiry, sign-out, ended by a password change or the member's removal),
 * the sign-in throttle, CSRF, cookies and security headers, and nothing
 * secret in the logs.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { operatorActor } from '../../src/domain/actors.ts';
import { issueMemberLink } from '../../src/domain/member-links.ts';
import { addUser, removeUser } from '../../src/domain/organizations.ts';
import { FREE_FAILURES_PER_ACCOUNT, FREE_FAILURES_PER_ADDRESS } from '../../src/domain/sign-in.ts';
import { testDatabases, type TestDatabase } from '../support/databases.ts';
import { DashboardClient, invitationPath, signedIn } from '../support/dashboard-client.ts';
import { seedOrganization, startServer, type SeededOrganization, type TestServer } from '../support/server.ts';

const PASSWORD = 'a long enough passphrase';
let sequence = 0;
const email = (name: string) => `${name}.${++sequence}@clinic.test`;

for (const database of await testDatabases()) {
  describe(`dashboard members on ${database.name}`, { skip: database.skip }, () => {
    let db: TestDatabase;
    let server: TestServer;
    let org: SeededOrganization;
    let clock = Date.now();
    const logLines: string[] = [];

    before(async () => {
      db = await database.open();
      const stream = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
      // Trusting the forwarded address lets a test sign in from several client addresses.
      server = await startServer(db.store, { passwordHashCost: 14, sessionIdleMinutes: 30, sessionMaxHours: 8, trustProxy: true }, {
        now: () => new Date(clock),
        logger: { level: 'info', stream },
      });
      org = await seedOrganization(server.ctx, 'medical', []);
    });
    after(async () => {
      await server?.close();
      await db?.dispose();
    });

    const member = async (role: 'USER' | 'ADMIN' = 'USER') => {
      const address = email('member');
      await addUser(server.ctx, operatorActor(org.organization), { email: address, fullName: 'Dana Field', role });
      return address;
    };

    it('sends a visitor without a session to the sign-in page, whose fields are labelled Email and Password', async () => {
      const visitor = new DashboardClient(server.origin);
      const page = await visitor.get('/dashboard?lang=en');
      assert.equal(page.status, 303);
      assert.equal(page.location, '/dashboard/sign-in?next=%2Fdashboard%3Flang%3Den');
      const form = await visitor.get(page.location!);
      assert.equal(form.status, 200);
      assert.match(form.text, /<label for="email">Email<\/label>/);
      assert.match(form.text, /<label for="password">Password<\/label>/);
    });

    it('lets an invited member set a password, sign in, see the dashboard and sign out', async () => {
      const address = await member();
      const client = new DashboardClient(server.origin);
      const link = await invitationPath(server.ctx, org.organization, address);
      const greeting = await client.get(link);
      assert.equal(greeting.status, 200);
      assert.match(greeting.text, /Dana Field/);
      const set = await client.post(link, { password: PASSWORD, confirm: PASSWORD });
      assert.equal(set.status, 303);
      assert.equal(set.location, '/dashboard/sign-in?passwordSet');

      await client.get('/dashboard/sign-in?next=/dashboard/meetings');
      const signIn = await client.post('/dashboard/sign-in', { email: address.toUpperCase(), password: PASSWORD, next: '/dashboard/meetings' });
      assert.equal(signIn.status, 303);
      assert.equal(signIn.location, '/dashboard/meetings');
      const overview = await client.get('/dashboard');
      assert.equal(overview.status, 200);
      assert.match(overview.text, new RegExp(org.organization.name));

      const out = await client.post('/dashboard/sign-out', {});
      assert.equal(out.status, 303);
      assert.equal((await client.get('/dashboard')).status, 303);
    });

    it('answers a wrong password and an unknown email the same way', async () => {
      const address = await member();
      await signedIn(server.origin, server.ctx, org.organization, address);
      const client = new DashboardClient(server.origin);
      await client.get('/dashboard/sign-in');
      const wrong = await client.post('/dashboard/sign-in', { email: address, password: 'not the password at all' });
      const unknown = await client.post('/dashboard/sign-in', { email: email('nobody'), password: 'not the password at all' });
      assert.equal(wrong.status, 401);
      assert.equal(unknown.status, 401);
      const message = (text: string) => /<p class="form-error"[^>]*>([^<]*)</.exec(text)?.[1];
      assert.equal(message(wrong.text), 'The email or password is not right.');
      assert.equal(message(unknown.text), message(wrong.text));
      assert.equal(client.cookie('foyer_session'), undefined);
    });

    it('refuses passwords that are short, common, or the member’s own email, and changes nothing', async () => {
      const address = await member();
      const client = new DashboardClient(server.origin);
      const link = await invitationPath(server.ctx, org.organization, address);
      await client.get(link);
      for (const [password, pattern] of [
        ['short', /at least 10 characters/],
        ['password123', /most common/],
        [address, /not be your email/],
      ] as const) {
        const page = await client.post(link, { password, confirm: password });
        assert.equal(page.status, 400, password);
        assert.match(page.text, pattern);
        assert.match(page.text, /aria-invalid="true"/);
      }
      const mismatch = await client.post(link, { password: PASSWORD, confirm: `${PASSWORD}!` });
      assert.equal(mismatch.status, 400);
      assert.match(mismatch.text, /not the same/);
      // Still unused: the link works for a good password.
      assert.equal((await client.post(link, { password: PASSWORD, confirm: PASSWORD })).status, 303);
    });

    it('refuses a link used once, and a link past its 72 hours', async () => {
      const address = await member();
      const used = new DashboardClient(server.origin);
      const link = await invitationPath(server.ctx, org.organization, address);
      await used.get(link);
      assert.equal((await used.post(link, { password: PASSWORD, confirm: PASSWORD })).status, 303);
      assert.equal((await used.get(link)).status, 410);
      assert.equal((await used.post(link, { password: `${PASSWORD} 2`, confirm: `${PASSWORD} 2` })).status, 410);

      const late = await member();
      const { url } = await issueMemberLink(server.ctx, operatorActor(org.organization), late, 'invite');
      const path = new URL(url).pathname;
      const visitor = new DashboardClient(server.origin);
      const start = clock;
      try {
        clock = start + 72 * 3_600_000 - 1000;
        assert.equal((await visitor.get(path)).status, 200);
        clock = start + 72 * 3_600_000 + 1000;
        assert.equal((await visitor.get(path)).status, 410);
        assert.equal((await visitor.post(path, { password: PASSWORD, confirm: PASSWORD })).status, 410);
      } finally {
        clock = start;
      }
    });

    it('refuses a form without its CSRF token, or with another session’s, and changes nothing', async () => {
      const address = await member();
      const ann = await signedIn(server.origin, server.ctx, org.organization, address);
      const other = await signedIn(server.origin, server.ctx, org.organization, await member());
      await other.get('/dashboard');
      for (const token of [null, 'forged-token', other.csrf!]) {
        const page = await ann.post('/dashboard/sign-out', { _csrf: token });
        assert.equal(page.status, 403, String(token));
        assert.match(page.text, /The form has expired/);
      }
      // Both are still signed in.
      assert.equal((await ann.get('/dashboard')).status, 200);
      assert.equal((await other.get('/dashboard')).status, 200);
      // A sign-in form also needs its token.
      const visitor = new DashboardClient(server.origin);
      assert.equal((await visitor.post('/dashboard/sign-in', { email: address, password: PASSWORD, _csrf: null })).status, 403);
    });

    it('ends a session after the idle time, and after the absolute lifetime however active', async () => {
      const start = clock;
      try {
        const idle = await signedIn(server.origin, server.ctx, org.organization, await member());
        clock = start + 29 * 60_000;
        assert.equal((await idle.get('/dashboard')).status, 200);
        clock = start + 29 * 60_000 + 30 * 60_000 + 1000;
        assert.equal((await idle.get('/dashboard')).status, 303);

        clock = start;
        const busy = await signedIn(server.origin, server.ctx, org.organization, await member());
        for (let minutes = 25; minutes < 8 * 60; minutes += 25) {
          clock = start + minutes * 60_000;
          assert.equal((await busy.get('/dashboard')).status, 200, `${minutes} minutes in`);
        }
        clock = start + 8 * 3_600_000 + 1000;
        assert.equal((await busy.get('/dashboard')).status, 303);
      } finally {
        clock = start;
      }
    });

    it('ends every session of a member whose password is set again, and of a member the operator removes', async () => {
      const address = await member();
      const phone = await signedIn(server.origin, server.ctx, org.organization, address);
      const laptop = await signedIn(server.origin, server.ctx, org.organization, address);
      const { url } = await issueMemberLink(server.ctx, operatorActor(org.organization), address, 'reset');
      const reset = new DashboardClient(server.origin);
      await reset.get(new URL(url).pathname);
      assert.equal((await reset.post(new URL(url).pathname, { password: `${PASSWORD} new`, confirm: `${PASSWORD} new` })).status, 303);
      assert.equal((await phone.get('/dashboard')).status, 303);
      assert.equal((await laptop.get('/dashboard')).status, 303);

      const removed = await member();
      const session = await signedIn(server.origin, server.ctx, org.organization, removed);
      await removeUser(server.ctx, operatorActor(org.organization), removed);
      assert.equal((await session.get('/dashboard')).status, 303);
    });

    const from = (address: string) => ({ 'x-forwarded-for': address });

    it('keeps a member’s right password working from another address after ten wrong ones from one', async () => {
      const address = await member();
      await signedIn(server.origin, server.ctx, org.organization, address);
      const attacker = new DashboardClient(server.origin);
      await attacker.get('/dashboard/sign-in', from('203.0.113.10'));
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        statuses.push((await attacker.post('/dashboard/sign-in', { email: address, password: `wrong guess ${i}` }, from('203.0.113.10'))).status);
      }
      assert.deepEqual(statuses.slice(0, FREE_FAILURES_PER_ACCOUNT), Array(FREE_FAILURES_PER_ACCOUNT).fill(401));
      assert.ok(statuses.slice(FREE_FAILURES_PER_ACCOUNT).every((s) => s === 429), statuses.join(','));
      // From the attacker's address even the right password is not checked now.
      const there = await attacker.post('/dashboard/sign-in', { email: address, password: PASSWORD }, from('203.0.113.10'));
      assert.equal(there.status, 429);
      assert.match(there.text, /Too many attempts/);
      assert.equal(attacker.cookie('foyer_session'), undefined);

      const memberClient = new DashboardClient(server.origin);
      await memberClient.get('/dashboard/sign-in', from('198.51.100.20'));
      const signIn = await memberClient.post('/dashboard/sign-in', { email: address, password: PASSWORD }, from('198.51.100.20'));
      assert.equal(signIn.status, 303);
      assert.ok(memberClient.cookie('foyer_session'));
    });

    it('makes a guesser wait twice as long after every further wrong password, and checks none meanwhile', async () => {
      const address = await member();
      await signedIn(server.origin, server.ctx, org.organization, address);
      const guesser = new DashboardClient(server.origin);
      const here = from('203.0.113.11');
      await guesser.get('/dashboard/sign-in', here);
      const start = clock;
      try {
        for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
          assert.equal((await guesser.post('/dashboard/sign-in', { email: address, password: `wrong ${i}` }, here)).status, 401);
        }
        const waits: number[] = [];
        for (let round = 0; round < 4; round++) {
          const refused = await guesser.post('/dashboard/sign-in', { email: address, password: PASSWORD }, here);
          assert.equal(refused.status, 429, 'not even the right password is checked while the delay runs');
          const wait = Number(refused.headers.get('retry-after'));
          waits.push(wait);
          clock += wait * 1000 - 500;
          assert.equal((await guesser.post('/dashboard/sign-in', { email: address, password: `early ${round}` }, here)).status, 429);
          clock += 500;
          assert.equal((await guesser.post('/dashboard/sign-in', { email: address, password: `late ${round}` }, here)).status, 401);
        }
        assert.deepEqual(waits, [2, 4, 8, 16]);
      } finally {
        clock = start;
      }
    });

    it('sets the session cookie HttpOnly and SameSite=Lax, and sends strict security headers', async () => {
      const address = await member();
      const client = new DashboardClient(server.origin);
      const link = await invitationPath(server.ctx, org.organization, address);
      await client.get(link);
      await client.post(link, { password: PASSWORD, confirm: PASSWORD });
      const page = await client.get('/dashboard/sign-in');
      const signIn = await client.post('/dashboard/sign-in', { email: address, password: PASSWORD });
      const cookie = signIn.headers.getSetCookie().find((c) => c.startsWith('foyer_session='))!;
      assert.match(cookie, /HttpOnly/i);
      assert.match(cookie, /SameSite=Lax/i);
      assert.doesNotMatch(cookie, /Secure/i, 'http PUBLIC_URL: no Secure flag, or the browser would drop it');
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(page.headers.get('referrer-policy'), 'same-origin');
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(page.headers.get('cache-control'), 'no-store');
    });

    it('writes no password, session id or link token to the log', async () => {
      const address = await member();
      const client = new DashboardClient(server.origin);
      const link = await invitationPath(server.ctx, org.organization, address);
      const token = link.split('/').pop()!;
      await client.get(link);
      await client.post(link, { password: PASSWORD, confirm: PASSWORD });
      await client.get('/dashboard/sign-in');
      await client.post('/dashboard/sign-in', { email: address, password: PASSWORD });
      await client.get('/dashboard');
      const log = logLines.join('');
      assert.match(log, /incoming request/, 'the requests were logged');
      assert.ok(!log.includes(PASSWORD), 'no password');
      assert.ok(!log.includes(token), 'no link token');
      assert.ok(!log.includes(client.cookie('foyer_session')!), 'no session id');
    });

    it('stops checking passwords from an address that failed for many accounts, even a right one, and says the same as for an account', async () => {
      const address = await member();
      await signedIn(server.origin, server.ctx, org.organization, address);
      const client = new DashboardClient(server.origin);
      const here = from('203.0.113.12');
      await client.get('/dashboard/sign-in', here);
      const statuses: number[] = [];
      for (let i = 0; i < FREE_FAILURES_PER_ADDRESS + 1; i++) {
        statuses.push((await client.post('/dashboard/sign-in', { email: `guess-${i}@nowhere.test`, password: 'not a password here' }, here)).status);
      }
      assert.deepEqual(statuses, [...Array(FREE_FAILURES_PER_ADDRESS).fill(401), 429]);
      const right = await client.post('/dashboard/sign-in', { email: address, password: PASSWORD }, here);
      assert.equal(right.status, 429);
      assert.match(right.text, /Too many attempts/);
      assert.equal(client.cookie('foyer_session'), undefined);
      // Everyone else signs in as before.
      const elsewhere = new DashboardClient(server.origin);
      await elsewhere.get('/dashboard/sign-in', from('198.51.100.21'));
      assert.equal((await elsewhere.post('/dashboard/sign-in', { email: address, password: PASSWORD }, from('198.51.100.21'))).status, 303);
    });
  });
}

describe('dashboard cookies over https', () => {
  it('marks the session cookie Secure when PUBLIC_URL is https', async () => {
    const [sqlite] = await testDatabases();
    const db = await sqlite!.open();
    const server = await startServer(db.store, { passwordHashCost: 14, publicUrl: 'https://meet.example.org' });
    try {
      const org = await seedOrganization(server.ctx, 'basic', [{ email: 'eve@basic.test', fullName: 'Eve', role: 'ADMIN' }]);
      const client = new DashboardClient(server.origin);
      const link = await invitationPath(server.ctx, org.organization, 'eve@basic.test');
      await client.get(link);
      await client.post(link, { password: PASSWORD, confirm: PASSWORD });
      await client.get('/dashboard/sign-in');
      const signIn = await client.post('/dashboard/sign-in', { email: 'eve@basic.test', password: PASSWORD });
      assert.match(signIn.headers.getSetCookie().find((c) => c.startsWith('foyer_session='))!, /Secure/);
    } finally {
      await server.close();
      await db.dispose();
    }
  });
});

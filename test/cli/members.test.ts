/**
 * The operator's member commands, through the real `bin/foyer.js` in a
 * child process: invitation and reset links (`--json` prints exactly the
 * link and its expiry) and an organization's single sign-on (set, shown,
 * removed; the client secret never printed back, refused without
 * SSO_SECRET_KEY and for a plain-http issuer off this machine).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

const BIN = new URL('../../bin/foyer.js', import.meta.url).pathname;
const PUBLIC_URL = 'https://meet.clinic.test';
const SSO_KEY = 'an operator key for sealing sso secrets, long enough';
const SECRET = 'the-client-secret-nobody-may-see';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

describe('foyer member commands', () => {
  let dir: string;
  let env: Record<string, string | undefined>;

  const foyer = (args: string[], extra: Record<string, string> = {}, stdin?: string): Promise<Result> =>
    new Promise((resolve) => {
      const child = execFile(process.execPath, [BIN, ...args], { env: { ...env, ...extra } }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin!.end(stdin ?? '');
    });

  const json = async (args: string[], extra: Record<string, string> = {}, stdin?: string) => {
    const result = await foyer([...args, '--json'], extra, stdin);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim().split('\n').length, 1, 'one line of JSON');
    return JSON.parse(result.stdout);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'foyer-cli-members-'));
    const { SMTP_URL: _smtp, MAIL_FROM: _from, SSO_SECRET_KEY: _key, ...rest } = process.env;
    env = { ...rest, DATABASE_URL: `sqlite:${join(dir, 'foyer.db')}`, PUBLIC_URL, API_SECRET_PEPPER: 'test-pepper' };
    await json(['org', 'create', '--name', 'North Clinic', '--type', 'medical']);
    await json(['user', 'add', '--org', 'north-clinic', '--email', 'ada@north.test', '--name', 'Ada Lind', '--role', 'ADMIN']);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints an invitation link as exactly {"url", "expiresAt"} with --json, valid 72 hours', async () => {
    const started = Date.now();
    const printed = await json(['user', 'invite', '--org', 'north-clinic', '--email', 'ADA@north.test']);
    assert.deepEqual(Object.keys(printed), ['url', 'expiresAt']);
    assert.match(printed.url, /^https:\/\/meet\.clinic\.test\/dashboard\/password\/[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(printed.expiresAt) - started) / 3_600_000;
    assert.ok(hours > 71.9 && hours <= 72.1, `expires in ${hours} h`);
    assert.equal(new Date(printed.expiresAt).toISOString(), printed.expiresAt);
  });

  it('says, without mail configured, that the operator hands the link over', async () => {
    const human = await foyer(['user', 'reset', '--org', 'north-clinic', '--email', 'ada@north.test']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^Password reset link for ada@north\.test \(north-clinic\)/);
    assert.match(human.stdout, /no mail server is configured \(SMTP_URL\)/);
    const reset = await json(['user', 'reset', '--org', 'north-clinic', '--email', 'ada@north.test']);
    assert.deepEqual(Object.keys(reset), ['url', 'expiresAt']);
  });

  it('refuses a link for an email that is not a member', async () => {
    const result = await foyer(['user', 'invite', '--org', 'north-clinic', '--email', 'nobody@north.test', '--json']);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /^foyer: /);
  });

  it('changes a role and lists the record of changes, every one as the operator’s', async () => {
    await json(['user', 'add', '--org', 'north-clinic', '--email', 'bo@north.test', '--name', 'Bo Berg']);
    const changed = await json(['user', 'role', '--org', 'north-clinic', '--email', 'BO@north.test', '--role', 'admin']);
    assert.equal(changed.organizationRole, 'ADMIN');
    const bad = await foyer(['user', 'role', '--org', 'north-clinic', '--email', 'bo@north.test', '--role', 'OWNER']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /role is USER or ADMIN/);
    const { changes } = await json(['org', 'changes', 'north-clinic']);
    assert.deepEqual(changes[0].detail, { from: 'USER', to: 'ADMIN' });
    assert.equal(changes[0].action, 'member.role_changed');
    assert.deepEqual(changes[0].actor, { kind: 'operator', id: null, label: 'operator' });
    assert.equal(changes[0].subject.label, 'Bo Berg <bo@north.test>');
    assert.ok(changes.some((c: { action: string }) => c.action === 'member.added'));
    const removed = await json(['user', 'remove', '--org', 'north-clinic', '--email', 'bo@north.test']);
    assert.equal(removed.removed, true);
    const human = await foyer(['org', 'changes', 'north-clinic', '--limit', '1']);
    assert.match(human.stdout, /^\d{4}-\d\d-\d\dT[^\t]+\toperator\tmember\.removed\tBo Berg <bo@north\.test>/);
  });

  it('shows, sets, adds, removes and clears the allowed embedding origins, refusing a bad one', async () => {
    assert.deepEqual(await json(['org', 'origins', 'north-clinic']), { origins: [] });
    assert.deepEqual(await json(['org', 'origins', 'north-clinic', '--set', 'https://Portal.north.test, http://localhost:3001']), {
      origins: ['https://portal.north.test', 'http://localhost:3001'],
    });
    assert.deepEqual((await json(['org', 'origins', 'north-clinic', '--add', 'https://app.north.test'])).origins.length, 3);
    assert.deepEqual(await json(['org', 'origins', 'north-clinic', '--remove', 'http://localhost:3001/']), { origins: ['https://portal.north.test', 'https://app.north.test'] });
    const bad = await foyer(['org', 'origins', 'north-clinic', '--add', 'https://*.north.test']);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /Wildcards are not allowed/);
    const both = await foyer(['org', 'origins', 'north-clinic', '--add', 'https://a.test', '--clear']);
    assert.equal(both.code, 2);
    assert.deepEqual(await json(['org', 'origins', 'north-clinic', '--clear']), { origins: [] });
    const human = await foyer(['org', 'origins', 'north-clinic']);
    assert.match(human.stdout, /No allowed origins for north-clinic/);
    const { changes } = await json(['org', 'changes', 'north-clinic', '--limit', '1']);
    assert.deepEqual(changes[0].detail, { added: [], removed: ['https://portal.north.test', 'https://app.north.test'] });
  });

  it('sets, shows and removes single sign-on, never printing the client secret', async () => {
    const withKey = { SSO_SECRET_KEY: SSO_KEY };
    const noKey = await foyer(['org', 'sso', 'north-clinic', '--issuer', 'https://login.north.test', '--client-id', 'foyer', '--client-secret', SECRET]);
    assert.equal(noKey.code, 1);
    assert.match(noKey.stderr, /SSO_SECRET_KEY is not set/);

    const plainHttp = await foyer(['org', 'sso', 'north-clinic', '--issuer', 'http://login.north.test', '--client-id', 'foyer', '--client-secret', SECRET], withKey);
    assert.equal(plainHttp.code, 1);
    assert.match(plainHttp.stderr, /must use https/);

    const set = await json(['org', 'sso', 'north-clinic', '--issuer', 'https://login.north.test/realms/north', '--client-id', 'foyer', '--client-secret', '-'], withKey, `${SECRET}\n`);
    assert.equal(set.organization, 'north-clinic');
    assert.equal(set.sso.issuer, 'https://login.north.test/realms/north');
    assert.equal(set.sso.clientId, 'foyer');
    assert.equal(set.sso.redirectUri, `${PUBLIC_URL}/dashboard/sso/callback`);

    const human = await foyer(['org', 'sso', 'north-clinic'], withKey);
    assert.match(human.stdout, /Single sign-on for north-clinic: https:\/\/login\.north\.test\/realms\/north \(client foyer\)/);
    const shown = await json(['org', 'sso', 'north-clinic'], withKey);
    assert.deepEqual(shown.sso, set.sso);
    for (const output of [JSON.stringify(set), JSON.stringify(shown), human.stdout, human.stderr]) assert.ok(!output.includes(SECRET));

    const off = await json(['org', 'sso', 'north-clinic', '--off'], withKey);
    assert.deepEqual(off, { organization: 'north-clinic', sso: null, removed: true });
    assert.equal((await json(['org', 'sso', 'north-clinic'])).sso, null);
  });

  it('refuses half a single sign-on setting as bad usage', async () => {
    const result = await foyer(['org', 'sso', 'north-clinic', '--issuer', 'https://login.north.test'], { SSO_SECRET_KEY: SSO_KEY });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--issuer, --client-id and --client-secret together/);
  });
});

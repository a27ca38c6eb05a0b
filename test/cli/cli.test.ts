/**
 * The operator CLI, driven as an operator would: the real `bin/foyer.js`
 * in a child process against a real database, reading its JSON output.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { DAY_MS, hourStart } from '../../src/domain/usage.ts';
import { UsageRecorder } from '../../src/limits/usage-recorder.ts';
import { openStore } from '../../src/store/open.ts';
import { freshDatabaseUrl, postgresSkipReason } from '../support/databases.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/foyer.js', import.meta.url).pathname;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(databaseUrl: string) {
  return async (...args: string[]): Promise<Result> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
        env: { ...process.env, DATABASE_URL: databaseUrl, API_SECRET_PEPPER: 'test-pepper' },
      });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
}

/** Runs a --json command that must succeed and print exactly one JSON object. */
async function json(foyer: ReturnType<typeof cli>, ...args: string[]): Promise<any> {
  const result = await foyer(...args, '--json');
  assert.equal(result.code, 0, `foyer ${args.join(' ')} failed: ${result.stderr}`);
  assert.equal(result.stdout.trim().split('\n').length, 1, 'one line of JSON');
  return JSON.parse(result.stdout);
}

const postgresSkip = await postgresSkipReason();

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`foyer CLI on ${kind}`, { skip: kind === 'postgres' ? postgresSkip : undefined }, () => {
    let foyer: ReturnType<typeof cli>;
    let databaseUrl: string;
    let dispose: () => Promise<void>;

    before(async () => {
      if (kind === 'sqlite') {
        const dir = mkdtempSync(join(tmpdir(), 'foyer-cli-'));
        databaseUrl = `sqlite:${join(dir, 'nested', 'foyer.db')}`;
        dispose = async () => rmSync(dir, { recursive: true, force: true });
      } else {
        const db = await freshDatabaseUrl('postgres');
        databaseUrl = db.url;
        dispose = db.dispose;
      }
      foyer = cli(databaseUrl);
    });
    after(() => dispose());

    it('creates an organization with a slug derived from its name', async () => {
      const org = await json(foyer, 'org', 'create', '--name', 'Acme Clinic', '--type', 'medical');
      assert.deepEqual(Object.keys(org).sort(), ['id', 'name', 'slug', 'type']);
      assert.equal(org.slug, 'acme-clinic');
      assert.equal(org.type, 'medical');
      const listed = await json(foyer, 'org', 'list');
      assert.deepEqual(listed.organizations, [org]);
      const shown = await json(foyer, 'org', 'show', org.id);
      assert.equal(shown.slug, 'acme-clinic');
    });

    it('refuses a taken slug and an unknown type on stderr with a non-zero exit', async () => {
      const taken = await foyer('org', 'create', '--name', 'Acme Clinic', '--type', 'basic', '--json');
      assert.notEqual(taken.code, 0);
      assert.equal(taken.stdout, '');
      assert.match(taken.stderr, /slug/);
      const badType = await foyer('org', 'create', '--name', 'Other', '--type', 'hospital', '--json');
      assert.notEqual(badType.code, 0);
      assert.match(badType.stderr, /medical or basic/);
    });

    it('adds and removes users, emails unique case-insensitively', async () => {
      const user = await json(foyer, 'user', 'add', '--org', 'acme-clinic', '--email', 'Ann@Acme.test', '--name', 'Ann Lee', '--role', 'ADMIN');
      assert.deepEqual(Object.keys(user).sort(), ['email', 'fullName', 'id', 'organizationRole']);
      assert.equal(user.organizationRole, 'ADMIN');
      const again = await foyer('user', 'add', '--org', 'acme-clinic', '--email', 'ann@acme.TEST', '--name', 'Ann Again');
      assert.notEqual(again.code, 0);
      await json(foyer, 'user', 'add', '--org', 'acme-clinic', '--email', 'bob@acme.test', '--name', 'Bob');
      const removed = await json(foyer, 'user', 'remove', '--org', 'acme-clinic', '--email', 'BOB@acme.test');
      assert.equal(removed.email, 'bob@acme.test');
      const shown = await json(foyer, 'org', 'show', 'acme-clinic');
      assert.deepEqual(shown.users.map((u: any) => u.email), ['Ann@Acme.test']);
      const missing = await foyer('user', 'remove', '--org', 'acme-clinic', '--email', 'bob@acme.test');
      assert.notEqual(missing.code, 0);
    });

    it('issues keys whose secret is shown once and never listed', async () => {
      const forever = await json(foyer, 'key', 'create', '--org', 'acme-clinic');
      assert.deepEqual(Object.keys(forever).sort(), ['apiKey', 'apiSecret', 'expiresAt']);
      assert.equal(forever.expiresAt, null);
      assert.ok(forever.apiSecret.length >= 40);

      const monthly = await json(foyer, 'key', 'create', '--org', 'acme-clinic', '--expires-in', '30d', '--name', 'Front desk');
      const days = (Date.parse(monthly.expiresAt) - Date.now()) / 86_400_000;
      assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
      const dated = await json(foyer, 'key', 'create', '--org', 'acme-clinic', '--expires-at', '2099-01-01T00:00:00Z');
      assert.equal(dated.expiresAt, '2099-01-01T00:00:00.000Z');
      const past = await foyer('key', 'create', '--org', 'acme-clinic', '--expires-at', '2001-01-01T00:00:00Z');
      assert.notEqual(past.code, 0);

      const listed = await foyer('key', 'list', '--org', 'acme-clinic', '--json');
      assert.equal(listed.code, 0);
      for (const secret of [forever.apiSecret, monthly.apiSecret, dated.apiSecret]) {
        assert.ok(!listed.stdout.includes(secret), 'list never shows a secret');
      }
      const keys = JSON.parse(listed.stdout).keys;
      assert.equal(keys.length, 3);
      assert.ok(keys.every((k: any) => k.status === 'active'));
      assert.deepEqual(keys.map((k: any) => [k.name, k.lastUsedAt]), [['', null], ['Front desk', null], ['', null]], 'named as given, unnamed by default');

      const revoked = await json(foyer, 'key', 'revoke', forever.apiKey);
      assert.equal(revoked.status, 'revoked');
      const after = await json(foyer, 'key', 'list', '--org', 'acme-clinic');
      assert.equal(after.keys.find((k: any) => k.apiKey === forever.apiKey).status, 'revoked');
      const unknown = await foyer('key', 'revoke', 'fk_doesnotexist');
      assert.notEqual(unknown.code, 0);
    });

    it('shows, sets and clears an organization\'s hourly and daily quotas', async () => {
      const org = await json(foyer, 'org', 'create', '--name', 'Quota Clinic', '--type', 'basic');
      const quota = (hourly: number | null, daily: number | null) => ({ organizationId: org.id, slug: 'quota-clinic', hourly, daily });
      assert.deepEqual(await json(foyer, 'org', 'limits', 'quota-clinic'), quota(null, null));
      assert.deepEqual(await json(foyer, 'org', 'limits', 'quota-clinic', '--hourly', '20000', '--daily', '200000'), quota(20000, 200000));
      // Each flag changes only its own period; the organization's id works as well as its slug.
      assert.deepEqual(await json(foyer, 'org', 'limits', org.id, '--daily', 'none'), quota(20000, null));
      assert.deepEqual(await json(foyer, 'org', 'limits', 'quota-clinic'), quota(20000, null), 'stored, not just echoed');
      const human = await foyer('org', 'limits', 'quota-clinic');
      assert.equal(human.code, 0);
      assert.equal(human.stdout, 'quota-clinic: 20000 requests per hour, no day quota (UTC)\n');
      assert.deepEqual(await json(foyer, 'org', 'limits', 'quota-clinic', '--daily', '5'), quota(20000, 5));
      assert.deepEqual(await json(foyer, 'org', 'limits', 'quota-clinic', '--clear'), quota(null, null));
      assert.deepEqual(await json(foyer, 'org', 'limits', 'quota-clinic'), quota(null, null));
    });

    it('refuses bad quota values as bad usage (exit 2) and changes nothing', async () => {
      await json(foyer, 'org', 'limits', 'quota-clinic', '--hourly', '7');
      const bad = [
        ['--hourly', 'lots'],
        ['--hourly', '0'],
        ['--daily', '1.5'],
        ['--daily', '1000000001'],
        ['--hourly', ''],
        ['--clear', '--daily', '5'],
      ];
      for (const args of bad) {
        const result = await foyer('org', 'limits', 'quota-clinic', ...args, '--json');
        assert.equal(result.code, 2, `${args.join(' ')}: exit ${result.code}, stderr ${result.stderr}`);
        assert.equal(result.stdout, '', `${args.join(' ')} printed nothing on stdout`);
        assert.match(result.stderr, /--hourly|--daily|--clear/);
      }
      const unknown = await foyer('org', 'limits', 'no-such-org', '--json');
      assert.equal(unknown.code, 1);
      assert.equal(unknown.stdout, '');
      assert.deepEqual(await json(foyer, 'org', 'limits', 'quota-clinic'), {
        organizationId: (await json(foyer, 'org', 'show', 'quota-clinic')).id,
        slug: 'quota-clinic',
        hourly: 7,
        daily: null,
      });
    });

    it('prints request totals once they are counted and flushed', async () => {
      const org = await json(foyer, 'org', 'create', '--name', 'Usage Clinic', '--type', 'basic');
      await json(foyer, 'org', 'limits', 'usage-clinic', '--hourly', '100');
      const key = await json(foyer, 'key', 'create', '--org', 'usage-clinic');
      const before = await json(foyer, 'usage', 'usage-clinic', '--days', '3');
      assert.deepEqual(before.keys, [{ apiKey: key.apiKey, currentHour: 0, currentDay: 0, total: 0 }]);

      // Counted the way a server counts accepted requests (see test/limits for the HTTP side),
      // plus a total a server wrote yesterday.
      const store = await openStore(databaseUrl);
      try {
        const apiKeyId = (await store.findApiKey(key.apiKey))!.id;
        const recorder = new UsageRecorder(store, { flushMs: 3_600_000 });
        for (let i = 0; i < 3; i++) recorder.record(apiKeyId, org.id);
        await recorder.flush();
        await store.recordUsage([{ apiKeyId, organizationId: org.id, hourStart: hourStart(Date.now()) - DAY_MS, requests: 5 }]);
      } finally {
        await store.close();
      }

      // --days 3, so that the figures add up even if midnight (UTC) passes meanwhile.
      const report = await json(foyer, 'usage', 'usage-clinic', '--days', '3');
      assert.equal(report.slug, 'usage-clinic');
      assert.deepEqual(report.quota, { hourly: 100, daily: null });
      assert.equal(report.days.length, 3);
      assert.deepEqual(report.days.map((d: any) => d.requests).filter((n: number) => n > 0), [3, 5]);
      assert.deepEqual(report.keys.map((k: any) => [k.apiKey, k.total]), [[key.apiKey, 8]]);
      assert.ok(report.currentHour.requests <= report.currentDay.requests && report.currentDay.requests <= 3);

      const human = await foyer('usage', 'usage-clinic', '--days', '3');
      assert.equal(human.code, 0);
      assert.equal(human.stderr, '');
      assert.match(human.stdout, /^Usage Clinic \(usage-clinic\)\n/);
      assert.match(human.stdout, /^this hour \(\S+\): [0-3] of 100 requests$/m);
      assert.ok(human.stdout.split('\n').some((line) => line.startsWith(`  ${key.apiKey}\t`) && line.endsWith('\t8')), human.stdout);

      for (const days of ['0', '367', 'week']) {
        const bad = await foyer('usage', 'usage-clinic', '--days', days, '--json');
        assert.equal(bad.code, 2, `--days ${days}`);
        assert.equal(bad.stdout, '');
      }
      assert.equal((await foyer('usage', 'no-such-org', '--json')).code, 1);
    });

    it('migrates idempotently', async () => {
      const result = await json(foyer, 'migrate');
      assert.deepEqual(result, { applied: [] });
    });

    it('exits 2 with usage help for an unknown command', async () => {
      const result = await foyer('frobnicate');
      assert.equal(result.code, 2);
      assert.equal(result.stdout, '');
    });
  });
}

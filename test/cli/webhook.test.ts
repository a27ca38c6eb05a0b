/**
 * `foyer webhook …` as an operator runs it: the real bin/foyer.js in a
 * child process on a SQLite file.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { freshDatabaseUrl, type FreshDatabaseUrl } from '../support/databases.ts';

const run = promisify(execFile);
const BIN = new URL('../../bin/foyer.js', import.meta.url).pathname;

describe('foyer webhook', () => {
  let database: FreshDatabaseUrl;
  const foyer = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: database.url, API_SECRET_PEPPER: 'test-pepper' } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };
  const json = async (...args: string[]) => {
    const result = await foyer(...args, '--json');
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  };

  before(async () => {
    database = await freshDatabaseUrl('sqlite');
    await json('org', 'create', '--name', 'Hook Clinic', '--slug', 'hook-clinic', '--type', 'basic');
  });
  after(() => database.dispose());

  it('adds an endpoint showing its secret once, lists it without the secret, refuses private URLs, removes it', async () => {
    const added = await json('webhook', 'add', '--org', 'hook-clinic', '--url', 'https://hooks.example.com/foyer', '--events', 'meeting.created,meeting.ended', '--description', 'CRM');
    assert.match(added.secret, /^whsec_/);
    assert.deepEqual(added.events, ['meeting.created', 'meeting.ended']);
    const listed = await json('webhook', 'list', '--org', 'hook-clinic');
    assert.deepEqual(listed.webhooks.map((w: any) => w.id), [added.id]);
    assert.doesNotMatch(JSON.stringify(listed), /whsec_/);
    const refused = await foyer('webhook', 'add', '--org', 'hook-clinic', '--url', 'https://192.168.1.10/hook', '--events', 'all');
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /private/);
    await json('webhook', 'remove', '--org', 'hook-clinic', added.id);
    assert.deepEqual((await json('webhook', 'list', '--org', 'hook-clinic')).webhooks, []);
  });
});

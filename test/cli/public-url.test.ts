/**
 * The links the operator's CLI prints lead to the server, whatever shell
 * the CLI runs in: the server records its PUBLIC_URL in the database when
 * it starts, and `foyer user invite` builds its link from that, with or
 * without a PUBLIC_URL of its own (a different one is pointed out on
 * stderr). Before any server started, the CLI says which address it used.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/open.ts';
import type { StoreConnection } from '../../src/domain/ports/store.ts';
import { freshDatabaseUrl, type FreshDatabaseUrl } from '../support/databases.ts';
import { startServer, type TestServer } from '../support/server.ts';

const BIN = new URL('../../bin/foyer.js', import.meta.url).pathname;
const SERVER_URL = 'https://meet.north.test';

describe('the links the CLI prints', () => {
  let database: FreshDatabaseUrl;
  let env: Record<string, string | undefined>;
  let store: StoreConnection | undefined;
  let server: TestServer | undefined;

  const foyer = (args: string[], extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: { ...env, ...extra } }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const invite = async (extra: Record<string, string> = {}) => {
    const result = await foyer(['user', 'invite', '--org', 'north-clinic', '--email', 'ada@north.test', '--json'], extra);
    assert.equal(result.code, 0, result.stderr);
    return { url: JSON.parse(result.stdout).url as string, stderr: result.stderr };
  };

  before(async () => {
    database = await freshDatabaseUrl('sqlite');
    const { SMTP_URL: _smtp, MAIL_FROM: _from, PUBLIC_URL: _public, PORT: _port, ...rest } = process.env;
    env = { ...rest, DATABASE_URL: database.url, API_SECRET_PEPPER: 'test-pepper' };
    assert.equal((await foyer(['org', 'create', '--name', 'North Clinic', '--type', 'medical', '--json'])).code, 0);
    const added = await foyer(['user', 'add', '--org', 'north-clinic', '--email', 'ada@north.test', '--name', 'Ada Lind', '--role', 'ADMIN', '--json']);
    assert.equal(added.code, 0, added.stderr);
    assert.equal(added.stderr, '', 'commands that make no link say nothing about it');
  });
  after(async () => {
    await server?.close();
    await store?.close();
    await database.dispose();
  });

  it('says which address it used while no server has started on the database', async () => {
    const printed = await invite();
    assert.match(printed.url, /^http:\/\/localhost:3000\/dashboard\/password\//);
    assert.match(printed.stderr, /no Foyer server has started on this database yet/);
  });

  it('uses the PUBLIC_URL the server started with, from a shell without one and from a shell with another', async () => {
    store = await openStore(database.url, { migrate: true });
    server = await startServer(store, { publicUrl: SERVER_URL });

    const bare = await invite();
    assert.ok(bare.url.startsWith(`${SERVER_URL}/dashboard/password/`), bare.url);
    assert.equal(bare.stderr, '');

    const elsewhere = await invite({ PUBLIC_URL: 'http://localhost:4000' });
    assert.ok(elsewhere.url.startsWith(`${SERVER_URL}/dashboard/password/`), elsewhere.url);
    assert.match(elsewhere.stderr, /links use the server's PUBLIC_URL https:\/\/meet\.north\.test .*not this shell's http:\/\/localhost:4000/);

    // The link works where it leads: the server knows the token.
    const token = elsewhere.url.split('/').at(-1)!;
    const page = await fetch(`${server.origin}/dashboard/password/${token}`);
    assert.equal(page.status, 200);
  });
});

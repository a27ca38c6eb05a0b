/**
 * `npm start` as an operator runs it: `bin/foyer-server.js` (src/main.ts) in a child process on a
 * fresh database (SQLite file, PostgreSQL database), applying migrations,
 * serving the API on a loopback port and closing cleanly on SIGTERM; and a
 * bad setting refused with a clear message and exit code 1.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freshDatabaseUrl, testDatabases } from '../support/databases.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Run {
  output(): string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

function start(env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['bin/foyer-server.js'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { output: () => output, exited, kill: (signal) => child.kill(signal) };
}

async function listeningOn(run: Run, timeoutMs = 120_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = /Foyer listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output());
    if (match) return match[1]!;
    if (Date.now() > deadline) {
      run.kill('SIGKILL');
      throw new Error(`no "listening" line within ${timeoutMs} ms:\n${run.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const storage of await testDatabases()) {
  describe(`npm start on ${storage.name}`, { skip: storage.skip }, () => {
    it('applies migrations, serves the API and exits 0 on SIGTERM', async () => {
      const db = await freshDatabaseUrl(storage.name);
      const run = start({ DATABASE_URL: db.url, PUBLIC_URL: 'http://meet.example.test' });
      try {
        const origin = await listeningOn(run);
        assert.match(run.output(), /Applied migration 001_initial/);
        assert.match(run.output(), /\(API at http:\/\/meet\.example\.test\/api\)/);
        // One line names the SFU: this machine's janus when installed (started, and ended on SIGTERM), else none.
        assert.match(run.output(), /^SFU: (local Janus \(\/.*janus\), media on UDP 20000-20999|none \(no janus command on this machine\)); /m);
        assert.equal((await fetch(`${origin}/health`)).status, 200);
        const anonymous = await fetch(`${origin}/api/v3/organizations`);
        assert.equal(anonymous.status, 401);
        assert.match(anonymous.headers.get('content-type') ?? '', /application\/problem\+json/);
        run.kill('SIGTERM');
        assert.equal(await run.exited, 0, run.output());
      } finally {
        run.kill('SIGKILL');
        await run.exited;
        await db.dispose();
      }
    });
  });
}

describe('npm start without an SFU', () => {
  it('says in one line that meetings stay peer-to-peer', async () => {
    const db = await freshDatabaseUrl('sqlite');
    const run = start({ DATABASE_URL: db.url, JANUS_BIN: 'none' });
    try {
      await listeningOn(run);
      assert.match(run.output(), /^SFU: none \(JANUS_BIN=none\); every meeting stays peer-to-peer \(mesh\)/m);
      run.kill('SIGTERM');
      assert.equal(await run.exited, 0, run.output());
    } finally {
      run.kill('SIGKILL');
      await run.exited;
      await db.dispose();
    }
  });
});

describe('npm start with bad settings', () => {
  it('refuses an invalid PORT with a clear message and exit code 1', async () => {
    const run = start({ PORT: 'eighty', DATABASE_URL: 'sqlite::memory:' });
    assert.equal(await run.exited, 1);
    assert.match(run.output(), /PORT must be a whole number/);
  });

  it('refuses an invalid HOST with a clear message and exit code 1', async () => {
    const run = start({ HOST: 'not a host!', DATABASE_URL: 'sqlite::memory:' });
    assert.equal(await run.exited, 1);
    assert.match(run.output(), /HOST must be an address/);
  });

  it('says in one line, without a stack trace, that its port is taken', async () => {
    const first = start({ DATABASE_URL: 'sqlite::memory:' });
    try {
      const port = new URL(await listeningOn(first)).port;
      const second = start({ DATABASE_URL: 'sqlite::memory:', PORT: port });
      assert.equal(await second.exited, 1);
      assert.match(second.output(), new RegExp(`foyer: cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`));
      assert.doesNotMatch(second.output(), /\n\s+at /, 'no stack trace');
    } finally {
      first.kill('SIGKILL');
      await first.exited;
    }
  });

  it('warns at start when API_SECRET_PEPPER is unset, and not when it is set', async () => {
    for (const [pepper, warned] of [[undefined, true], ['a-long-random-pepper', false]] as const) {
      const run = start({ DATABASE_URL: 'sqlite::memory:', ...(pepper ? { API_SECRET_PEPPER: pepper } : { API_SECRET_PEPPER: '' }) });
      try {
        await listeningOn(run);
        assert.equal(/API_SECRET_PEPPER is not set/.test(run.output()), warned, run.output());
      } finally {
        run.kill('SIGKILL');
        await run.exited;
      }
    }
  });

  it('keeps serving while draining after SIGTERM, with /ready at 503, then exits 0', async () => {
    const run = start({ DATABASE_URL: 'sqlite::memory:', SHUTDOWN_DRAIN_SECONDS: '2' });
    try {
      const origin = await listeningOn(run);
      assert.equal((await fetch(`${origin}/ready`)).status, 200);
      run.kill('SIGTERM');
      const deadline = Date.now() + 10_000;
      while (!/SIGTERM received/.test(run.output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal((await fetch(`${origin}/ready`)).status, 503);
      assert.equal((await fetch(`${origin}/health`)).status, 200, 'still serving while draining');
      assert.equal(await run.exited, 0, run.output());
    } finally {
      run.kill('SIGKILL');
      await run.exited;
    }
  });

  it('refuses an unsupported DATABASE_URL without echoing it', async () => {
    const run = start({ DATABASE_URL: 'mysql://user:hunter2@db/foyer' });
    assert.equal(await run.exited, 1);
    assert.match(run.output(), /DATABASE_URL/);
    assert.ok(!run.output().includes('hunter2'), run.output());
  });
});

describe('npm start logs', () => {
  const logOf = async (env: Record<string, string>) => {
    const run = start({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'info', ...env });
    try {
      const origin = await listeningOn(run);
      assert.equal((await fetch(`${origin}/health`)).status, 200);
      run.kill('SIGTERM');
      assert.equal(await run.exited, 0, run.output());
      return run.output();
    } finally {
      run.kill('SIGKILL');
      await run.exited;
    }
  };

  it('writes one JSON object per line when its output is not a terminal', async () => {
    const entries = (await logOf({})).split('\n').filter((line) => line.startsWith('{'));
    const completed = entries.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request completed');
    assert.equal(completed?.res?.statusCode, 200);
  });

  it('writes readable lines, not JSON, under LOG_FORMAT=pretty', async () => {
    const output = await logOf({ LOG_FORMAT: 'pretty' });
    assert.match(output, /INFO.*request completed/);
    assert.doesNotMatch(output, /^\{"level"/m);
  });

  it('refuses an unknown LOG_FORMAT with a clear message', async () => {
    const run = start({ DATABASE_URL: 'sqlite::memory:', LOG_FORMAT: 'fancy' });
    assert.equal(await run.exited, 1);
    assert.match(run.output(), /LOG_FORMAT must be auto, json or pretty/);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.databaseUrl, 'sqlite:./data/foyer.db');
    assert.equal(config.publicUrl, 'http://localhost:3000');
    assert.equal(config.apiPrefix, '/api');
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.idleCloseSeconds, 900);
    assert.equal(config.rateLimitPerMinute, 1000);
    assert.deepEqual(config.http, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 75_000 });
    assert.equal(config.wsConnectionsPerAddress, 100);
  });

  it('reads the HTTP timeouts in seconds, and refuses a headers timeout beyond the request timeout', () => {
    const env = { HTTP_HEADERS_TIMEOUT_SECONDS: '5', HTTP_REQUEST_TIMEOUT_SECONDS: '20', HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '65' };
    assert.deepEqual(loadConfig(env).http, { headersTimeoutMs: 5000, requestTimeoutMs: 20_000, keepAliveTimeoutMs: 65_000 });
    assert.throws(
      () => loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '40' }),
      (e: unknown) => e instanceof ConfigError && e.message.startsWith('HTTP_HEADERS_TIMEOUT_SECONDS'),
    );
    assert.equal(loadConfig({ WS_CONNECTIONS_PER_ADDRESS: '0' }).wsConnectionsPerAddress, 0, '0: no cap');
  });

  it('derives PUBLIC_URL from PORT and strips trailing slashes', () => {
    assert.equal(loadConfig({ PORT: '8080' }).publicUrl, 'http://localhost:8080');
    assert.equal(loadConfig({ PUBLIC_URL: 'https://meet.example.org/' }).publicUrl, 'https://meet.example.org');
  });

  it('refuses invalid values with a message naming the variable', () => {
    const cases: Record<string, string>[] = [
      { PORT: 'eighty' },
      { PORT: '70000' },
      { DATABASE_URL: 'mysql://x' },
      { PUBLIC_URL: 'not a url' },
      { PUBLIC_URL: 'ftp://x.org' },
      { API_PREFIX: 'api with space' },
      { REDIS_URL: 'http://127.0.0.1' },
      { IDLE_CLOSE_SECONDS: '0' },
      { RATE_LIMIT_PER_MINUTE: '-5' },
      { LOG_LEVEL: 'loud' },
      { HTTP_HEADERS_TIMEOUT_SECONDS: '0' },
      { HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: 'long' },
      { WS_CONNECTIONS_PER_ADDRESS: '-1' },
    ];
    for (const env of cases) {
      const name = Object.keys(env)[0]!;
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && e.message.startsWith(name), name);
    }
  });

  it('reads mail settings only as a pair, and never echoes the SMTP password', () => {
    assert.equal(loadConfig({}).mail, undefined);
    assert.deepEqual(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.org:465', MAIL_FROM: 'Foyer <foyer@example.org>' }).mail, {
      smtpUrl: 'smtps://u:p@mail.example.org:465',
      from: 'Foyer <foyer@example.org>',
    });
    for (const env of [{ SMTP_URL: 'smtp://mail.example.org' }, { MAIL_FROM: 'foyer@example.org' }, { SMTP_URL: 'http://mail.example.org', MAIL_FROM: 'f@x.org' }, { SMTP_URL: 'smtp://mail.example.org', MAIL_FROM: 'not an address' }]) {
      assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
    }
    assert.throws(
      () => loadConfig({ SMTP_URL: 'smtps://u:hunter2@[bad', MAIL_FROM: 'f@x.org' }),
      (e: unknown) => e instanceof ConfigError && !e.message.includes('hunter2'),
    );
  });

  it('takes an SSO_SECRET_KEY of at least 32 characters', () => {
    assert.equal(loadConfig({}).ssoSecretKey, undefined);
    assert.equal(loadConfig({ SSO_SECRET_KEY: 'k'.repeat(32) }).ssoSecretKey, 'k'.repeat(32));
    assert.throws(() => loadConfig({ SSO_SECRET_KEY: 'short' }), (e: unknown) => e instanceof ConfigError && e.message.startsWith('SSO_SECRET_KEY'));
  });

  it('never echoes database credentials in its message', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'mysql://admin:hunter2@db/x' }),
      (e: unknown) => e instanceof ConfigError && !e.message.includes('hunter2'),
    );
  });
});

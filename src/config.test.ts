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
    ];
    for (const env of cases) {
      const name = Object.keys(env)[0]!;
      assert.throws(() => loadConfig(env), (e: unknown) => e instanceof ConfigError && e.message.startsWith(name), name);
    }
  });

  it('never echoes database credentials in its message', () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: 'mysql://admin:hunter2@db/x' }),
      (e: unknown) => e instanceof ConfigError && !e.message.includes('hunter2'),
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { createLogger, requestForLog } from './logger.ts';

describe('a request as the log shows it', () => {
  it('never carries a member’s pass, wherever it stands in the query', () => {
    for (const url of ['/meetings/m1?pass=SECRETPASS', '/meetings/m1?lang=de&pass=SECRETPASS&embed=true']) {
      const logged = requestForLog({ method: 'GET', url }).url!;
      assert.doesNotMatch(logged, /SECRETPASS/);
      assert.match(logged, /pass=\[redacted\]/);
    }
    assert.equal(requestForLog({ url: '/meetings/m1?lang=de&bypass=1' }).url, '/meetings/m1?lang=de&bypass=1');
  });

  it('keeps a password link’s token and a sign-in callback’s code out too', () => {
    assert.equal(requestForLog({ url: '/dashboard/password/TOKEN123' }).url, '/dashboard/password/[redacted]');
    assert.equal(requestForLog({ url: '/dashboard/sso/callback?code=abc&state=x' }).url, '/dashboard/sso/callback?[redacted]');
  });
});

describe('the logger', () => {
  it('redacts a resume token, on its own or inside a logged message', () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const log = createLogger({ logLevel: 'info' }, { stream });
    log.info({ resume: 'SECRETTOKEN1' }, 'one');
    log.info({ message: { type: 'join', resume: 'SECRETTOKEN2' } }, 'two');
    assert.equal(lines.length, 2);
    for (const line of lines) {
      assert.doesNotMatch(line, /SECRETTOKEN/);
      assert.match(line, /"resume":"\[redacted\]"/);
    }
  });
});

/**
 * The rules of single sign-on that need no provider: which issuers the
 * operator may configure, and the sealing of client secrets.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { seal, unseal } from '../../src/domain/sealing.ts';
import { issuerProblem } from '../../src/domain/sso.ts';

describe('single sign-on issuers', () => {
  it('accepts https anywhere and http only on a loopback address', () => {
    for (const ok of ['https://login.example.org/realms/clinic', 'https://accounts.google.com', 'http://127.0.0.1:8080', 'http://localhost:9000/idp', 'http://[::1]:4000']) {
      assert.equal(issuerProblem(ok), undefined, ok);
    }
    for (const refused of ['http://login.example.org', 'http://10.0.0.5', 'ftp://example.org', 'not a url', 'https://user:pw@example.org', 'https://example.org/?x=1']) {
      assert.ok(issuerProblem(refused), refused);
    }
  });
});

describe('sealing', () => {
  it('opens only with the same key, purpose and context, and not once altered', () => {
    const sealed = seal('key one', 'sso-client-secret', 'org-1', 's3cret');
    assert.ok(!sealed.includes('s3cret'));
    assert.equal(unseal('key one', 'sso-client-secret', 'org-1', sealed), 's3cret');
    assert.equal(unseal('key two', 'sso-client-secret', 'org-1', sealed), undefined);
    assert.equal(unseal('key one', 'sso-flow', 'org-1', sealed), undefined);
    assert.equal(unseal('key one', 'sso-client-secret', 'org-2', sealed), undefined);
    // One bit of the sealed bytes (editing its text may touch only a base64 character's unused bits).
    const [version, nonce, box] = sealed.split('.');
    const bytes = Buffer.from(box!, 'base64url');
    bytes[0]! ^= 1;
    const flipped = [version, nonce, bytes.toString('base64url')].join('.');
    assert.equal(unseal('key one', 'sso-client-secret', 'org-1', flipped), undefined);
    assert.equal(unseal('key one', 'sso-client-secret', 'org-1', 'garbage'), undefined);
  });
});

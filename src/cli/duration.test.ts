import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expiryFrom, parseDuration } from './duration.ts';
import { UsageError } from './output.ts';

describe('key expiry options', () => {
  const now = new Date('2026-01-01T00:00:00Z');

  it('parses durations in seconds to weeks', () => {
    assert.equal(parseDuration('45s'), 45_000);
    assert.equal(parseDuration('90m'), 5_400_000);
    assert.equal(parseDuration('12h'), 43_200_000);
    assert.equal(parseDuration('30d'), 2_592_000_000);
    assert.equal(parseDuration('2w'), 1_209_600_000);
  });

  it('refuses durations without a unit or of zero', () => {
    for (const bad of ['30', '0d', 'd', '1y', '-3d']) assert.throws(() => parseDuration(bad), UsageError, bad);
  });

  it('defaults to no expiry and refuses two choices at once', () => {
    assert.equal(expiryFrom({}, now), null);
    assert.equal(expiryFrom({ expiry: false }, now), null);
    assert.equal(expiryFrom({ expiresIn: '1d' }, now)?.toISOString(), '2026-01-02T00:00:00.000Z');
    assert.equal(expiryFrom({ expiresAt: '2027-05-01T10:00:00Z' }, now)?.toISOString(), '2027-05-01T10:00:00.000Z');
    assert.throws(() => expiryFrom({ expiresIn: '1d', expiresAt: '2027-01-01' }, now), UsageError);
    assert.throws(() => expiryFrom({ expiresAt: 'tomorrow' }, now), UsageError);
  });
});

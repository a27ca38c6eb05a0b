/**
 * @module store/contract/service-settings
 * The storage contract: settings of the service as a whole, by name; a
 * write replaces the earlier value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContractEnv } from './fixtures.ts';

export function serviceSettingsContract(env: ContractEnv): void {
  describe('service settings', () => {
    it('reads nothing for a name never written, then the last value written', async () => {
      assert.equal(await env.store.readServiceSetting('public_url'), undefined);
      await env.store.writeServiceSetting('public_url', 'https://a.example', new Date(1_000));
      await env.store.writeServiceSetting('public_url', 'https://b.example', new Date(2_000));
      assert.equal(await env.store.readServiceSetting('public_url'), 'https://b.example');
      assert.equal(await env.store.readServiceSetting('other'), undefined);
    });
  });
}

/**
 * @module store/store.contract
 * The behaviour every `Store` must have, as one node:test suite that takes
 * a store factory. `store.test.ts` runs it against SQLite and PostgreSQL;
 * a new storage passes this before it is used. Its parts, by aggregate,
 * are in contract/.
 */
import { afterEach, beforeEach } from 'node:test';
import type { StoreConnection } from '../domain/ports/store.ts';
import { organizationChangesContract } from './contract/organization-changes.ts';
import { organizationsContract } from './contract/organizations.ts';
import type { OpenedStore } from './contract/fixtures.ts';
import { listsContract } from './contract/lists.ts';
import { hostingContract } from './contract/hosting.ts';
import { placementsContract } from './contract/placements.ts';
import { placesContract } from './contract/places.ts';
import { serviceSettingsContract } from './contract/service-settings.ts';
import { spacesContract } from './contract/spaces.ts';
import { ssoContract } from './contract/sso.ts';
import { transactionsContract } from './contract/transactions.ts';
import { usageContract } from './contract/usage.ts';
import { webhooksContract } from './contract/webhooks.ts';

export type { OpenedStore };

export function storeContract(open: () => Promise<OpenedStore>): void {
  let opened: OpenedStore;
  const env = {
    get store(): StoreConnection {
      return opened.store;
    },
  };

  beforeEach(async () => {
    opened = await open();
  });
  afterEach(async () => {
    await opened.dispose();
  });

  organizationsContract(env);
  placesContract(env);
  listsContract(env);
  spacesContract(env);
  transactionsContract(env);
  usageContract(env);
  ssoContract(env);
  hostingContract(env);
  webhooksContract(env);
  organizationChangesContract(env);
  placementsContract(env);
  serviceSettingsContract(env);
}

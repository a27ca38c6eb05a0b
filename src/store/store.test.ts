/**
 * @module store/store.test
 * Runs the storage contract against every dialect: SQLite in memory and a
 * fresh PostgreSQL database per test (skipped with a reason when no server
 * is reachable, except under CI=true; see test/support/databases.ts).
 */
import { describe } from 'node:test';
import { testDatabases } from '../../test/support/databases.ts';
import { storeContract } from './store.contract.ts';

for (const database of await testDatabases()) {
  describe(`store contract on ${database.name}`, { skip: database.skip }, () => {
    storeContract(() => database.open());
  });
}

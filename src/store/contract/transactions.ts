/**
 * @module store/contract/transactions
 * The storage contract: transactions and error translation.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, it } from 'node:test';
import type { StoreConnection } from '../../domain/ports/store.ts';
import { DomainError } from '../../domain/errors.ts';
import { assertConflict, org, room, seed, user, type ContractEnv } from './fixtures.ts';

export function transactionsContract(env: ContractEnv): void {
  let store: StoreConnection;
  beforeEach(() => {
    store = env.store;
  });

  describe('transactions', () => {
    it('commits every write of a transaction together', async () => {
      const o = org();
      const ann = user(o.id);
      await store.transaction(async (tx) => {
        await tx.insertOrganization(o);
        await tx.insertUser(ann);
      });
      assert.deepEqual(await store.findUserByEmail(o.id, ann.email), ann);
    });

    it('undoes every write of a transaction that fails, also a nested one, and passes the error on', async () => {
      const o = org();
      const failure = new Error('stop here');
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.insertOrganization(o);
          await tx.transaction(async (inner) => inner.insertUser(user(o.id)));
          await tx.insertRoom(room(o.id));
          throw failure;
        }),
        (error: unknown) => error === failure,
      );
      assert.equal(await store.findOrganization(o.id), undefined);
      assert.deepEqual(await store.listUsers(o.id), []);
    });

    it('undoes a transaction whose write conflicts, reporting the conflict', async () => {
      const { o } = await seed(store);
      const r = room(o.id);
      await store.insertRoom(r);
      const other = org();
      await assertConflict(
        store.transaction(async (tx) => {
          await tx.insertOrganization(other);
          await tx.insertRoom(room(other.id, { slug: r.slug }));
        }),
        'slug',
      );
      assert.equal(await store.findOrganization(other.id), undefined);
    });
  });

  describe('errors', () => {
    it('reports conflicts as domain errors with the conflict code', async () => {
      const o = org();
      await store.insertOrganization(o);
      await assert.rejects(store.insertOrganization({ ...o, slug: `${o.slug}-2` }), (error: unknown) => {
        assert.ok(error instanceof DomainError);
        assert.equal(error.code, 'conflict');
        assert.deepEqual(error.fieldErrors.map((f) => f.field), ['id']);
        return true;
      });
    });
  });
}

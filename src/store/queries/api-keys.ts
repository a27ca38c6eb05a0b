/**
 * @module store/queries/api-keys
 * API key pairs: the public key and the keyed hash of the secret.
 */
import type { ApiKeyStore } from '../../domain/key-ports.ts';
import { apiKeyToRow, rowToApiKey, toMillis } from '../mappers.ts';
import { atomically, translated, type Db, type QueryContext } from './db.ts';

export const apiKeyQueries: ApiKeyStore & ThisType<QueryContext> = {
  async insertApiKey(key) {
    await translated(this.translate, () => this.db.insertInto('api_keys').values(apiKeyToRow(key)).execute());
  },

  async findApiKey(publicKey) {
    const row = await this.db.selectFrom('api_keys').selectAll().where('public_key', '=', publicKey).executeTakeFirst();
    return row && rowToApiKey(row);
  },

  async findApiKeyById(organizationId, id) {
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return row && rowToApiKey(row);
  },

  async listApiKeys(organizationId) {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('public_key')
      .execute();
    return rows.map(rowToApiKey);
  },

  async revokeApiKey(organizationId, publicKey, at) {
    return translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        // `revoked_at is null` keeps the first revocation time.
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: toMillis(at) })
          .where('public_key', '=', publicKey)
          .where('organization_id', '=', organizationId)
          .where('revoked_at', 'is', null)
          .execute();
        const row = await trx
          .selectFrom('api_keys')
          .selectAll()
          .where('public_key', '=', publicKey)
          .where('organization_id', '=', organizationId)
          .executeTakeFirst();
        return row && rowToApiKey(row);
      }),
    );
  },
};

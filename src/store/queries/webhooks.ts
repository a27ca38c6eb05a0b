/**
 * @module store/queries/webhooks
 * Webhook endpoints and the outbox of their deliveries. Claiming is one
 * conditional update per row (`status = 'pending'` and no live lease), so
 * of several workers, on PostgreSQL or SQLite, exactly one gets a row; an
 * attempt's outcome is written only by the holder of the lease.
 */
import { sql } from 'kysely';
import type { WebhookStore } from '../../domain/webhooks/ports.ts';
import { toInt, toMillis, toMillisOrNull } from '../mappers.ts';
import type { WebhookEndpointsTable } from '../schema.ts';
import { deliveryToRow, endpointToRow, rowToDelivery, rowToEndpoint, secretsToJson } from '../webhook-mappers.ts';
import { atomically, translated, type QueryContext } from './db.ts';

export const webhookQueries: WebhookStore & ThisType<QueryContext> = {
  async insertWebhookEndpoint(endpoint) {
    await translated(this.translate, () => this.db.insertInto('webhook_endpoints').values(endpointToRow(endpoint)).execute());
  },

  async findWebhookEndpoint(organizationId, id) {
    const row = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return row && rowToEndpoint(row);
  },

  async listWebhookEndpoints(organizationId) {
    const rows = await this.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(rowToEndpoint);
  },

  async updateWebhookEndpoint(organizationId, id, patch, at) {
    const set: Partial<WebhookEndpointsTable> = { updated_at: toMillis(at) };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.events !== undefined) set.events = JSON.stringify(patch.events);
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.enabled !== undefined) set.enabled = toInt(patch.enabled);
    if (patch.disabledReason !== undefined) set.disabled_reason = patch.disabledReason;
    if (patch.secrets !== undefined) set.secrets = secretsToJson(patch.secrets);
    // Enabling again starts a fresh run: earlier failures do not count towards disabling.
    if (patch.enabled === true) set.failing_since = null;
    const row = await translated(this.translate, () =>
      this.db
        .updateTable('webhook_endpoints')
        .set(set)
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .returningAll()
        .executeTakeFirst(),
    );
    return row && rowToEndpoint(row);
  },

  async deleteWebhookEndpoint(organizationId, id) {
    return translated(this.translate, () =>
      atomically(this.db, async (trx) => {
        const row = await trx
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('id', '=', id)
          .where('organization_id', '=', organizationId)
          .executeTakeFirst();
        if (!row) return undefined;
        await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
        await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
        return rowToEndpoint(row);
      }),
    );
  },

  async insertWebhookDeliveries(deliveries) {
    if (deliveries.length === 0) return;
    await translated(this.translate, () => this.db.insertInto('webhook_deliveries').values(deliveries.map(deliveryToRow)).execute());
  },

  async claimWebhookDeliveries({ now, leaseUntil, leaseToken, limit }) {
    const at = toMillis(now);
    const candidates = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(['d.seq', 'd.id'])
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<=', at)]))
      .where('e.enabled', '=', 1)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as p')
              .select(sql<number>`1`.as('one'))
              .whereRef('p.endpoint_id', '=', 'd.endpoint_id')
              .whereRef('p.ordering_key', '=', 'd.ordering_key')
              .where('p.status', '=', 'pending')
              .whereRef('p.seq', '<', 'd.seq'),
          ),
        ),
      )
      .orderBy('d.seq')
      .limit(limit)
      .execute();
    if (candidates.length === 0) return [];
    // One conditional update for the batch: a row another worker leased since the select is left out.
    const claimed = await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_token: leaseToken, lease_until: toMillis(leaseUntil) })
      .where('seq', 'in', candidates.map((c) => c.seq))
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
      .returningAll()
      .execute();
    claimed.sort((a, b) => Number(a.seq) - Number(b.seq));
    if (claimed.length === 0) return [];
    const endpointIds = [...new Set(claimed.map((r) => r.endpoint_id))];
    const endpoints = await this.db.selectFrom('webhook_endpoints').selectAll().where('id', 'in', endpointIds).execute();
    const byId = new Map(endpoints.map((e) => [e.id, rowToEndpoint(e)]));
    return claimed.flatMap((row) => {
      const endpoint = byId.get(row.endpoint_id);
      return endpoint ? [{ delivery: rowToDelivery(row), endpoint }] : [];
    });
  },

  async finishWebhookDelivery(id, leaseToken, outcome) {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: outcome.status,
        attempts: outcome.attempts,
        next_attempt_at: toMillis(outcome.nextAttemptAt),
        last_status: outcome.lastStatus,
        last_error: outcome.lastError,
        last_latency_ms: Math.round(outcome.lastLatencyMs),
        last_attempt_at: toMillis(outcome.lastAttemptAt),
        delivered_at: toMillisOrNull(outcome.deliveredAt),
        lease_token: null,
        lease_until: null,
      })
      .where('id', '=', id)
      .where('lease_token', '=', leaseToken)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async recordEndpointHealth(endpointId, healthy, at) {
    const row = await this.db
      .updateTable('webhook_endpoints')
      .set(healthy ? { failing_since: null } : { failing_since: sql<number>`coalesce(failing_since, ${toMillis(at)})` })
      .where('id', '=', endpointId)
      .returningAll()
      .executeTakeFirst();
    return row && rowToEndpoint(row);
  },

  async listWebhookDeliveries(organizationId, endpointId, limit) {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('endpoint_id', '=', endpointId)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map(rowToDelivery);
  },

  async resendWebhookDelivery(organizationId, id, at) {
    const row = await this.db
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', attempts: 0, next_attempt_at: toMillis(at), delivered_at: null, lease_token: null, lease_until: null })
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .returningAll()
      .executeTakeFirst();
    return row && rowToDelivery(row);
  },

  async pruneWebhookDeliveries(before) {
    const result = await this.db
      .deleteFrom('webhook_deliveries')
      .where('status', 'in', ['delivered', 'failed'])
      .where('created_at', '<', toMillis(before))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};

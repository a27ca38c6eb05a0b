/**
 * @module store/migrations/013_webhooks
 * Signed webhooks:
 * - `webhook_endpoints`: an organization's receivers; `events` is a JSON
 *   list of event types, `secrets` a JSON list of sealed signing secrets
 *   (encrypted, see domain/webhooks/secrets.ts) with their end of validity,
 *   so a rotated secret keeps signing during its overlap;
 * - `webhook_deliveries`: the outbox and the delivery log in one table.
 *   A row is written, in the transaction of the change that caused it, for
 *   each endpoint that wants the event; workers claim due rows with a
 *   lease, and the row keeps the outcome (attempts, last response code,
 *   latency). `seq` orders events per `ordering_key` (a meeting, session or
 *   board): a row is not sent while an earlier one of its key is pending;
 * - `meetings.started_at`: when the first participant entered, set once,
 *   so `meeting.started` is raised exactly once.
 */
import { PostgresAdapter, type Kysely, type Migration } from 'kysely';

export const webhooks: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('events', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('disabled_reason', 'text')
      .addColumn('secrets', 'text', (c) => c.notNull())
      .addColumn('failing_since', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('webhook_endpoints_pkey', ['id'])
      .addForeignKeyConstraint('webhook_endpoints_organization_fkey', ['organization_id'], 'organizations', ['id'], (fk) => fk.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('webhook_endpoints_organization_idx').on('webhook_endpoints').columns(['organization_id', 'created_at']).execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) => (postgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('organization_id', 'text', (c) => c.notNull())
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('event_type', 'text', (c) => c.notNull())
      .addColumn('ordering_key', 'text')
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('lease_token', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('last_latency_ms', 'integer')
      .addColumn('last_attempt_at', 'bigint')
      .addColumn('delivered_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addForeignKeyConstraint('webhook_deliveries_endpoint_fkey', ['endpoint_id'], 'webhook_endpoints', ['id'], (fk) => fk.onDelete('cascade'))
      .execute();
    await db.schema.createIndex('webhook_deliveries_due_idx').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_order_idx').on('webhook_deliveries').columns(['endpoint_id', 'ordering_key', 'status', 'seq']).execute();
    await db.schema.createIndex('webhook_deliveries_log_idx').on('webhook_deliveries').columns(['endpoint_id', 'seq']).execute();

    await db.schema.alterTable('meetings').addColumn('started_at', 'bigint').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('meetings').dropColumn('started_at').execute();
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('webhook_endpoints').execute();
  },
};

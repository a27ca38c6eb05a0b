/**
 * @module context
 * The composition root of the domain: one `createContext` that `npm start`,
 * the `foyer` CLI, the bench and the tests all use, so the domain context
 * is assembled in exactly one place. It opens the database named by the
 * configuration (or takes a store the caller already has) and creates the
 * event publisher that the realtime side, caches and webhooks listen to.
 */
import type { Config } from './config.ts';
import type { DomainContext, Mailer } from './domain/context.ts';
import { EventPublisher, type DomainEvent } from './domain/events.ts';
import { DEFAULT_PASSWORD_COST } from './domain/passwords.ts';
import type { Store, StoreConnection } from './domain/ports/store.ts';
import { openStore } from './store/open.ts';
import { recordWebhooksOf } from './domain/webhooks/outbox.ts';

export type ContextConfig = Pick<Config, 'databaseUrl' | 'publicUrl' | 'idleCloseSeconds' | 'secretPepper'> &
  Partial<Pick<Config, 'sessionIdleMinutes' | 'sessionMaxHours' | 'passwordHashCost' | 'waitingGraceSeconds' | 'waitingLeaseSeconds' | 'waitingPerAddress' | 'waitingPerList' | 'slugReservationDays' | 'ssoSecretKey' | 'webhookAllowPrivate'>>;

export interface ContextOptions {
  /** A store the caller opened and will close; otherwise DATABASE_URL is opened (and closed by `close`). */
  store?: Store;
  /** Apply pending migrations when opening DATABASE_URL. */
  migrate?: boolean;
  now?: () => Date;
  /** Sends members their links by mail; none when no mail server is configured. */
  mailer?: Mailer;
  /** Hears what a post-commit event listener threw. */
  onListenerError?: (error: unknown, event: DomainEvent) => void;
}

export interface FoyerContext extends DomainContext {
  /** Closes the database if this context opened it. */
  close(): Promise<void>;
}

/** `foyer migrate`: applies the pending migrations of DATABASE_URL; returns their names. */
export async function migrateDatabase(databaseUrl: string): Promise<string[]> {
  const store = await openStore(databaseUrl);
  try {
    return await store.migrate();
  } finally {
    await store.close();
  }
}

export async function createContext(config: ContextConfig, options: ContextOptions = {}): Promise<FoyerContext> {
  let owned: StoreConnection | undefined;
  let store = options.store;
  if (!store) {
    owned = await openStore(config.databaseUrl, { migrate: options.migrate ?? false });
    store = owned;
  }
  const events = new EventPublisher(options.onListenerError);
  // Every command's webhook messages are written in its own transaction, whoever runs it (server, CLI, tests).
  recordWebhooksOf(events);
  return {
    store,
    now: options.now ?? (() => new Date()),
    publicUrl: config.publicUrl,
    idleCloseSeconds: config.idleCloseSeconds,
    secretPepper: config.secretPepper,
    members: {
      sessionIdleMinutes: config.sessionIdleMinutes ?? 60,
      sessionMaxHours: config.sessionMaxHours ?? 12,
      passwordHashCost: config.passwordHashCost ?? DEFAULT_PASSWORD_COST,
    },
    waiting: {
      graceSeconds: config.waitingGraceSeconds ?? 60,
      leaseSeconds: config.waitingLeaseSeconds ?? 30,
      perAddress: config.waitingPerAddress ?? 20,
      perList: config.waitingPerList ?? 1000,
    },
    slugReservationDays: config.slugReservationDays,
    mailer: options.mailer,
    ssoSecretKey: config.ssoSecretKey,
    webhooks: { allowPrivate: config.webhookAllowPrivate ?? false },
    events,
    close: async () => {
      await owned?.close();
    },
  };
}

/**
 * @module domain/context
 * What a domain command needs from the outside world, passed in explicitly
 * so tests can fix the clock and the composition root (src/context.ts)
 * can choose the storage; and the unit of work that lets a command's
 * writes, and the events they raise, commit together.
 */
import type { DomainEvent, EventPublisher } from './events.ts';
import type { Store } from './ports/store.ts';
import type { Transactional } from './ports/transactional.ts';

/**
 * `S` is the storage a command may touch: one aggregate's port, or
 * several joined (`DomainContext<MeetingPorts & MemberPorts>`). A
 * context with more storage serves a command that needs less. The whole
 * `Store` is the default only for the composition root and the edges,
 * which hold everything: a domain command always names its ports
 * (scripts/commands-name-ports.mjs checks).
 */
export interface DomainContext<S extends Transactional = Store> {
  store: S;
  /** The clock; injectable so lifecycle rules can be tested without waiting. */
  now(): Date;
  /** The spec's `{redirect_host}`, without a trailing slash. */
  publicUrl: string;
  /** The spec's 15 minutes: how long an unattended meeting stays open. */
  idleCloseSeconds: number;
  /** Key for the API-secret hash (see keys.ts). */
  secretPepper: string;
  /** Signing members in: how long sessions last, how costly password hashes are. */
  members: MemberSettings;
  /** Waiting lists: how long a client keeps their place while away, how long a reservation lasts. */
  waiting: WaitingSettings;
  /** How long a slug given up stays reserved to its organization (SLUG_RESERVATION_DAYS; domain/slugs.ts has the default). */
  slugReservationDays?: number | undefined;
  /** Key that seals single sign-on client secrets (SSO_SECRET_KEY); without it there is no single sign-on. */
  ssoSecretKey?: string | undefined;
  /** Sends mail to members (invitation and reset links); absent when no mail server is configured. */
  mailer?: Mailer | undefined;
  /** Webhooks: whether endpoints may point to private and loopback addresses (and use http). */
  webhooks?: { allowPrivate: boolean } | undefined;
  /** Where raised events go once their transaction commits. */
  events: EventPublisher;
  /** Set inside `transact`: the running unit of work. */
  unitOfWork?: UnitOfWork | undefined;
}

export interface MemberSettings {
  /** A session without a request for this long ends. */
  sessionIdleMinutes: number;
  /** A session ends this long after sign-in, whatever the activity. */
  sessionMaxHours: number;
  /** log2 of scrypt's N for new password hashes (see passwords.ts). */
  passwordHashCost: number;
}

export interface WaitingSettings {
  /** A client who reloads or loses the network keeps their place this long (and so does a member in a call). */
  graceSeconds: number;
  /** A member who accepted a client must join the call within this time, or the client returns to the front. */
  leaseSeconds: number;
  /** Places one client address may hold in one line at once; 0: no cap. */
  perAddress: number;
  /** Places one line holds at most; 0: no cap. */
  perList: number;
}

/** A mail to a member: what it is about; the adapter writes the words. */
export interface MemberMail {
  to: string;
  kind: 'invite' | 'reset';
  fullName: string;
  organizationName: string;
  url: string;
  expiresAt: Date;
  /** The language to write in ('en', 'de'); the adapter falls back to English. */
  lang?: string | undefined;
}

/** The port to the mail server. */
export interface Mailer {
  sendMemberMail(mail: MemberMail): Promise<void>;
}

export interface UnitOfWork {
  raise(event: DomainEvent): void;
  /** Asks the outermost unit of work to run again, from the start, when it fails with an error `policy` takes. */
  retryOn(policy: RetryPolicy): void;
}

/** Which failures are worth running a whole unit of work again for, and how often at most. */
export interface RetryPolicy {
  when(error: unknown): boolean;
  /** Runs in all, the first included. */
  attempts: number;
}

/**
 * Runs `work` as one unit: its writes through the context it is given
 * share one transaction, the events it raises reach transactional
 * listeners inside that transaction and everyone else after the commit.
 *
 * Called inside another unit of work, it joins that one. A failed
 * statement ends a PostgreSQL transaction, so a nested call cannot retry
 * by itself: its `retry` policy is handed to the outermost unit, which
 * rolls back and runs its whole work again (and only the outermost does).
 */
export async function transact<T, S extends Transactional = Store>(
  ctx: DomainContext<S>,
  work: (tx: DomainContext<S>) => Promise<T>,
  options: { retry?: RetryPolicy } = {},
): Promise<T> {
  if (ctx.unitOfWork) {
    if (options.retry) ctx.unitOfWork.retryOn(options.retry);
    return work(ctx);
  }
  for (let attempt = 1; ; attempt++) {
    const policies: RetryPolicy[] = options.retry ? [options.retry] : [];
    let raised: DomainEvent[] = [];
    try {
      const result = await ctx.store.transaction(async (store) => {
        raised = [];
        const unitOfWork: UnitOfWork = { raise: (event) => raised.push(event), retryOn: (policy) => policies.push(policy) };
        const value = await work({ ...ctx, store, unitOfWork });
        // Every port is one Store underneath, so the transaction is the whole Store's: its listeners (the webhook outbox) may write any aggregate.
        await ctx.events.recordInTransaction(store as unknown as Store, raised);
        return value;
      });
      ctx.events.publish(raised);
      return result;
    } catch (error) {
      if (!policies.some((policy) => attempt < policy.attempts && policy.when(error))) throw error;
    }
  }
}

/** Raises an event of the running unit of work. */
export function raise(ctx: Pick<DomainContext, 'unitOfWork'>, event: DomainEvent): void {
  if (!ctx.unitOfWork) throw new Error('An event was raised outside a unit of work (see transact).');
  ctx.unitOfWork.raise(event);
}

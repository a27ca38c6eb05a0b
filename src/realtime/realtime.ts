/**
 * @module realtime/realtime
 * The realtime side of one instance, assembled from its parts: the bus
 * (Redis with REDIS_URL, else in process), the registry of connections
 * and places, the participant lists held here with the presence
 * pusher, the waiting lines, the event translator (domain events → bus),
 * the bus router (bus → local parts) and the sweeper. The composition root
 * creates it; the web plugin mounts its WebSocket route; the server starts
 * and stops it.
 *
 * A socket's way: ws-route.ts → `open` → connection.ts (order, budget,
 * join deadline) → its first message's handler (sessions/opening.ts) →
 * a domain command → a session for its role (sessions/), whose handler
 * table takes its later messages.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config, IceConfig } from '../config.ts';
import { iceServersFor } from './ice.ts';
import { failureOf } from '../logger.ts';
import type { Actor } from '../domain/actors.ts';
import type { DomainContext } from '../domain/context.ts';
import { liveContext, type LiveContext } from '../domain/lifecycle.ts';
import { chatOffOf } from '../domain/hosting.ts';
import { participantsOf } from '../domain/places.ts';
import { LocalBus, type Bus } from './bus.ts';
import { routeBusMessage } from './bus-router.ts';
import { deliverHostDecision } from './host-delivery.ts';
import { Connection, type ConnectionLimits, type Peer } from './connection.ts';
import { busMessagesOf } from './event-translator.ts';
import { WaitingLists } from './waiting-lists.ts';
import { pushPresence } from './presence-pusher.ts';
import { CloseCode } from './protocol.ts';
import { RedisBus } from './redis-bus.ts';
import { Registry } from './registry.ts';
import { ParticipantLists } from './participant-lists.ts';
import type { RealtimeLogger, RealtimeServices, SfuRouting } from './session.ts';
import { SfuParking } from './sfu-parking.ts';
import { SfuPlaces } from './sfu-places.ts';
import { OPENING } from './sessions/opening.ts';
import { SignInWatch } from './sign-in-watch.ts';
import { Sweeper } from './sweeper.ts';

export type { Peer };

/** The member whose session cookie a socket's upgrade carried, and that session's id hash. */
export interface SocketSignIn {
  actor: Actor;
  sessionHash: string;
}

export interface RealtimeTuning extends Partial<ConnectionLimits> {
  /** How often the sweeper heartbeats, reaps and closes; defaults from the idle time. */
  sweepIntervalMs?: number;
  /** Interval of server WebSocket pings. */
  pingIntervalMs?: number;
  /** How often the sessions of open sockets are checked (sign-in-watch.ts). */
  signInCheckMs?: number;
  /** An instance not heard from for this long is taken for dead. */
  instanceTtlMs?: number;
  instanceId?: string;
}

/** Warnings about an unreachable Redis at most this often: ioredis reports every reconnect attempt. */
const REDIS_WARNING_INTERVAL_MS = 60_000;

export class Realtime {
  readonly pingIntervalMs: number;
  private readonly services: RealtimeServices;
  private readonly limits: ConnectionLimits;
  private readonly sweeper: Sweeper;
  private readonly pending = new Set<Promise<unknown>>();
  private unsubscribe: Array<() => void> = [];

  constructor(
    readonly ctx: LiveContext,
    private readonly bus: Bus,
    private readonly log: RealtimeLogger,
    ice: IceConfig,
    tuning: RealtimeTuning = {},
    resumeGraceSeconds = 0,
  ) {
    this.pingIntervalMs = tuning.pingIntervalMs ?? 5000;
    this.limits = { joinTimeoutMs: tuning.joinTimeoutMs ?? 10_000, maxMessagesPer10s: tuning.maxMessagesPer10s ?? 500 };
    const track = <T>(promise: Promise<T>): Promise<T> => {
      this.pending.add(promise);
      promise.finally(() => this.pending.delete(promise)).catch(() => {});
      return promise;
    };
    const registry = new Registry();
    const sfuPlaces = new SfuPlaces(registry, () => this.services.sfu, log);
    this.services = {
      ctx,
      log,
      track,
      registry,
      publish: (message) => bus.publish(message),
      participantLists: new ParticipantLists(
        (place) => participantsOf(ctx, place),
        (place, entries) => {
          pushPresence(registry, place, entries);
          sfuPlaces.counted(place, entries.length);
        },
      ),
      waitingLists: new WaitingLists(ctx, log, track),
      sfuPlaces,
      sfuParking: new SfuParking(track),
      sfu: undefined,
      iceServers: () => iceServersFor(ice, ctx.now()),
      iceTransportPolicy: ice.transportPolicy,
      signIns: new SignInWatch(ctx, log, track, tuning.signInCheckMs),
      resumeGraceMs: resumeGraceSeconds * 1000,
    };
    this.sweeper = new Sweeper(this.services, tuning.sweepIntervalMs);
    bus.onLost?.((why) => this.catchUp(why));
  }

  /** Listens to the bus and the domain, registers this instance, then sweeps on an interval. */
  async start(): Promise<void> {
    this.unsubscribe = [
      this.bus.subscribe((message) => routeBusMessage(this.services, message)),
      this.ctx.events.subscribe((event) => {
        for (const message of busMessagesOf(event)) this.bus.publish(message);
        this.services.waitingLists.afterChange(event);
      }),
    ];
    await this.bus.start();
    await this.sweeper.start();
    this.services.signIns.start();
  }

  /** Closes every connection, removes this instance's presence, stops the sweeper. */
  async stop(): Promise<void> {
    this.sweeper.stop();
    this.services.waitingLists.stop();
    this.services.signIns.stop();
    this.services.sfuParking.stop();
    for (const c of this.services.registry.all()) {
      c.close(CloseCode.goingAway, 'Server shutting down.');
      // Not waiting for the closing handshake: their departures are recorded now.
      c.closed();
    }
    await Promise.allSettled([...this.pending]);
    await this.sweeper.retire();
    await new Promise((r) => setTimeout(r, 20));
    for (const stop of this.unsubscribe) stop();
    await this.bus.close();
  }

  /**
   * A new transport connection, opened by a member's browser when it carried
   * their session (`signIn`: the member and their session's id hash);
   * `browserKey` identifies the browser (its participant cookie, hashed)
   * when there is no member.
   */
  open(peer: Peer, signIn: SocketSignIn | null = null, browserKey: string | null = null, address: string | null = null): Connection {
    const member = signIn?.actor.kind === 'member' ? signIn.actor : null;
    const guestKey = member ? `member:${member.user.id}` : browserKey && `browser:${browserKey}`;
    const connection = new Connection(this.services, OPENING, this.limits, peer, 'c_' + randomBytes(12).toString('base64url'), member, guestKey, address);
    this.services.registry.open(connection);
    if (member && signIn) this.services.signIns.watch(connection, { userId: member.user.id, organizationId: member.organization.id, sessionHash: signIn.sessionHash });
    return connection;
  }

  /** Places of several people use these Janus servers from now on (without: every place stays peer-to-peer). */
  useSfu(sfu: SfuRouting): void {
    this.services.sfu = sfu;
  }

  /** Connections of this instance, for tests and metrics. */
  get size(): number {
    return this.services.registry.size;
  }

  /** Lifecycle sweeps run since start, for metrics. */
  get sweeps(): number {
    return this.sweeper.runs;
  }

  get sweepIntervalMs(): number {
    return this.sweeper.intervalMs;
  }

  /** Whether the bus to other instances is up; undefined for a single instance. */
  busUp(): boolean | undefined {
    return this.bus.isUp?.();
  }

  /**
   * Messages of other instances may have been lost (Redis was away, a
   * sequence number was skipped): every participant list and waiting list
   * held here is read again from the database, which saw every change.
   */
  private catchUp(why: 'reconnected' | 'missed'): void {
    this.log.warn({ why }, 'realtime: catching up participants and waiting lists from the database');
    void this.services.track(this.services.participantLists.refreshAll((error) => this.log.error({ err: error }, 'realtime: could not read presence')));
    // Hands are in no database: the instances say again whose are raised (a change lost meanwhile is then put right).
    for (const place of this.services.registry.places()) this.bus.publish({ t: 'hands', place });
    this.services.waitingLists.refreshAll();
    this.services.signIns.checkNow();
    // The chat switch is enforced from memory: a `chat_state` lost meanwhile is put right from the database.
    void this.services.track(this.recheckChat().catch((error: unknown) => this.log.error({ err: error }, 'realtime: could not read the chat switch')));
  }

  private async recheckChat(): Promise<void> {
    for (const place of this.services.registry.places()) {
      if (place.kind !== 'meeting') continue;
      const off = await chatOffOf(this.ctx, place.id);
      const members = this.services.registry.members(place);
      await deliverHostDecision(this.ctx, { t: 'chat_state', place, off }, members.filter((m) => m.role === 'participant' && m.chatOff !== off));
    }
  }
}

/**
 * The signalling log keeps a failure's class and code (`failure`), never
 * its message or stack, as the HTTP side does: a driver's error can carry
 * SQL text and what a client sent.
 */
export function withoutStacks(log: RealtimeLogger): RealtimeLogger {
  const clean = (object: object): object => {
    if (!('err' in object)) return object;
    const { err, ...rest } = object as { err: unknown };
    return { ...rest, failure: failureOf(err) };
  };
  return {
    warn: (object, message) => log.warn(clean(object), message),
    error: (object, message) => log.error(clean(object), message),
  };
}

export function createRealtime(
  ctx: DomainContext,
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix' | 'ice'> & Partial<Pick<Config, 'resumeGraceSeconds'>>,
  logger: RealtimeLogger,
  tuning: RealtimeTuning = {},
): Realtime {
  const log = withoutStacks(logger);
  const live = liveContext(ctx, {
    instanceId: tuning.instanceId ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`,
    instanceTtlMs: tuning.instanceTtlMs ?? 15_000,
  });
  let lastRedisWarning = 0;
  const bus: Bus = config.redisUrl
    ? new RedisBus(config.redisUrl, config.redisKeyPrefix, (error) => {
        if (Date.now() - lastRedisWarning < REDIS_WARNING_INTERVAL_MS) return;
        lastRedisWarning = Date.now();
        log.warn({ reason: error.message }, 'realtime: Redis unavailable; meetings across instances cannot connect until it is back');
      })
    : new LocalBus();
  return new Realtime(live, bus, log, config.ice, tuning, config.resumeGraceSeconds ?? 0);
}

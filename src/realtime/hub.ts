/**
 * @module realtime/hub
 * The signalling and presence hub of one instance: it holds the local
 * connections by place, delivers what arrives on the bus to the ones it
 * concerns, ends the calls of places the domain reports ended (a delete,
 * a close by the sweeper, on any instance), and runs the sweeper.
 * Transport-free: `ws-route.ts` plugs WebSockets in; what each client
 * message does is in handlers/.
 */
import { randomBytes } from 'node:crypto';
import type { Actor } from '../domain/actors.ts';
import type { DomainEvent } from '../domain/events.ts';
import type { LiveContext } from '../domain/lifecycle.ts';
import { participantsOf } from '../domain/places.ts';
import { placeKey, type PlaceRef } from '../domain/presence.ts';
import { busMessagesOf, deliverAdmin, isAdminMessage } from './admin-fanout.ts';
import type { Bus, BusMessage } from './bus.ts';
import { Connection, type ConnectionHost, type Peer } from './connection.ts';
import type { RealtimeLogger, Watched } from './contracts.ts';
import { Lines } from './lines.ts';
import { CloseCode, participantView } from './protocol.ts';
import { Sweeper } from './sweeper.ts';

export type { Peer };

export interface HubOptions {
  /** How often the sweeper heartbeats, reaps and closes; defaults from the idle time. */
  sweepIntervalMs?: number;
  /** A connection that has not joined after this long is closed. */
  joinTimeoutMs?: number;
  /** Messages a connection may send per 10 seconds (offers, answers, ICE bursts fit easily). */
  maxMessagesPer10s?: number;
}

export type HubLogger = RealtimeLogger;

export class Hub implements ConnectionHost {
  private readonly connections = new Map<string, Connection>();
  private readonly byPlace = new Map<string, Set<Connection>>();
  private readonly pending = new Set<Promise<unknown>>();
  private readonly sweeper: Sweeper;
  private readonly lines: Lines;
  private unsubscribe: Array<() => void> = [];
  readonly joinTimeoutMs: number;
  readonly maxMessagesPer10s: number;

  constructor(
    readonly ctx: LiveContext,
    private readonly bus: Bus,
    readonly log: HubLogger,
    options: HubOptions = {},
  ) {
    this.joinTimeoutMs = options.joinTimeoutMs ?? 10_000;
    this.maxMessagesPer10s = options.maxMessagesPer10s ?? 500;
    this.sweeper = new Sweeper(this, options.sweepIntervalMs);
    this.lines = new Lines(ctx, bus, log, (promise) => this.track(promise));
    bus.onRecovered?.(() => this.catchUp());
  }

  get sweepIntervalMs(): number {
    return this.sweeper.intervalMs;
  }

  /** Listens to the bus and the domain, registers this instance, then sweeps on an interval. */
  async start(): Promise<void> {
    this.unsubscribe = [this.bus.subscribe((m) => this.onBus(m)), this.ctx.events.subscribe((e) => this.onDomainEvent(e))];
    await this.bus.start();
    await this.sweeper.start();
  }

  /** Closes every connection, removes this instance's presence, stops the sweeper. */
  async stop(): Promise<void> {
    this.sweeper.stop();
    this.lines.stop();
    for (const c of [...this.connections.values()]) {
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
   * A new transport connection, opened by `member`'s browser when it carried
   * their session; `browserKey` identifies the browser (its participant
   * cookie, hashed) when there is no member.
   */
  open(peer: Peer, member: Actor | null = null, browserKey: string | null = null): Connection {
    const guestKey = member?.kind === 'member' ? `member:${member.user.id}` : browserKey && `browser:${browserKey}`;
    const connection = new Connection(this, peer, 'c_' + randomBytes(12).toString('base64url'), member, guestKey);
    this.connections.set(connection.id, connection);
    return connection;
  }

  /** Lifecycle sweeps run since start, for metrics. */
  get sweeps(): number {
    return this.sweeper.runs;
  }

  /** Whether the bus to other instances is up; undefined for a single instance. */
  busUp(): boolean | undefined {
    return this.bus.isUp?.();
  }

  /** Connections of this instance, for tests and metrics. */
  get size(): number {
    return this.connections.size;
  }

  /** The places this instance has connections in. */
  places(): PlaceRef[] {
    return [...this.byPlace.values()].flatMap((set) => {
      const first = set.values().next().value as Connection | undefined;
      return first?.place ? [first.place] : [];
    });
  }

  /** Every local connection, for the sweeper's "rejoin" after this instance was reaped. */
  all(): Connection[] {
    return [...this.connections.values()];
  }

  /** Ends the local connections of a place. */
  endLocal(place: PlaceRef, reason: 'closed' | 'deleted'): void {
    for (const c of [...(this.byPlace.get(placeKey(place)) ?? [])]) c.end(reason);
  }

  track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    promise.finally(() => this.pending.delete(promise)).catch(() => {});
    return promise;
  }

  register(connection: Connection, place: PlaceRef): void {
    const key = placeKey(place);
    let set = this.byPlace.get(key);
    if (!set) this.byPlace.set(key, (set = new Set()));
    set.add(connection);
  }

  follow(connection: Connection, watched: Watched): void {
    this.lines.follow(connection, watched);
  }

  forget(connection: Connection): void {
    this.connections.delete(connection.id);
    this.lines.forget(connection);
    if (!connection.place) return;
    const key = placeKey(connection.place);
    const set = this.byPlace.get(key);
    set?.delete(connection);
    if (set?.size === 0) this.byPlace.delete(key);
  }

  publish(message: BusMessage): void {
    this.bus.publish(message);
  }

  /** A place that ended here (a delete, a sweep) ends on every instance; a changed waiting list is sent everywhere. */
  private onDomainEvent(event: DomainEvent): void {
    this.lines.onDomainEvent(event);
    for (const message of busMessagesOf(event)) this.bus.publish(message);
    if (event.type === 'meeting.ended') {
      const byHost = event.byUserId !== undefined;
      this.bus.publish({ t: 'ended', place: { kind: 'meeting', id: event.meetingId }, reason: event.reason, ...(byHost ? { byHost } : {}) });
    } else if (event.type === 'room.session.ended') {
      this.bus.publish({ t: 'ended', place: { kind: 'session', id: event.sessionId }, reason: 'closed' });
    }
  }

  private onBus(message: BusMessage): void {
    if (message.t === 'line') {
      this.lines.changed(message.organizationId, message.spaceId);
      return;
    }
    const local = this.byPlace.get(placeKey(message.place));
    if (!local) return;
    if (isAdminMessage(message)) {
      void this.track(deliverAdmin(message, local).catch((error: unknown) => this.log.error({ err: error }, 'realtime: could not deliver an admin decision')));
      return;
    }
    switch (message.t) {
      case 'presence':
        void this.track(this.pushParticipants(message.place, local));
        break;
      case 'signal': {
        const target = this.connections.get(message.to);
        if (target?.state === 'joined' && local.has(target)) target.send(message.message);
        break;
      }
      case 'ended':
        for (const c of [...local]) c.end(message.reason, message.byHost === true);
        break;
    }
  }

  /**
   * After the bus was down, presence and line changes of other instances
   * went unannounced: send every local connection its place's participants
   * and its line again, from the database, which saw every change.
   */
  private catchUp(): void {
    this.log.warn({}, 'realtime: Redis is back; refreshing participants and waiting lists on this instance');
    for (const [key, local] of this.byPlace) {
      const place = [...local][0]?.place;
      if (place && placeKey(place) === key) void this.track(this.pushParticipants(place, local));
    }
    this.lines.refreshAll();
  }

  private async pushParticipants(place: PlaceRef, local: Set<Connection>): Promise<void> {
    try {
      const participants = (await participantsOf(this.ctx, place)).map(participantView);
      for (const c of local) if (c.state === 'joined') c.send({ type: 'participants', participants });
    } catch (error) {
      this.log.error({ err: error }, 'realtime: could not read presence');
    }
  }
}

/**
 * @module realtime/hub
 * The signalling and presence hub of one instance. It owns the local
 * connections, runs each connection's messages in order, keeps presence in
 * the database (shared with every instance), relays offers, answers and
 * ICE candidates between named participants of the same place, and runs
 * the lifecycle sweeper. Transport-free: `ws-route.ts` plugs WebSockets in.
 */
import { randomBytes } from 'node:crypto';
import type { DomainEvents } from '../domain/context.ts';
import { DomainError } from '../domain/errors.ts';
import {
  checkDisplayName,
  enterPlace,
  leavePlace,
  participantsOf,
  retireInstance,
  sweep,
  type JoinRefusal,
  type LiveContext,
} from '../domain/lifecycle.ts';
import { placeKey, type MediaState, type Participant, type PlaceRef } from '../domain/presence.ts';
import type { Bus, BusMessage } from './bus.ts';
import { CloseCode, parseClientMessage, ProtocolError, type ClientMessage, type ParticipantView, type ServerMessage } from './protocol.ts';

/** What the hub needs from a transport connection. */
export interface Peer {
  send(message: ServerMessage): void;
  close(code: number, reason: string): void;
}

export interface HubOptions {
  /** How often the sweeper heartbeats, reaps and closes; defaults from the idle time. */
  sweepIntervalMs?: number;
  /** A connection that has not joined after this long is closed. */
  joinTimeoutMs?: number;
  /** Messages a connection may send per 10 seconds (offers, answers, ICE bursts fit easily). */
  maxMessagesPer10s?: number;
}

export interface HubLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

const REFUSALS: Record<JoinRefusal, { code: number; message: string }> = {
  not_found: { code: CloseCode.notFound, message: 'There is no such meeting or room.' },
  closed: { code: CloseCode.gone, message: 'This meeting has ended.' },
  deleted: { code: CloseCode.gone, message: 'This meeting has ended.' },
  inactive: { code: CloseCode.notJoinable, message: 'This place is not active.' },
  waiting_list: { code: CloseCode.notJoinable, message: 'This place has a waiting list, which this version does not serve yet.' },
};

function view(p: Participant): ParticipantView {
  return { id: p.id, name: p.displayName, audio: p.audio, video: p.video, screen: p.screen };
}

export class Hub implements DomainEvents {
  private readonly connections = new Map<string, Connection>();
  private readonly byPlace = new Map<string, Set<Connection>>();
  private readonly pending = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  readonly sweepIntervalMs: number;
  readonly joinTimeoutMs: number;
  readonly maxMessagesPer10s: number;

  constructor(
    readonly ctx: LiveContext,
    private readonly bus: Bus,
    readonly log: HubLogger,
    options: HubOptions = {},
  ) {
    // A quarter of the idle time, within 0.25 s and 2 s: prompt closing with short test idle times, little load otherwise.
    this.sweepIntervalMs = options.sweepIntervalMs ?? Math.min(2000, Math.max(250, (ctx.idleCloseSeconds * 1000) / 4));
    this.joinTimeoutMs = options.joinTimeoutMs ?? 10_000;
    this.maxMessagesPer10s = options.maxMessagesPer10s ?? 500;
    bus.onMessage((m) => this.onBus(m));
  }

  /** Heartbeats once (registering this instance), then sweeps on an interval. */
  async start(): Promise<void> {
    await this.bus.start();
    await sweep(this.ctx);
    const loop = async () => {
      if (this.stopped) return;
      await this.track(this.tick());
      if (!this.stopped) this.timer = setTimeout(loop, this.sweepIntervalMs);
    };
    this.timer = setTimeout(loop, this.sweepIntervalMs);
  }

  /** Closes every connection, removes this instance's presence, stops the sweeper. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const c of [...this.connections.values()]) {
      c.close(CloseCode.goingAway, 'Server shutting down.');
      // Not waiting for the closing handshake: their departures are recorded now.
      c.closed();
    }
    await Promise.allSettled([...this.pending]);
    try {
      const places = await retireInstance(this.ctx);
      for (const place of places) this.bus.publish({ t: 'presence', place });
    } catch (error) {
      this.log.error({ err: error }, 'realtime: could not retire this instance');
    }
    await new Promise((r) => setTimeout(r, 20));
    await this.bus.close();
  }

  /** A new transport connection. */
  open(peer: Peer): Connection {
    const connection = new Connection(this, peer, 'c_' + randomBytes(12).toString('base64url'));
    this.connections.set(connection.id, connection);
    return connection;
  }

  /** DomainEvents: a v3 delete ends the meeting everywhere at once. */
  meetingEnded(meetingId: string, reason: 'deleted'): void {
    this.bus.publish({ t: 'ended', place: { kind: 'meeting', id: meetingId }, reason });
  }

  /** Connections of this instance, for tests and metrics. */
  get size(): number {
    return this.connections.size;
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

  forget(connection: Connection): void {
    this.connections.delete(connection.id);
    if (!connection.place) return;
    const key = placeKey(connection.place);
    const set = this.byPlace.get(key);
    set?.delete(connection);
    if (set?.size === 0) this.byPlace.delete(key);
  }

  publish(message: BusMessage): void {
    this.bus.publish(message);
  }

  private onBus(message: BusMessage): void {
    const local = this.byPlace.get(placeKey(message.place));
    if (!local) return;
    switch (message.t) {
      case 'presence':
        void this.track(this.pushParticipants(message.place, local));
        break;
      case 'signal': {
        const target = this.connections.get(message.to);
        if (target && local.has(target)) target.send(message.message);
        break;
      }
      case 'ended':
        for (const c of [...local]) c.end(message.reason);
        break;
    }
  }

  private async pushParticipants(place: PlaceRef, local: Set<Connection>): Promise<void> {
    try {
      const participants = (await participantsOf(this.ctx, place)).map(view);
      for (const c of local) c.send({ type: 'participants', participants });
    } catch (error) {
      this.log.error({ err: error }, 'realtime: could not read presence');
    }
  }

  private async tick(): Promise<void> {
    try {
      const result = await sweep(this.ctx);
      for (const place of result.closed) this.bus.publish({ t: 'ended', place, reason: 'closed' });
      for (const place of result.changed) this.bus.publish({ t: 'presence', place });
      if (!result.instanceKnown) {
        // Another instance took us for dead and removed our presence: have everyone rejoin.
        this.log.warn({}, 'realtime: this instance was reaped as dead; asking its participants to rejoin');
        for (const c of [...this.connections.values()]) c.close(CloseCode.rejoin, 'Please rejoin.');
      }
      await this.endWhatEndedElsewhere();
    } catch (error) {
      this.log.error({ err: error }, 'realtime: lifecycle sweep failed');
    }
  }

  /**
   * The safety net behind the bus: a meeting deleted or closed by another
   * instance ends here within one sweep, even without Redis.
   */
  private async endWhatEndedElsewhere(): Promise<void> {
    const places = [...this.byPlace.values()].flatMap((set) => {
      const first = set.values().next().value as Connection | undefined;
      return first?.place ? [first.place] : [];
    });
    if (places.length === 0) return;
    const ended = await this.ctx.store.live.endedPlaces(places, this.ctx.now());
    for (const place of ended) {
      let reason: 'closed' | 'deleted' = 'closed';
      if (place.kind === 'meeting') {
        const meeting = await this.ctx.store.live.findMeetingRecord({ id: place.id });
        if (meeting?.deletedAt) reason = 'deleted';
      }
      for (const c of [...(this.byPlace.get(placeKey(place)) ?? [])]) c.end(reason);
    }
  }
}

type State = 'new' | 'joined' | 'gone';

/**
 * At most one media-state write (and presence broadcast to every instance)
 * per connection per this interval: a client toggling as fast as it may
 * send would otherwise cost a database write and a fan-out per message.
 * The latest state always lands, at most this much later.
 */
export const MEDIA_UPDATE_INTERVAL_MS = 250;

/** One participant's signalling connection. */
export class Connection {
  state: State = 'new';
  place: PlaceRef | undefined;
  private queue: Promise<void> = Promise.resolve();
  private windowStart = Date.now();
  private windowCount = 0;
  private readonly joinTimer: NodeJS.Timeout;
  /** The newest media state not yet written, and the timer that will write it. */
  private pendingMedia: MediaState | null = null;
  private mediaTimer: NodeJS.Timeout | undefined;
  private lastMediaAt = 0;

  constructor(
    private readonly hub: Hub,
    private readonly peer: Peer,
    readonly id: string,
  ) {
    this.joinTimer = setTimeout(() => {
      if (this.state === 'new') this.close(CloseCode.joinTimeout, 'No join message in time.');
    }, hub.joinTimeoutMs);
  }

  send(message: ServerMessage): void {
    if (this.state !== 'gone') this.peer.send(message);
  }

  /** A text frame from the client. Messages are handled strictly in order. */
  receive(text: string): void {
    if (this.state === 'gone') return;
    const now = Date.now();
    if (now - this.windowStart > 10_000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    if (++this.windowCount > this.hub.maxMessagesPer10s) {
      this.refuse(CloseCode.tooManyMessages, 'too_many_messages', 'Too many messages.');
      return;
    }
    let message: ClientMessage;
    try {
      message = parseClientMessage(text);
    } catch (error) {
      const detail = error instanceof ProtocolError ? error.message : 'Malformed message.';
      this.refuse(CloseCode.badMessage, 'bad_message', detail);
      return;
    }
    this.enqueue(() => this.handle(message));
  }

  /** Runs `step` after every message before it. */
  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.hub.log.error({ err: error }, 'realtime: message handling failed');
      this.close(CloseCode.badMessage, 'Internal error.');
    });
    void this.hub.track(this.queue);
  }

  /** Writes the newest media state now or, within MEDIA_UPDATE_INTERVAL_MS of the last write, when that has passed. */
  private scheduleMedia(): void {
    if (this.mediaTimer || !this.pendingMedia || this.state !== 'joined') return;
    const wait = Math.max(0, this.lastMediaAt + MEDIA_UPDATE_INTERVAL_MS - Date.now());
    this.mediaTimer = setTimeout(() => {
      this.mediaTimer = undefined;
      this.enqueue(() => this.writeMedia());
    }, wait);
  }

  private async writeMedia(): Promise<void> {
    const media = this.pendingMedia;
    if (!media || this.state !== 'joined') return;
    this.pendingMedia = null;
    this.lastMediaAt = Date.now();
    await this.hub.ctx.store.live.setMedia(this.id, media);
    this.hub.publish({ t: 'presence', place: this.place! });
    // A state that arrived during the write goes out in the next slot.
    this.scheduleMedia();
  }

  /** The transport closed (either side). */
  closed(): void {
    clearTimeout(this.joinTimer);
    clearTimeout(this.mediaTimer);
    this.mediaTimer = undefined;
    const wasJoined = this.state === 'joined';
    this.state = 'gone';
    this.hub.forget(this);
    if (!wasJoined) return;
    const place = this.place!;
    // After any message still in flight, so a join that is finishing is undone too.
    void this.hub.track(
      this.queue.then(async () => {
        try {
          await leavePlace(this.hub.ctx, this.id);
        } catch (error) {
          this.hub.log.error({ err: error }, 'realtime: could not record a departure');
        }
        this.hub.publish({ t: 'presence', place });
      }),
    );
  }

  /** The place ended: tell the client, then close. */
  end(reason: 'closed' | 'deleted'): void {
    if (this.state === 'gone') return;
    this.send({ type: 'ended', reason });
    this.close(CloseCode.gone, reason === 'deleted' ? 'Meeting deleted.' : 'Meeting closed.');
  }

  close(code: number, reason: string): void {
    this.peer.close(code, reason);
  }

  private refuse(code: number, errorCode: string, message: string): void {
    this.send({ type: 'error', code: errorCode, message });
    this.close(code, message.slice(0, 120));
  }

  private async handle(message: ClientMessage): Promise<void> {
    if (this.state === 'gone') return;
    if (message.type === 'ping') {
      this.send({ type: 'pong' });
      return;
    }
    if (this.state === 'new') {
      if (message.type !== 'join') return this.refuse(CloseCode.badMessage, 'not_joined', 'Send "join" first.');
      return this.join(message);
    }
    const place = this.place!;
    switch (message.type) {
      case 'join':
        return this.refuse(CloseCode.badMessage, 'already_joined', 'Already joined.');
      case 'offer':
      case 'answer':
        this.hub.publish({ t: 'signal', place, to: message.to, message: { type: message.type, from: this.id, sdp: message.sdp } });
        return;
      case 'ice':
        this.hub.publish({ t: 'signal', place, to: message.to, message: { type: 'ice', from: this.id, candidate: message.candidate } });
        return;
      case 'media':
        this.pendingMedia = { audio: message.audio, video: message.video, screen: message.screen };
        this.scheduleMedia();
        return;
      case 'leave':
        this.close(CloseCode.normal, 'Left.');
        return;
    }
  }

  private async join(message: Extract<ClientMessage, { type: 'join' }>): Promise<void> {
    let displayName: string;
    try {
      displayName = checkDisplayName(message.name);
    } catch (error) {
      return this.refuse(CloseCode.badMessage, 'bad_name', error instanceof DomainError ? error.message : 'Invalid name.');
    }
    const result = await enterPlace(this.hub.ctx, message.target, {
      id: this.id,
      displayName,
      audio: message.audio,
      video: message.video,
      screen: false,
    });
    if (!result.ok) {
      const refusal = REFUSALS[result.reason];
      return this.refuse(refusal.code, result.reason, refusal.message);
    }
    clearTimeout(this.joinTimer);
    this.place = result.place;
    if (this.state === 'gone') {
      // The socket closed while joining: undo at once.
      await leavePlace(this.hub.ctx, this.id);
      this.hub.publish({ t: 'presence', place: result.place });
      return;
    }
    this.state = 'joined';
    this.hub.register(this, result.place);
    const participants = (await participantsOf(this.hub.ctx, result.place)).map(view);
    this.send({
      type: 'welcome',
      you: view(result.participant),
      place: { kind: result.place.kind === 'meeting' ? 'meeting' : 'room', title: result.title },
      participants,
    });
    this.hub.publish({ t: 'presence', place: result.place });
  }
}


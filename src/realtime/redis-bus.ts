/**
 * @module realtime/redis-bus
 * The bus over Redis pub/sub, for several instances: participants of one
 * meeting connected to different instances see and hear each other
 * because presence changes and signalling messages travel through one
 * channel (`<REDIS_KEY_PREFIX>realtime`). Messages are delivered locally at
 * once and skipped when they come back from Redis, so a Redis outage only
 * cuts instances off from each other, never a meeting on one instance.
 *
 * Each instance numbers what it publishes; a receiver that sees a number
 * skipped (a publish that failed while Redis was away from the publisher
 * only) tells its listeners to catch up, as after a reconnect.
 *
 * One channel for all places keeps subscription simple and race-free (no
 * subscribe/unsubscribe per meeting); each instance drops what is not for
 * its connections. That costs every instance every message: fine for
 * tens of instances, and the place to shard by meeting if Foyer grows.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Subscribers, type Bus, type BusHandler, type BusMessage } from './bus.ts';

interface Envelope {
  origin: string;
  /** 1, 2, 3, … per origin. */
  seq: number;
  message: BusMessage;
}

/** Origins remembered for their sequence numbers; beyond this many, the longest silent is forgotten. */
const MAX_ORIGINS = 256;

export class RedisBus implements Bus {
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly subscribers = new Subscribers();
  private readonly lostListeners: Array<(why: 'reconnected' | 'missed') => void> = [];
  private everReady = false;
  private seq = 0;
  /** The last sequence number received from each other instance, newest heard last. */
  private readonly lastSeq = new Map<string, number>();

  constructor(url: string, keyPrefix: string, private readonly onError: (error: Error) => void = () => {}) {
    this.channel = `${keyPrefix}realtime`;
    // Publishing fails fast while Redis is away (local delivery goes on);
    // the subscription waits and is renewed by ioredis on every reconnect.
    this.pub = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.sub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null });
    // Without listeners a lost connection would crash the process; ioredis reconnects by itself.
    this.pub.on('error', (e) => this.onError(e));
    this.sub.on('error', (e) => this.onError(e));
    // 'ready' comes again after every reconnect (ioredis has subscribed again by then): what
    // other instances published meanwhile was lost, so listeners catch up from the database.
    this.sub.on('ready', () => {
      if (this.everReady) this.lost('reconnected');
      this.everReady = true;
    });
    this.sub.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      let envelope: Envelope;
      try {
        envelope = JSON.parse(text) as Envelope;
      } catch {
        return;
      }
      if (envelope.origin === this.origin) return;
      this.follow(envelope);
      this.subscribers.deliver(envelope.message);
    });
  }

  /** Notes an origin's sequence number; a skipped one means something of theirs was lost. */
  private follow(envelope: Envelope): void {
    const last = this.lastSeq.get(envelope.origin);
    this.lastSeq.delete(envelope.origin);
    this.lastSeq.set(envelope.origin, envelope.seq);
    if (this.lastSeq.size > MAX_ORIGINS) this.lastSeq.delete(this.lastSeq.keys().next().value as string);
    if (last !== undefined && envelope.seq > last + 1) this.lost('missed');
  }

  private lost(why: 'reconnected' | 'missed'): void {
    for (const listener of this.lostListeners) listener(why);
  }

  publish(message: BusMessage): void {
    queueMicrotask(() => this.subscribers.deliver(message));
    const envelope: Envelope = { origin: this.origin, seq: ++this.seq, message };
    this.pub.publish(this.channel, JSON.stringify(envelope)).catch((e: Error) => this.onError(e));
  }

  subscribe(handler: BusHandler): () => void {
    return this.subscribers.add(handler);
  }

  isUp(): boolean {
    return this.pub.status === 'ready' && this.sub.status === 'ready';
  }

  onLost(listener: (why: 'reconnected' | 'missed') => void): void {
    this.lostListeners.push(listener);
  }

  /**
   * Connects and subscribes, waiting at most `waitMs`: an unreachable Redis
   * must not keep Foyer from serving (it keeps retrying in the background).
   */
  async start(waitMs = 2000): Promise<void> {
    // Both: a publish before the publishing connection is ready is dropped (no offline queue), not sent late.
    const connected = this.pub.connect().catch((e: Error) => this.onError(e));
    const subscribed = this.sub
      .connect()
      .then(() => this.sub.subscribe(this.channel))
      .catch((e: Error) => this.onError(e));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all([connected, subscribed]), new Promise((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    this.pub.disconnect();
    this.sub.disconnect();
  }
}

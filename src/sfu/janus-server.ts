/**
 * @module sfu/janus-server
 * Foyer's connection to one Janus (janode over the WebSocket API): a Janus
 * session, a VideoRoom "manager" handle for the room operations, and a
 * liveness watch. The server is `up` while it answers; it is `down` as soon
 * as its connection drops (a killed local Janus closes it at once) or it
 * has not answered an `info` request within `downAfterMs` (a machine that
 * vanished without closing anything), and Foyer reconnects by itself.
 *
 * Every other request has a deadline: janode's own requests wait forever.
 */
import { EventEmitter } from 'node:events';
import Janode, { type Connection, type Session } from 'janode';
import VideoRoomPlugin, { type VideoRoomHandle } from 'janode/plugins/videoroom';
import type { JanusEndpoint, LaunchLog } from './launcher.ts';
import { destroyRoom, ensureRoom, kickFromRoom, roomSecret } from './rooms.ts';

export interface JanusServerTuning {
  /** How often the server is asked for `info`. */
  probeIntervalMs: number;
  /** A probe without an answer for this long: it is down. */
  downAfterMs: number;
  /** Deadline of one request (room operations). */
  requestTimeoutMs: number;
  /** First delay between reconnection attempts; doubles up to 5 s. */
  reconnectDelayMs: number;
}

export const DEFAULT_TUNING: JanusServerTuning = { probeIntervalMs: 1000, downAfterMs: 3000, requestTimeoutMs: 5000, reconnectDelayMs: 250 };

interface Live {
  connection: Connection;
  session: Session;
  manager: VideoRoomHandle;
  endpoint: JanusEndpoint;
}

export class SfuUnavailableError extends Error {
  override name = 'SfuUnavailableError';
}

/** Events: `up` when connected (again), `down` (reason) when it stops answering. */
export class JanusServer extends EventEmitter<{ up: []; down: [string] }> {
  private readonly tuning: JanusServerTuning;
  private endpoint: JanusEndpoint | undefined;
  private live: Live | undefined;
  private running = false;
  private connecting = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private failures = 0;

  constructor(
    /** The server's name in logs, metrics and placements (host:port, or `local@host`). */
    readonly label: string,
    endpoint: JanusEndpoint | undefined,
    private readonly log: LaunchLog,
    tuning: Partial<JanusServerTuning> = {},
  ) {
    super();
    // Every SFU link on this Janus listens for its going down: one listener per participant, however many.
    this.setMaxListeners(0);
    this.endpoint = endpoint;
    this.tuning = { ...DEFAULT_TUNING, ...tuning };
    // janode writes to the console; Foyer logs what matters itself.
    Janode.Logger.setLevel('none');
  }

  get up(): boolean {
    return this.live !== undefined;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.probeTimer = setInterval(() => this.probe(), this.tuning.probeIntervalMs);
    void this.connect();
  }

  /** A local Janus that restarted answers elsewhere: forget the old connection and use the new address. */
  setEndpoint(endpoint: JanusEndpoint | undefined): void {
    this.endpoint = endpoint;
    if (this.live) this.markDown(endpoint ? 'restarted' : 'stopped');
    else if (this.running && endpoint) this.scheduleReconnect(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.probeTimer);
    clearTimeout(this.reconnectTimer);
    const live = this.live;
    this.live = undefined;
    if (live) await this.close(live);
  }

  /** Attaches a new VideoRoom handle on this server's session (a participant's publisher or subscriber). */
  async attach(): Promise<VideoRoomHandle> {
    const live = this.require();
    return this.deadline(live.session.attach(VideoRoomPlugin), 'attach');
  }

  /** Creates the room unless it exists. */
  async ensureRoom(room: number): Promise<'created' | 'existed'> {
    const live = this.require();
    return this.deadline(ensureRoom(live.manager, room, roomSecret(live.endpoint.apiSecret, room)), 'create a room');
  }

  async destroyRoom(room: number): Promise<'destroyed' | 'absent'> {
    const live = this.require();
    return this.deadline(destroyRoom(live.manager, room, roomSecret(live.endpoint.apiSecret, room)), 'destroy a room');
  }

  async kick(room: number, feed: number): Promise<'kicked' | 'absent'> {
    const live = this.require();
    return this.deadline(kickFromRoom(live.manager, room, roomSecret(live.endpoint.apiSecret, room), feed), 'kick');
  }

  /** The publishers (and, with notify_joining, attendees) of a room. */
  async participants(room: number): Promise<Array<{ feed: number; display?: string; publisher: boolean; talking?: boolean }>> {
    const live = this.require();
    const { participants } = await this.deadline(live.manager.listParticipants({ room }), 'list participants');
    return participants;
  }

  private require(): Live {
    if (!this.live) throw new SfuUnavailableError(`Janus ${this.label} is not available`);
    return this.live;
  }

  private deadline<T>(work: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SfuUnavailableError(`Janus ${this.label} did not answer (${what}) within ${this.tuning.requestTimeoutMs} ms`)), this.tuning.requestTimeoutMs);
    });
    return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
  }

  private async connect(): Promise<void> {
    if (!this.running || this.connecting || this.live || !this.endpoint) return;
    this.connecting = true;
    const endpoint = this.endpoint;
    let connection: Connection | undefined;
    try {
      connection = await this.deadline(
        Janode.connect({ address: { url: endpoint.url, apisecret: endpoint.apiSecret }, max_retries: 0, retry_time_secs: 1, ws_options: { handshakeTimeout: this.tuning.requestTimeoutMs } }),
        'connect',
      );
      const session = await this.deadline(connection.create(15), 'create a session');
      const manager = await this.deadline(session.attach(VideoRoomPlugin), 'attach');
      if (!this.running || this.endpoint !== endpoint) throw new Error('no longer wanted');
      const live: Live = { connection, session, manager, endpoint };
      connection.once(Janode.EVENT.CONNECTION_ERROR, (error: Error) => this.lost(live, `connection lost (${error.message})`));
      connection.once(Janode.EVENT.CONNECTION_CLOSED, () => this.lost(live, 'connection closed'));
      session.once(Janode.EVENT.SESSION_DESTROYED, () => this.lost(live, 'session ended'));
      this.live = live;
      this.failures = 0;
      this.log.info(`Janus ${this.label} is up.`);
      this.emit('up');
    } catch (error) {
      connection?.close().catch(() => {});
      if (this.failures === 0) this.log.warn(`Janus ${this.label} does not answer: ${(error as Error).message}`);
      this.failures++;
      this.scheduleReconnect();
    } finally {
      this.connecting = false;
    }
  }

  private scheduleReconnect(delay = Math.min(5000, this.tuning.reconnectDelayMs * 2 ** Math.min(this.failures, 5))): void {
    if (!this.running || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
  }

  /**
   * Asks for `info`; the server is down if that very request has no answer `downAfterMs` later. Counted from the
   * request, not from the last answer: a Foyer too busy to send probes says nothing of Janus. Looked at once pending
   * input is read (setImmediate runs after it, timers before it): after this process stalled, the answer may be
   * waiting, unread, on the socket.
   */
  private probe(): void {
    const live = this.live;
    if (!live) return;
    let answered = false;
    // No deadline on the request itself: however late, an answer is one (janode drops what is pending when the
    // connection closes).
    live.connection.getInfo().then(
      () => (answered = true),
      () => {},
    );
    setTimeout(() => {
      setImmediate(() => {
        if (!answered && this.live === live) this.markDown(`no answer for ${this.tuning.downAfterMs} ms`);
      });
    }, this.tuning.downAfterMs).unref();
  }

  private lost(live: Live, reason: string): void {
    if (this.live === live) this.markDown(reason);
  }

  private markDown(reason: string): void {
    const live = this.live;
    if (!live) return;
    this.live = undefined;
    void this.close(live);
    this.log.warn(`Janus ${this.label} is down: ${reason}.`);
    this.emit('down', reason);
    this.scheduleReconnect();
  }

  private async close(live: Live): Promise<void> {
    await live.connection.close().catch(() => {});
  }
}

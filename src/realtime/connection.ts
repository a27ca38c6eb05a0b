/**
 * @module realtime/connection
 * One participant's signalling connection: its state (new, joined, gone),
 * the strictly ordered handling of its messages, its message budget, its
 * join deadline, and the media-state throttle. What each message does is
 * in handlers/; this file only decides whether and when it runs.
 */
import type { Actor } from '../domain/actors.ts';
import { leavePlace, updateMedia } from '../domain/places.ts';
import { clientDisconnected } from '../domain/waiting/arrival.ts';
import { closeConsole } from '../domain/waiting/consoles.ts';
import type { MediaState, PlaceRef } from '../domain/presence.ts';
import { withdrawKnock } from '../domain/meeting-admin.ts';
import type { ClientConnection, ConnectionState, Handler, HubServices, PendingJoin, Watched } from './contracts.ts';
import { HANDLERS } from './handlers/index.ts';
import { CloseCode, parseClientMessage, ProtocolError, type ClientMessage, type ServerMessage } from './protocol.ts';

/** What the hub needs from a transport connection. */
export interface Peer {
  send(message: ServerMessage): void;
  close(code: number, reason: string): void;
}

/** What a connection needs from the hub that holds it. */
export interface ConnectionHost extends HubServices {
  readonly joinTimeoutMs: number;
  readonly maxMessagesPer10s: number;
  register(connection: Connection, place: PlaceRef): void;
  /** Adds a waiting client or a console to the local followers of a space. */
  follow(connection: Connection, watched: Watched): void;
  forget(connection: Connection): void;
}

/**
 * At most one media-state write (and presence broadcast to every instance)
 * per connection per this interval: a client toggling as fast as it may
 * send would otherwise cost a database write and a fan-out per message.
 * The latest state always lands, at most this much later.
 */
export const MEDIA_UPDATE_INTERVAL_MS = 250;

export class Connection implements ClientConnection {
  state: ConnectionState = 'new';
  place: PlaceRef | undefined;
  entryId: string | undefined;
  watched: Watched | undefined;
  host = false;
  pendingJoin: PendingJoin | undefined;
  private queue: Promise<void> = Promise.resolve();
  private windowStart = Date.now();
  private windowCount = 0;
  private readonly joinTimer: NodeJS.Timeout;
  /** The newest media state not yet written, and the timer that will write it. */
  private pendingMedia: MediaState | null = null;
  private mediaTimer: NodeJS.Timeout | undefined;
  private lastMediaAt = 0;

  constructor(
    readonly hub: ConnectionHost,
    private readonly peer: Peer,
    readonly id: string,
    readonly member: Actor | null = null,
    readonly guestKey: string | null = null,
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
    this.enqueue(() => this.dispatch(message));
  }

  /** Runs `step` after every message before it. */
  enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.hub.log.error({ err: error }, 'realtime: message handling failed');
      this.close(CloseCode.badMessage, 'Internal error.');
    });
    void this.hub.track(this.queue);
  }

  private async dispatch(message: ClientMessage): Promise<void> {
    if (this.state === 'gone') return;
    const handler = HANDLERS[message.type] as Handler<ClientMessage['type']>;
    if (handler.when !== 'any' && !handler.when.includes(this.state)) {
      if (this.state === 'new') return this.refuse(CloseCode.badMessage, 'not_joined', 'Send "join" first.');
      if (message.type === 'join' && this.state === 'joined') return this.refuse(CloseCode.badMessage, 'already_joined', 'Already joined.');
      return this.refuse(CloseCode.badMessage, 'wrong_state', `"${message.type}" is not accepted now.`);
    }
    await handler.handle(this, message);
  }

  /** The join went through: this connection is now in `place`. */
  joined(place: PlaceRef, host = false): void {
    clearTimeout(this.joinTimer);
    const registered = this.place !== undefined;
    this.place = place;
    this.host = host;
    this.pendingJoin = undefined;
    this.state = 'joined';
    if (!registered) this.hub.register(this, place);
  }

  knocks(place: PlaceRef, pending: PendingJoin): void {
    clearTimeout(this.joinTimer);
    this.place = place;
    this.pendingJoin = pending;
    this.state = 'knocking';
    // Registered with the place, so that its end and the admin's decision reach the knocker.
    this.hub.register(this, place);
  }

  waits(entryId: string, watched: Watched): void {
    clearTimeout(this.joinTimer);
    this.entryId = entryId;
    this.watched = watched;
    this.state = 'waiting';
    this.hub.follow(this, watched);
  }

  watches(watched: Watched): void {
    clearTimeout(this.joinTimer);
    this.watched = watched;
    this.state = 'console';
    this.hub.follow(this, watched);
  }

  /** Records the newest media state; written now or, within MEDIA_UPDATE_INTERVAL_MS of the last write, when that has passed. */
  announceMedia(media: MediaState): void {
    this.pendingMedia = media;
    this.scheduleMedia();
  }

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
    await updateMedia(this.hub.ctx, this.id, media);
    this.hub.publish({ t: 'presence', place: this.place! });
    // A state that arrived during the write goes out in the next slot.
    this.scheduleMedia();
  }

  /** The transport closed (either side). */
  closed(): void {
    clearTimeout(this.joinTimer);
    clearTimeout(this.mediaTimer);
    this.mediaTimer = undefined;
    const was = this.state;
    this.state = 'gone';
    this.hub.forget(this);
    if (was === 'waiting' || was === 'console') {
      // After any message still in flight; the grace period (or the console's absence) starts now.
      void this.hub.track(
        this.queue.then(async () => {
          try {
            await (was === 'waiting' ? clientDisconnected(this.hub.ctx, this.id) : closeConsole(this.hub.ctx, this.id));
          } catch (error) {
            this.hub.log.error({ err: error }, 'realtime: could not record a waiting-list departure');
          }
        }),
      );
      return;
    }
    if (was === 'knocking') {
      void this.hub.track(
        this.queue.then(() => withdrawKnock(this.hub.ctx, this.id)).catch((error: unknown) => {
          this.hub.log.error({ err: error }, 'realtime: could not withdraw a knock');
        }),
      );
      return;
    }
    if (was !== 'joined') return;
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
  end(reason: 'closed' | 'deleted', byHost = false): void {
    if (this.state === 'gone') return;
    this.send(byHost ? { type: 'ended', reason, by: 'host' } : { type: 'ended', reason });
    this.close(CloseCode.gone, reason === 'deleted' ? 'Meeting deleted.' : 'Meeting closed.');
  }

  close(code: number, reason: string): void {
    this.peer.close(code, reason);
  }

  /** Tells the client why (an `error` message), then closes with `code`. */
  refuse(code: number, errorCode: string, message: string): void {
    this.send({ type: 'error', code: errorCode, message });
    this.close(code, message.slice(0, 120));
  }
}

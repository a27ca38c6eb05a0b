/**
 * @module realtime/connection
 * One signalling socket: its transport, the strictly ordered handling of
 * its messages, its message budget and its join deadline. Its first
 * message (see sessions/opening.ts) gives it a session for its role; from
 * then on the session's handler table says which messages it takes, and
 * the session's close behaviour runs when the transport closes. This file
 * only decides whether and when a message runs.
 */
import type { Actor } from '../domain/actors.ts';
import { ABNORMAL_CLOSURE } from '../../public/js/shared/close-codes.js';
import { parseClientMessage, ProtocolError } from './client-messages.ts';
import { CloseCode, MAX_UNJOINED_CHARS, type ClientMessage, type ServerMessage } from './protocol.ts';
import type { Handler, HandlerTable, RealtimeServices, Session, SessionHost } from './session.ts';
import type { SignedIn } from './sign-in-watch.ts';

/** What the connection needs from a transport. */
export interface Peer {
  send(message: ServerMessage): void;
  close(code: number, reason: string): void;
}

export interface ConnectionLimits {
  /** A connection that has no session after this long is closed. */
  joinTimeoutMs: number;
  /** Messages a connection may send per 10 seconds. */
  maxMessagesPer10s: number;
}

export class Connection implements SessionHost, SignedIn {
  session: Session | undefined;
  gone = false;
  /** This side closed it (a leave, a refusal, an end, a shutdown): it did not drop. */
  private closedHere = false;
  private queue: Promise<void> = Promise.resolve();
  private windowStart = Date.now();
  private windowCount = 0;
  private readonly joinTimer: NodeJS.Timeout;

  constructor(
    readonly services: RealtimeServices,
    /** The first messages: what each one opens (see sessions/opening.ts). */
    private readonly opening: HandlerTable<SessionHost>,
    private readonly limits: ConnectionLimits,
    private readonly peer: Peer,
    readonly id: string,
    private signedIn: Actor | null = null,
    readonly guestKey: string | null = null,
    readonly address: string | null = null,
  ) {
    this.joinTimer = setTimeout(() => {
      if (!this.session) this.close(CloseCode.joinTimeout, 'No join message in time.');
    }, limits.joinTimeoutMs);
  }

  get member(): Actor | null {
    return this.signedIn;
  }

  send(message: ServerMessage): void {
    if (!this.gone) this.peer.send(message);
  }

  /**
   * The member rights it held ended: every message from now on (those
   * queued included) acts as a guest's, and the session lets go of what
   * it held as the member.
   */
  signedOut(): void {
    if (this.gone) return;
    this.signedIn = null;
    this.session?.signedOut?.();
  }

  /**
   * A member's pass to the meeting it joined: the connection acts as that
   * member from now on (their host powers included), until their rights end.
   */
  actAs(member: Actor): void {
    if (!this.gone) this.signedIn = member;
  }

  /** A text frame from the client. Messages are handled strictly in order. */
  receive(text: string): void {
    if (this.gone) return;
    const now = Date.now();
    if (now - this.windowStart > 10_000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    if (++this.windowCount > this.limits.maxMessagesPer10s) {
      this.refuse(CloseCode.tooManyMessages, 'too_many_messages', 'Too many messages.');
      return;
    }
    // Only a participant's answer to the SFU grows past this; before a join nothing may.
    if (!this.session && text.length > MAX_UNJOINED_CHARS) {
      this.refuse(CloseCode.badMessage, 'bad_message', 'Message too long.');
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

  enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.services.log.error({ err: error }, 'realtime: message handling failed');
      this.close(CloseCode.badMessage, 'Internal error.');
    });
    void this.services.track(this.queue);
  }

  private async dispatch(message: ClientMessage): Promise<void> {
    if (this.gone) return;
    // An application keepalive, whatever the role.
    if (message.type === 'ping') return this.send({ type: 'pong' });
    const { session } = this;
    const table: HandlerTable<never> = session ? session.handlers : this.opening;
    const handler = table[message.type] as Handler<Session | SessionHost, ClientMessage['type']> | undefined;
    if (!handler) {
      if (!session) return this.refuse(CloseCode.badMessage, 'not_joined', 'Send "join" first.');
      return this.refuse(CloseCode.badMessage, 'wrong_state', `"${message.type}" is not accepted now.`);
    }
    await handler(session ?? this, message);
  }

  become(session: Session): void {
    clearTimeout(this.joinTimer);
    this.session = session;
  }

  /**
   * The transport closed (either side), with the close code the client
   * sent (1006 when there was no closing handshake: the network dropped,
   * or the server ended a socket that stopped answering pings); none when
   * the transport refused a frame.
   */
  closed(code?: number): void {
    if (this.gone) return;
    // Only a socket that ended without any closing handshake dropped: any close frame (a client's 1000, a browser's 1001 on leaving the page, ws's own 1009) is meant.
    const dropped = !this.closedHere && code === ABNORMAL_CLOSURE;
    clearTimeout(this.joinTimer);
    this.gone = true;
    this.services.registry.forget(this);
    this.services.signIns.forget(this);
    // After any message still in flight: a session it is still opening (a join finishing) is undone too.
    void this.services.track(
      this.queue.then(async () => {
        try {
          await this.session?.closed({ dropped });
        } catch (error) {
          this.services.log.error({ err: error, role: this.session?.role }, 'realtime: could not undo a closed connection');
        }
      }),
    );
  }

  close(code: number, reason: string): void {
    this.closedHere = true;
    this.peer.close(code, reason);
  }

  refuse(code: number, errorCode: string, message: string): void {
    this.send({ type: 'error', code: errorCode, message });
    this.close(code, message.slice(0, 120));
  }
}

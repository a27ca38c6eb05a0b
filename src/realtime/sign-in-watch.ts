/**
 * @module realtime/sign-in-watch
 * The member rights that this instance's sockets hold, and their end. A
 * socket opened with a member's dashboard session (its cookie, at the
 * upgrade) acts with that session; a participant who joined with a
 * member's pass (domain/member-pass.ts) is that member in their meeting.
 * When the session ends, or the member is removed, the socket lets go of
 * the member (Connection.signedOut): a console closes with 4401
 * `signed_out`; a participant stays in the call as a guest, no longer the
 * host; a knocker knocks on as a guest.
 *
 * How an instance learns it, within CHECK_INTERVAL_MS plus a query:
 * - every instance checks the sessions its sockets hold against the
 *   database on an interval: this catches what no event tells (a session
 *   idle for too long or past SESSION_MAX_HOURS, a member removed or a
 *   password set by another process such as the operator's CLI, which has
 *   no bus to tell the servers, a lost bus message);
 * - and at once when a `member.signed_out` arrives over the bus (a
 *   sign-out, a password set, a member removed or no longer ADMIN, on any
 *   instance).
 * An open socket is use of its session: the check touches the session as
 * a request does, so a console left open all day lasts until
 * SESSION_MAX_HOURS, while a session whose sockets are closed ends after
 * SESSION_IDLE_MINUTES as before.
 */
import { endedSessions, goneMembers } from '../domain/sign-in.ts';
import type { DomainContext } from '../domain/context.ts';

/** How often the sessions of open sockets are checked when no event says so. */
export const CHECK_INTERVAL_MS = 1000;

/** What a socket holds a member's rights by: their session (its id hash), or a pass (null). */
export interface Holding {
  userId: string;
  organizationId: string;
  sessionHash: string | null;
}

/** A socket holding a member's rights. */
export interface SignedIn {
  /** The rights ended: from now on the socket acts as a guest. */
  signedOut(): void;
}

interface Logger {
  error(object: object, message: string): void;
}

export class SignInWatch {
  private readonly held = new Map<SignedIn, Holding[]>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly ctx: DomainContext,
    private readonly log: Logger,
    private readonly track: <T>(promise: Promise<T>) => Promise<T>,
    readonly intervalMs = CHECK_INTERVAL_MS,
  ) {}

  watch(socket: SignedIn, holding: Holding): void {
    const holdings = this.held.get(socket);
    if (holdings) holdings.push(holding);
    else this.held.set(socket, [holding]);
  }

  forget(socket: SignedIn): void {
    this.held.delete(socket);
  }

  /** Sockets holding a member's rights here (for tests and metrics). */
  get size(): number {
    return this.held.size;
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Checks now (a sign-out somewhere); a check asked for while one runs runs once more after it. */
  checkNow(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.track(
      (async () => {
        do {
          this.again = false;
          await this.check().catch((error: unknown) => this.log.error({ err: error }, 'realtime: could not check the sign-ins of open sockets'));
        } while (this.again && !this.stopped);
      })().finally(() => {
        this.running = undefined;
        this.schedule();
      }),
    );
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.checkNow(), this.intervalMs);
    this.timer.unref();
  }

  private async check(): Promise<void> {
    if (this.held.size === 0) return;
    const hashes = new Set<string>();
    const passes = new Map<string, { organizationId: string; userId: string }>();
    for (const holdings of this.held.values()) {
      for (const h of holdings) {
        if (h.sessionHash) hashes.add(h.sessionHash);
        else passes.set(h.userId, h);
      }
    }
    const endedHashes = hashes.size > 0 ? await endedSessions(this.ctx, [...hashes]) : new Set<string>();
    const gone = passes.size > 0 ? await goneMembers(this.ctx, [...passes.values()]) : new Set<string>();
    for (const [socket, holdings] of this.held) {
      if (!holdings.some((h) => (h.sessionHash ? endedHashes.has(h.sessionHash) : gone.has(h.userId)))) continue;
      this.held.delete(socket);
      socket.signedOut();
    }
  }
}

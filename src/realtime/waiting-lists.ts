/**
 * @module realtime/waiting-lists
 * Waiting lists on this instance: the waiting clients and member consoles
 * that follow each board or queue, what they are sent when its line
 * changes (anywhere: the bus carries a `waiting_list` message from the instance
 * where the change happened, see event-translator.ts), and auto-accept run
 * where a change happened.
 *
 * Pushes are coalesced per space: a burst of changes (a flood of
 * arrivals) reads the line once and sends each follower one update.
 */
import type { DomainEvent } from '../domain/events.ts';
import type { LiveContext } from '../domain/lifecycle.ts';
import { dispatchAutoAccept } from '../domain/waiting/serving.ts';
import { clientViewIn, consoleView, waitingListSnapshot } from '../domain/waiting/views.ts';
import { CloseCode, type ServerMessage } from './protocol.ts';

/** The board or queue a waiting client or a console follows. */
export interface Watched {
  organizationId: string;
  spaceId: string;
  kind: 'board' | 'queue';
}

/** A waiting client's or a member console's session, as lines use it. */
export type Follower = {
  readonly watched: Watched;
  send(message: ServerMessage): void;
  refuse(code: number, errorCode: string, message: string): void;
} & ({ readonly role: 'waiting'; readonly entryId: string } | { readonly role: 'console'; readonly userId: string });

interface Logger {
  error(object: object, message: string): void;
}

/** Changes closer together than this are sent as one. */
const COALESCE_MS = 25;

export class WaitingLists {
  private readonly followers = new Map<string, Set<Follower>>();
  private readonly pushing = new Map<string, NodeJS.Timeout>();
  private readonly dispatching = new Set<string>();

  constructor(
    private readonly ctx: LiveContext,
    private readonly log: Logger,
    private readonly track: <T>(promise: Promise<T>) => Promise<T>,
  ) {}

  follow(follower: Follower): void {
    let set = this.followers.get(follower.watched.spaceId);
    if (!set) this.followers.set(follower.watched.spaceId, (set = new Set()));
    set.add(follower);
  }

  forget(follower: Follower): void {
    const set = this.followers.get(follower.watched.spaceId);
    set?.delete(follower);
    if (set?.size === 0) this.followers.delete(follower.watched.spaceId);
  }

  /** A domain event of this instance: a line that changed here gives free auto-accepting members their next client. */
  afterChange(event: DomainEvent): void {
    if (event.type === 'waiting.changed' || (event.type === 'space.changed' && !event.deleted)) this.scheduleDispatch(event.organizationId, event.spaceId);
  }

  /** A line changed somewhere: send this instance's followers of it their view, once per burst. */
  changed(organizationId: string, spaceId: string): void {
    if (!this.followers.has(spaceId) || this.pushing.has(spaceId)) return;
    this.pushing.set(
      spaceId,
      setTimeout(() => {
        this.pushing.delete(spaceId);
        void this.track(this.push(organizationId, spaceId));
      }, COALESCE_MS),
    );
  }

  /** Sends every follower on this instance its view again (after changes elsewhere may have gone unannounced). */
  refreshAll(): void {
    for (const set of this.followers.values()) {
      const watched = set.values().next().value?.watched;
      if (watched) this.changed(watched.organizationId, watched.spaceId);
    }
  }

  private async push(organizationId: string, spaceId: string): Promise<void> {
    const followers = [...(this.followers.get(spaceId) ?? [])];
    if (followers.length === 0) return;
    try {
      const snapshot = await waitingListSnapshot(this.ctx, organizationId, spaceId);
      for (const follower of followers) {
        if (!snapshot) {
          follower.refuse(CloseCode.gone, 'gone', 'This board or queue no longer exists.');
        } else if (follower.role === 'console') {
          const { userId } = follower;
          if (snapshot.space.members.some((m) => m.userId === userId)) follower.send({ type: 'console', view: consoleView(snapshot, userId) });
          else follower.refuse(CloseCode.notJoinable, 'not_member', 'You are no longer a member of this board or queue.');
        } else {
          const view = await clientViewIn(this.ctx, snapshot, follower.entryId);
          if (view) follower.send({ type: 'waiting', token: undefined, view });
        }
      }
    } catch (error) {
      this.log.error({ err: error }, 'realtime: could not send a waiting list');
    }
  }

  private scheduleDispatch(organizationId: string, spaceId: string): void {
    if (this.dispatching.has(spaceId)) return;
    this.dispatching.add(spaceId);
    setImmediate(() => {
      this.dispatching.delete(spaceId);
      void this.track(
        dispatchAutoAccept(this.ctx, organizationId, spaceId).catch((error: unknown) => {
          this.log.error({ err: error }, 'realtime: auto-accept failed');
        }),
      );
    });
  }

  stop(): void {
    for (const timer of this.pushing.values()) clearTimeout(timer);
    this.pushing.clear();
  }
}

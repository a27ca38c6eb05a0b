/**
 * @module domain/events
 * What happened, as the domain tells it: every command that changes
 * something worth telling raises events, and the publisher hands them to
 * every listener. Two kinds of listener:
 * - transactional ones run inside the transaction that raised the events,
 *   with its store, so what they write (an outbox) commits with the change
 *   or not at all;
 * - the others run after the commit (the realtime side ending a meeting's
 *   calls, the lookup cache forgetting a revoked key). A failing listener
 *   is reported and does not stop the others.
 */
import type { Store } from './ports/store.ts';
import type { MediaState, PlaceRef } from './presence.ts';
import type { FinalWaitingState, Readiness, WaitingOutcome } from './waiting/types.ts';

interface EventBase {
  organizationId: string;
  at: Date;
}

export type DomainEvent = EventBase &
  (
    | { type: 'meeting.created'; meetingId: string }
    | { type: 'meeting.started'; meetingId: string }
    | { type: 'meeting.ended'; meetingId: string; reason: 'closed' | 'deleted'; byUserId?: string; byApiKeyId?: string }
    | { type: 'meeting.locked'; meetingId: string; byUserId?: string }
    | { type: 'meeting.unlocked'; meetingId: string; byUserId?: string }
    | { type: 'meeting.chat_changed'; meetingId: string; chatOff: boolean; byUserId?: string }
    | { type: 'meeting.knocked'; meetingId: string; knockId: string; displayName: string }
    | { type: 'meeting.knock.withdrawn'; meetingId: string; knockId: string }
    | { type: 'participant.admitted'; meetingId: string; knockId: string; displayName: string; byUserId?: string }
    | { type: 'participant.turned_away'; meetingId: string; knockId: string; displayName: string; byUserId?: string }
    | { type: 'participant.removed'; meetingId: string; participantId: string; displayName: string; byUserId?: string }
    | { type: 'participant.mute_requested'; meetingId: string; participantId: string; byUserId?: string }
    | { type: 'participant.hand_lowered'; meetingId: string; participantId: string; byUserId?: string }
    | { type: 'room.session.started'; sessionId: string; ownerKind: 'room' | 'board'; ownerId: string }
    | { type: 'room.session.ended'; sessionId: string }
    | { type: 'participant.joined'; place: PlaceRef; participantId: string; displayName: string; media: MediaState; host: boolean }
    | { type: 'participant.left'; place: PlaceRef; participantId: string }
    | { type: 'waiting.client.joined'; spaceId: string; entryId: string; displayName: string; readiness: Readiness | null }
    | { type: 'waiting.client.accepted'; spaceId: string; entryId: string; userId: string; meetingId: string }
    | { type: 'waiting.client.left'; spaceId: string; entryId: string; state: FinalWaitingState; outcome: WaitingOutcome }
    | { type: 'waiting.changed'; spaceId: string }
    | { type: 'member.status.changed'; spaceId: string; userId: string; isActive: boolean; isAutoAccepting: boolean }
    | { type: 'space.changed'; spaceId: string; deleted: boolean }
    | { type: 'api_key.revoked'; publicKey: string }
    | { type: 'member.signed_out'; userId: string }
    | { type: 'organization.origins_changed' }
    | { type: 'organization.quota_changed' }
  );

export type DomainEventType = DomainEvent['type'];

export type EventListener = (event: DomainEvent) => void;
export type TransactionalListener = (tx: Store, events: readonly DomainEvent[]) => Promise<void>;

export class EventPublisher {
  private readonly listeners = new Set<EventListener>();
  private readonly transactional = new Set<TransactionalListener>();

  /** `onListenerError` hears what a post-commit listener threw; the event still reaches the others. */
  constructor(private readonly onListenerError: (error: unknown, event: DomainEvent) => void = () => {}) {}

  /** Hears every event after its transaction committed. Returns the way to stop listening. */
  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hears the events of a transaction inside it; what it throws rolls the transaction back. */
  subscribeInTransaction(listener: TransactionalListener): () => void {
    this.transactional.add(listener);
    return () => this.transactional.delete(listener);
  }

  async recordInTransaction(tx: Store, events: readonly DomainEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (const listener of this.transactional) await listener(tx, events);
  }

  publish(events: readonly DomainEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (error) {
          this.onListenerError(error, event);
        }
      }
    }
  }
}

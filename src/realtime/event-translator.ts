/**
 * @module realtime/event-translator
 * What every instance must hear of a domain event raised on this one, as
 * bus messages: a participant who joined or left (the changed participant,
 * a delta), a place that ended, the host's decisions, a waiting
 * list that changed, a member signed out. Events that concern no socket become nothing.
 */
import type { DomainEvent } from '../domain/events.ts';
import type { PlaceRef } from '../domain/presence.ts';
import type { BusMessage } from './bus.ts';

export function busMessagesOf(event: DomainEvent): BusMessage[] {
  switch (event.type) {
    case 'participant.joined': {
      const { participantId: id, displayName, media, host, at } = event;
      return [{ t: 'presence', place: event.place, change: { kind: 'joined', participant: { id, displayName, ...media, host, joinedAt: at.getTime() } } }];
    }
    case 'participant.left':
      return [{ t: 'presence', place: event.place, change: { kind: 'left', participantId: event.participantId } }];
    case 'meeting.ended': {
      const ended: BusMessage = { t: 'ended', place: meeting(event.meetingId), reason: event.reason };
      // Ended for everyone by the host, or by the organization's server acting as its host (the API).
      return [event.byUserId !== undefined || event.byApiKeyId !== undefined ? { ...ended, byHost: true } : ended];
    }
    case 'room.session.ended':
      return [{ t: 'ended', place: { kind: 'session', id: event.sessionId }, reason: 'closed' }];
    case 'meeting.locked':
    case 'meeting.unlocked':
      return [{ t: 'lock', place: meeting(event.meetingId), locked: event.type === 'meeting.locked' }];
    case 'meeting.knocked':
    case 'meeting.knock.withdrawn':
      return [{ t: 'knocks', place: meeting(event.meetingId) }];
    case 'participant.admitted':
    case 'participant.turned_away': {
      const place = meeting(event.meetingId);
      return [
        { t: 'admission', place, knockId: event.knockId, admitted: event.type === 'participant.admitted' },
        { t: 'knocks', place },
      ];
    }
    case 'participant.removed':
      // Their leaving travels as the `participant.left` raised with it.
      return [{ t: 'removed', place: meeting(event.meetingId), participantId: event.participantId }];
    case 'participant.mute_requested':
      return [{ t: 'mute', place: meeting(event.meetingId), to: event.participantId }];
    case 'meeting.chat_changed':
      return [{ t: 'chat_state', place: meeting(event.meetingId), off: event.chatOff }];
    case 'participant.hand_lowered':
      return [{ t: 'lower_hand', place: meeting(event.meetingId), to: event.participantId }];
    case 'member.signed_out':
      return [{ t: 'signed_out', userId: event.userId }];
    case 'waiting.changed':
    case 'space.changed':
      return [{ t: 'waiting_list', organizationId: event.organizationId, spaceId: event.spaceId }];
    default:
      return [];
  }
}

function meeting(id: string): PlaceRef {
  return { kind: 'meeting', id };
}

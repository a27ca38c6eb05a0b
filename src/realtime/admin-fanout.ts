/**
 * @module realtime/admin-fanout
 * The meeting admin's decisions, from the domain's events to the sockets
 * they concern on every instance: the instance where the admin acted
 * publishes one bus message per event, and each instance delivers it to
 * its own connections of that meeting (the knocker let in or turned away,
 * the participant removed or asked to mute, the admins whose knock list
 * changed, everyone when the lock changes).
 */
import type { DomainEvent } from '../domain/events.ts';
import { knocksOf } from '../domain/meeting-admin.ts';
import type { PlaceRef } from '../domain/presence.ts';
import type { BusMessage } from './bus.ts';
import type { ClientConnection } from './contracts.ts';
import { enterAdmitted } from './handlers/join.ts';
import { CloseCode, knockView } from './protocol.ts';

/** A local connection, as the fan-out uses it. */
export interface AdminTarget extends ClientConnection {
  enqueue(step: () => Promise<void>): void;
}

/** What to tell every instance about an admin's event; nothing for other events. */
export function busMessagesOf(event: DomainEvent): BusMessage[] {
  if (!('meetingId' in event)) return [];
  const place: PlaceRef = { kind: 'meeting', id: event.meetingId };
  switch (event.type) {
    case 'meeting.locked':
    case 'meeting.unlocked':
      return [{ t: 'lock', place, locked: event.type === 'meeting.locked' }];
    case 'meeting.knocked':
    case 'meeting.knock.withdrawn':
      return [{ t: 'knocks', place }];
    case 'participant.admitted':
    case 'participant.turned_away':
      return [
        { t: 'admission', place, knockId: event.knockId, admitted: event.type === 'participant.admitted' },
        { t: 'knocks', place },
      ];
    case 'participant.removed':
      return [{ t: 'removed', place, participantId: event.participantId }, { t: 'presence', place }];
    case 'participant.mute_requested':
      return [{ t: 'mute', place, to: event.participantId }];
    default:
      return [];
  }
}

type AdminMessage = Extract<BusMessage, { t: 'lock' | 'knocks' | 'admission' | 'removed' | 'mute' }>;

export function isAdminMessage(message: BusMessage): message is AdminMessage {
  return ['lock', 'knocks', 'admission', 'removed', 'mute'].includes(message.t);
}

/** Delivers an admin's bus message to this instance's connections of its meeting. */
export async function deliverAdmin(message: AdminMessage, local: Iterable<AdminTarget>): Promise<void> {
  const connections = [...local];
  const byId = (id: string) => connections.find((c) => c.id === id);
  switch (message.t) {
    case 'lock':
      for (const c of connections) if (c.state === 'joined') c.send({ type: 'lock', locked: message.locked });
      return;
    case 'knocks': {
      const hosts = connections.filter((c) => c.state === 'joined' && c.host);
      if (hosts.length === 0) return;
      const knocks = (await knocksOf(hosts[0]!.hub.ctx, hosts[0]!.member, message.place.id)).map(knockView);
      for (const c of hosts) c.send({ type: 'knocks', knocks });
      return;
    }
    case 'admission': {
      const knocker = byId(message.knockId);
      if (knocker?.state !== 'knocking') return;
      if (message.admitted) knocker.enqueue(() => enterAdmitted(knocker));
      else knocker.refuse(CloseCode.turnedAway, 'turned_away', 'The host did not let you in.');
      return;
    }
    case 'removed': {
      const target = byId(message.participantId);
      if (target?.state === 'joined') target.refuse(CloseCode.removed, 'removed', 'The host removed you from this meeting.');
      return;
    }
    case 'mute': {
      const target = byId(message.to);
      if (target?.state === 'joined') target.send({ type: 'mute_requested' });
      return;
    }
  }
}

/**
 * @module realtime/bus-router
 * Delivers what arrives on the bus (from this instance or another) to the
 * part of this instance it concerns: a presence change to the held
 * participant lists, a relayed offer or candidate to its participant, a
 * chat message or reaction to everyone of its place here, a
 * place's end to everyone of it here, a host's decision to the members
 * of its meeting, a changed waiting list to its followers, a sign-out to
 * the sign-in watch. What is not
 * for anyone here is dropped.
 */
import { deliverHostDecision, isHostMessage } from './host-delivery.ts';
import type { BusMessage } from './bus.ts';
import type { RealtimeServices } from './session.ts';

export function routeBusMessage(services: RealtimeServices, message: BusMessage): void {
  const { registry, participantLists, waitingLists, ctx, log } = services;
  switch (message.t) {
    case 'presence':
      participantLists.apply(message.place, message.change);
      // Whoever just joined holds a list read from the database, without hands: the raised ones are said again.
      if (message.change.kind === 'joined') {
        for (const p of registry.participants(message.place)) if (p.hand && p.id !== message.change.participant.id) p.reannounceHand();
      }
      return;
    case 'hands':
      for (const p of registry.participants(message.place)) p.reannounceHand();
      return;
    case 'broadcast':
      for (const p of registry.participants(message.place)) p.send(message.message);
      return;
    case 'waiting_list':
    case 'line':
      waitingLists.changed(message.organizationId, message.spaceId);
      return;
    case 'signal': {
      const target = registry.member(message.place, message.to);
      if (target?.role === 'participant') target.send(message.message);
      return;
    }
    case 'resumed': {
      const held = registry.member(message.place, message.participantId);
      if (held?.role === 'participant' && held.connection.id !== message.socketId) held.takenOver();
      // Resumed on another instance, whose link publishes anew: the one kept here would be a second feed of theirs.
      if (held?.role !== 'participant' || held.connection.id !== message.socketId) services.sfuParking.discard(message.participantId);
      return;
    }
    case 'ended':
      registry.end(message.place, message.reason, message.byHost === true);
      return;
    case 'signed_out':
      services.signIns.checkNow();
      return;
  }
  if (!isHostMessage(message)) return;
  const members = registry.members(message.place);
  if (members.length === 0) return;
  void services.track(
    deliverHostDecision(ctx, message, members).catch((error: unknown) => log.error({ err: error }, 'realtime: could not deliver a host decision')),
  );
}

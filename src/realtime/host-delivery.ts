/**
 * @module realtime/host-delivery
 * The host's decisions, delivered on each instance to the members
 * of that meeting it holds: the knocker let in or turned away, the
 * participant removed, asked to mute or their hand lowered, the hosts whose knock list
 * changed, everyone when the lock changes. (Which domain events become
 * these bus messages: event-translator.ts.)
 */
import type { LiveContext } from '../domain/lifecycle.ts';
import { knocksOf } from '../domain/hosting.ts';
import type { BusMessage } from './bus.ts';
import { CloseCode, knockView } from './protocol.ts';
import type { PlaceMember } from './registry.ts';

export type HostMessage = Extract<BusMessage, { t: 'lock' | 'knocks' | 'admission' | 'removed' | 'mute' | 'lower_hand' | 'chat_state' }>;

const HOST_MESSAGES: ReadonlySet<BusMessage['t']> = new Set(['lock', 'knocks', 'admission', 'removed', 'mute', 'lower_hand', 'chat_state']);

export function isHostMessage(message: BusMessage): message is HostMessage {
  return HOST_MESSAGES.has(message.t);
}

/** Delivers a host's bus message to this instance's members of its meeting. */
export async function deliverHostDecision(ctx: LiveContext, message: HostMessage, members: PlaceMember[]): Promise<void> {
  const participants = members.filter((m) => m.role === 'participant');
  switch (message.t) {
    case 'lock':
      for (const p of participants) p.send({ type: 'lock', locked: message.locked });
      return;
    case 'chat_state':
      for (const p of participants) {
        p.chatTurned(message.off);
        p.send({ type: 'chat_state', off: message.off });
      }
      return;
    case 'knocks': {
      const hosts = participants.filter((p) => p.host);
      if (hosts.length === 0) return;
      const knocks = (await knocksOf(ctx, hosts[0]!.member, message.place.id)).map(knockView);
      for (const host of hosts) host.send({ type: 'knocks', knocks });
      return;
    }
    case 'admission': {
      const knocker = members.find((m) => m.id === message.knockId);
      if (knocker?.role !== 'knocker') return;
      if (message.admitted) knocker.admitted();
      else knocker.turnedAway();
      return;
    }
    case 'removed': {
      const target = participants.find((p) => p.id === message.participantId);
      target?.refuse(CloseCode.removed, 'removed', 'The host removed you from this meeting.');
      return;
    }
    case 'mute': {
      const target = participants.find((p) => p.id === message.to);
      target?.send({ type: 'mute_requested' });
      return;
    }
    case 'lower_hand': {
      // Lowered where the hand is kept (this participant's own session), and their page told why.
      const target = participants.find((p) => p.id === message.to);
      if (!target?.hand) return;
      target.lowerHand();
      target.send({ type: 'hand_lowered', by: 'host' });
      return;
    }
  }
}

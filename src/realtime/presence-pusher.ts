/**
 * @module realtime/presence-pusher
 * Sends a place's participant list to its participants on this instance
 * whenever the list held here changes (protocol: `participants`, always
 * the whole list, oldest first).
 */
import type { PlaceRef } from '../domain/presence.ts';
import type { ListedParticipant } from './bus.ts';
import { participantView } from './protocol.ts';
import type { Registry } from './registry.ts';

export function pushPresence(registry: Registry, place: PlaceRef, entries: readonly ListedParticipant[]): void {
  const local = registry.participants(place);
  if (local.length === 0) return;
  const participants = entries.map(participantView);
  for (const participant of local) participant.send({ type: 'participants', participants });
}

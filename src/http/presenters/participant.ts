/**
 * @module http/presenters/participant
 * Someone in a meeting now, as `GET /v3/meeting/:id/participants` shows
 * them: the id webhooks and the embedded page's events use, their name,
 * since when, what they send, and whether they host.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import type { Participant } from '../../domain/presence.ts';
import { named } from '../openapi-document.ts';

export const ParticipantSchema = named('Participant', Type.Object({
  participantId: Type.String({ description: 'Their connection’s id; the participantId of webhooks and embedded-page events. A reconnect is a new participant.' }),
  displayName: Type.String(),
  joinedAt: Type.String({ format: 'date-time' }),
  audio: Type.Boolean({ description: 'Their microphone is on.' }),
  video: Type.Boolean({ description: 'Their camera is on.' }),
  screen: Type.Boolean({ description: 'They share their screen.' }),
  host: Type.Boolean({ description: 'They host the meeting (its owner, or for a meeting without one an ADMIN).' }),
}));

export const ParticipantListSchema = named('ParticipantList', Type.Object({ participants: Type.Array(ParticipantSchema) }));

export function presentParticipant(p: Participant): Static<typeof ParticipantSchema> {
  return { participantId: p.id, displayName: p.displayName, joinedAt: p.joinedAt.toISOString(), audio: p.audio, video: p.video, screen: p.screen, host: p.host };
}

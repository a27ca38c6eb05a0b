/**
 * @module http/v3/meeting-control
 * A meeting run from the organization's server (Foyer extensions of v3):
 * who is in it now, ending it for everyone, removing a participant: the
 * host's End and Remove, with the same effect in the call and the same
 * webhooks (`meeting.ended`, `participant.removed`, `participant.left`).
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { LiveContext } from '../../domain/lifecycle.ts';
import { endMeetingNow, meetingParticipants, removeMeetingParticipant } from '../../domain/meeting-control.ts';
import { actorOf } from '../plugins/auth.ts';
import { MeetingV3ReadSchema, presentMeetingV3Read } from '../presenters/meeting.ts';
import { ParticipantListSchema, ParticipantSchema, presentParticipant } from '../presenters/participant.ts';
import { MeetingIdParams, problemResponses } from '../route-schemas.ts';

type V3Instance = Parameters<FastifyPluginAsyncTypebox>[0];

const tags = ['v3'];
const EXTENSION = 'Foyer extension of the spec.';
const ParticipantParams = Type.Object({
  id: MeetingIdParams.properties.id,
  participantId: Type.String({ maxLength: 64, description: 'A participantId from the participant list (or a webhook, or an embedded page’s event).' }),
});

export function registerMeetingControlRoutes(app: V3Instance, live: LiveContext): void {
  app.get(
    '/meeting/:id/participants',
    {
      schema: {
        tags,
        operationId: 'v3ListMeetingParticipants',
        summary: 'Who is in the meeting now, oldest first (across every instance); empty once it has ended',
        description: EXTENSION,
        params: MeetingIdParams,
        response: { 200: ParticipantListSchema, ...problemResponses(404) },
      },
    },
    async (request) => ({ participants: (await meetingParticipants(live, actorOf(request), request.params.id)).map(presentParticipant) }),
  );

  app.post(
    '/meeting/:id/end',
    {
      schema: {
        tags,
        operationId: 'v3EndMeeting',
        summary: 'End the meeting for everyone now (the host’s End); answers it, closed',
        description: `${EXTENSION} Everyone in the call is told it ended; its page answers 410 from then on; webhook meeting.ended (reason closed). Unlike DELETE, the meeting stays readable. A call with a waiting client ends as the member’s hang-up does (the client is served). 409 when it has already ended.`,
        params: MeetingIdParams,
        response: { 200: MeetingV3ReadSchema, ...problemResponses(404, 409) },
      },
    },
    async (request) => presentMeetingV3Read(live.publicUrl, await endMeetingNow(live, actorOf(request), request.params.id), live.now()),
  );

  app.delete(
    '/meeting/:id/participants/:participantId',
    {
      schema: {
        tags,
        operationId: 'v3RemoveMeetingParticipant',
        summary: 'Remove a participant (the host’s Remove); answers them as they were',
        description: `${EXTENSION} They leave at once and, recognised by their browser (or member), knock if they come back during this meeting. Webhooks participant.removed (without byUserId) and participant.left. The host cannot be removed (400).`,
        params: ParticipantParams,
        response: { 200: ParticipantSchema, ...problemResponses(400, 404) },
      },
    },
    async (request) => presentParticipant(await removeMeetingParticipant(live, actorOf(request), request.params.id, request.params.participantId)),
  );
}

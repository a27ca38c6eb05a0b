/**
 * @module http/v3/waiting
 * A board's or queue's waiting list served from the organization's server
 * (Foyer extensions of v3): the line, and accepting, declining or taking
 * the next client for a member, through the commands a member's console
 * uses, with the same webhooks (`waiting.client.accepted`,
 * `waiting.client.left`). The answer to a take is the member's own link
 * to the call.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { LiveContext } from '../../domain/lifecycle.ts';
import { memberEntry } from '../../domain/member-pass.ts';
import { ConflictError } from '../../domain/errors.ts';
import { acceptFor, declineFor, removeFor, takeNextFor, waitingClients } from '../../domain/waiting/dispatch.ts';
import { DECLINE_MESSAGE_MAX, type Assignment } from '../../domain/waiting/serving.ts';
import type { SpaceKind } from '../../domain/types.ts';
import { actorOf } from '../plugins/auth.ts';
import { presentTakenClient, presentWaitingClient, TakenClientSchema, WaitingListSchema } from '../presenters/waiting.ts';
import { spaceId } from '../path-values.ts';
import { documented, named } from '../openapi-document.ts';
import { BODY_ERRORS, SpaceIdParams, problemResponses, requestId, responseId } from '../route-schemas.ts';

type V3Instance = Parameters<FastifyPluginAsyncTypebox>[0];

const tags = ['v3'];
const EXTENSION = 'Foyer extension of the spec.';
const EntryParams = Type.Object({ id: SpaceIdParams.properties.id, entryId: requestId('A waiting entry id from the line.') });
const ForMemberBody = Type.Object({
  userId: documented(Type.String({ maxLength: 64, description: 'A member of the board or queue (its membersIds), who serves the client.' }), { format: 'uuid' }),
});
const DeclineBody = Type.Object({ message: Type.Optional(Type.String({ maxLength: DECLINE_MESSAGE_MAX, description: 'Shown to the client on their waiting page.' })) });
const DeclinedSchema = named('DeclinedClient', Type.Object({ entryId: responseId(), outcome: Type.Literal('declined') }));
const RemovedSchema = named('RemovedClient', Type.Object({ entryId: responseId(), outcome: Type.Literal('removed') }));

/** The member's link to the call: the meeting's address with their pass, and their name for the pre-join screen. */
async function memberLink(live: LiveContext, organizationId: string, assignment: Assignment): Promise<string> {
  const { pass, displayName } = await memberEntry(live, organizationId, assignment.meetingId, assignment.memberId);
  const url = new URL(`${live.publicUrl}/meetings/${assignment.meetingId}`);
  url.searchParams.set('pass', pass);
  if (displayName) url.searchParams.set('displayName', displayName);
  return url.href;
}

export function registerWaitingRoutes(app: V3Instance, live: LiveContext): void {
  for (const kind of ['board', 'queue'] as SpaceKind[]) {
    app.delete(
      `/rooms/${kind}/:id/waiting/:entryId`,
      {
        schema: {
          tags,
          operationId: kind === 'board' ? 'v3RemoveBoardClient' : 'v3RemoveQueueClient',
          summary: `Take a client out of the ${kind}’s line`,
          description: `${EXTENSION} As a member’s Remove in their console: for places that are no real client (a flood, a duplicate). The client’s page says they could not be admitted; webhook waiting.client.left (outcome removed). 404 when the client is no longer waiting.`,
          params: EntryParams,
          response: { 200: RemovedSchema, ...problemResponses(404) },
        },
      },
      async (request) => {
        await removeFor(live, actorOf(request), kind, spaceId(kind, request.params.id), request.params.entryId);
        return { entryId: request.params.entryId, outcome: 'removed' as const };
      },
    );

    app.get(
      `/rooms/${kind}/:id/waiting`,
      {
        schema: {
          tags,
          operationId: kind === 'board' ? 'v3ListBoardWaiting' : 'v3ListQueueWaiting',
          summary: `The ${kind}’s waiting list now, first first`,
          description: `${EXTENSION} Clients who are there, or away within the grace period; not those already taken.`,
          params: SpaceIdParams,
          response: { 200: WaitingListSchema, ...problemResponses(404) },
        },
      },
      async (request) => ({ waiting: (await waitingClients(live, actorOf(request), kind, spaceId(kind, request.params.id))).map(presentWaitingClient) }),
    );
  }

  app.post(
    '/rooms/board/:id/waiting/:entryId/accept',
    {
      schema: {
        tags,
        operationId: 'v3AcceptBoardClient',
        summary: 'Accept a waiting client for a member of the board; answers the member’s link to the call',
        description: `${EXTENSION} Exactly as the member’s Accept in their console: the client is taken into a private call (a CONSULTATION the member hosts), webhook waiting.client.accepted. 400 when userId is not a member of the board; 404 when the client is no longer waiting; 409 when the board or member is not active, or the member already serves someone.`,
        params: EntryParams,
        body: ForMemberBody,
        response: { 200: TakenClientSchema, ...problemResponses(...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const taken = await acceptFor(live, actor, spaceId('board', request.params.id), request.params.entryId, request.body.userId);
      return presentTakenClient(taken, await memberLink(live, actor.organization.id, taken));
    },
  );

  app.post(
    '/rooms/board/:id/waiting/:entryId/decline',
    {
      schema: {
        tags,
        operationId: 'v3DeclineBoardClient',
        summary: 'Turn a waiting client away, with an optional message they see',
        description: `${EXTENSION} Webhook waiting.client.left (outcome declined). 404 when the client is no longer waiting.`,
        params: EntryParams,
        body: Type.Optional(DeclineBody),
        response: { 200: DeclinedSchema, ...problemResponses(...BODY_ERRORS, 404) },
      },
    },
    async (request) => {
      await declineFor(live, actorOf(request), spaceId('board', request.params.id), request.params.entryId, request.body?.message);
      return { entryId: request.params.entryId, outcome: 'declined' as const };
    },
  );

  app.post(
    '/rooms/queue/:id/next',
    {
      schema: {
        tags,
        operationId: 'v3TakeNextQueueClient',
        summary: 'Give the next waiting client to a member of the queue; answers the member’s link to the call',
        description: `${EXTENSION} Exactly as the member’s "take next": the first client still waiting. 400 when userId is not a member of the queue; 409 when nobody waits, the queue or member is not active, or the member already serves someone.`,
        params: SpaceIdParams,
        body: ForMemberBody,
        response: { 200: TakenClientSchema, ...problemResponses(...BODY_ERRORS, 404, 409) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const taken = await takeNextFor(live, actor, spaceId('queue', request.params.id), request.body.userId);
      if (!taken) throw new ConflictError('queue', 'Nobody is waiting in this queue.');
      return presentTakenClient(taken, await memberLink(live, actor.organization.id, taken));
    },
  );
}

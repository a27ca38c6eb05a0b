/**
 * @module http/v2/plugin
 * API v2, under `/v2`: JSON request bodies, camelCase field names.
 * Organization, meetings and rooms; the room gains `organizationSlug`.
 * This file only translates between that wire format and the domain.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DomainContext } from '../../domain/context.ts';
import { createMeeting, getMeeting } from '../../domain/meetings.ts';
import { readOrganization } from '../../domain/organizations.ts';
import { ROOM_TITLE_MAX, createRoom, getRoom } from '../../domain/rooms.ts';
import { SLUG_MAX } from '../../domain/slugs.ts';
import { actorOf } from '../plugins/auth.ts';
import { installErrorHandler } from '../plugins/errors.ts';
import { MeetingV2Schema, presentMeetingV2 } from '../presenters/meeting.ts';
import { OrganizationSchema, presentOrganization } from '../presenters/organization.ts';
import { RoomV2Schema, presentRoomV2 } from '../presenters/room.ts';
import { roomSlug } from '../path-values.ts';
import { BODY_ERRORS, MeetingIdParams, SlugParams, problemResponses } from '../route-schemas.ts';
import { JSON_MEDIA_TYPE, acceptJsonBodies, installBodyDefaults, locationOf } from '../wire.ts';

const tags = ['v2'];

const CreateMeetingV2Body = Type.Object({
  ownerEmail: Type.Optional(
    Type.String({ description: 'Email of a member of the organization; required for a medical organization, optional for a basic one. Matched case-insensitively.' }),
  ),
});

const CreateRoomV2Body = Type.Object({
  slug: Type.String({ maxLength: SLUG_MAX, description: 'Lowercase letters, digits and single hyphens, 3 to 64 characters; shared namespace with boards and queues.' }),
  title: Type.Optional(Type.String({ maxLength: ROOM_TITLE_MAX })),
});

export const v2Plugin: FastifyPluginAsyncTypebox<{ ctx: DomainContext }> = async (app, { ctx }) => {
  installErrorHandler(app, { renameField: (field) => field, bodyMediaType: JSON_MEDIA_TYPE });
  await acceptJsonBodies(app);
  installBodyDefaults(app);

  app.get(
    '/organizations',
    {
      schema: {
        tags,
        operationId: 'v2GetOrganization',
        summary: 'The caller’s organization and its users',
        description: 'The organization the API key belongs to, with all its users (id, name, email, role).',
        response: { 200: OrganizationSchema, ...problemResponses() },
      },
    },
    async (request) => presentOrganization(await readOrganization(ctx, actorOf(request))),
  );

  app.post(
    '/meeting',
    {
      schema: {
        tags,
        operationId: 'v2CreateMeeting',
        summary: 'Create a meeting',
        description: 'Creates a meeting and answers where its participants meet. ownerEmail is required for a medical organization; a basic organization may send no body at all.',
        body: CreateMeetingV2Body,
        response: { 201: MeetingV2Schema, ...problemResponses(...BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      const meeting = await createMeeting(ctx, actorOf(request), { ownerEmail: request.body.ownerEmail });
      reply.code(201).header('location', locationOf(request, meeting.id));
      return presentMeetingV2(ctx.publicUrl, meeting);
    },
  );

  app.get(
    '/meeting/:id',
    {
      schema: {
        tags,
        operationId: 'v2GetMeeting',
        summary: 'Read a meeting',
        description: 'One meeting of the caller’s organization; another organization’s meeting, or a path id that is not a UUID, answers 404.',
        params: MeetingIdParams,
        response: { 200: MeetingV2Schema, ...problemResponses(404) },
      },
    },
    async (request) => presentMeetingV2(ctx.publicUrl, await getMeeting(ctx, actorOf(request), request.params.id)),
  );

  app.post(
    '/room',
    {
      schema: {
        tags,
        operationId: 'v2CreateRoom',
        summary: 'Create a room',
        description: 'Creates a room: a permanent meeting place at {redirect_host}/<slug>. Slugs share one namespace with boards and queues, across organizations (409 when taken).',
        body: CreateRoomV2Body,
        response: { 201: RoomV2Schema, ...problemResponses(...BODY_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const room = await createRoom(ctx, actor, { slug: request.body.slug, title: request.body.title });
      reply.code(201).header('location', locationOf(request, room.slug));
      return presentRoomV2(ctx.publicUrl, actor.organization, room);
    },
  );

  app.get(
    '/room/:slug',
    {
      schema: {
        tags,
        operationId: 'v2GetRoom',
        summary: 'Read a room by slug',
        description: 'One room of the caller’s organization by its slug; another organization’s room answers 404.',
        params: SlugParams,
        response: { 200: RoomV2Schema, ...problemResponses(404) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      return presentRoomV2(ctx.publicUrl, actor.organization, await getRoom(ctx, actor, roomSlug(request.params.slug)));
    },
  );
};

/**
 * @module http/v1/plugin
 * API v1, at the root of the API prefix: form-encoded request bodies,
 * snake_case field names (`owner_email`, `redirect_url`). Organization,
 * meetings and rooms. This file only translates between that wire format
 * and the domain commands.
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DomainContext } from '../../domain/context.ts';
import { createMeeting, getMeeting } from '../../domain/meetings.ts';
import { readOrganization } from '../../domain/organizations.ts';
import { ROOM_TITLE_MAX, createRoom, getRoom } from '../../domain/rooms.ts';
import { SLUG_MAX } from '../../domain/slugs.ts';
import { actorOf } from '../plugins/auth.ts';
import { installErrorHandler } from '../plugins/errors.ts';
import { presentMeetingV1, MeetingV1Schema } from '../presenters/meeting.ts';
import { OrganizationSchema, presentOrganization } from '../presenters/organization.ts';
import { presentRoomV1, RoomV1Schema } from '../presenters/room.ts';
import { roomSlug } from '../path-values.ts';
import { BODY_ERRORS, MeetingIdParams, SlugParams, problemResponses } from '../route-schemas.ts';
import { FORM_MEDIA_TYPE, acceptFormBodies, installBodyDefaults, locationOf } from '../wire.ts';

/** Domain field names that v1 spells differently. */
const V1_FIELD_NAMES: Record<string, string> = { ownerEmail: 'owner_email' };

const tags = ['v1'];

const CreateMeetingV1Body = Type.Object({
  owner_email: Type.Optional(
    Type.String({ description: 'Email of a member of the organization; required for a medical organization, optional for a basic one. Matched case-insensitively.' }),
  ),
});

const CreateRoomV1Body = Type.Object({
  slug: Type.String({ maxLength: SLUG_MAX, description: 'Lowercase letters, digits and single hyphens, 3 to 64 characters; shared namespace with boards and queues.' }),
  title: Type.Optional(Type.String({ maxLength: ROOM_TITLE_MAX })),
});

export const v1Plugin: FastifyPluginAsyncTypebox<{ ctx: DomainContext }> = async (app, { ctx }) => {
  installErrorHandler(app, { renameField: (field) => V1_FIELD_NAMES[field] ?? field, bodyMediaType: FORM_MEDIA_TYPE });
  await acceptFormBodies(app);
  installBodyDefaults(app);

  app.get(
    '/organizations',
    {
      schema: {
        tags,
        operationId: 'v1GetOrganization',
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
        operationId: 'v1CreateMeeting',
        summary: 'Create a meeting',
        description: 'Creates a meeting and answers where its participants meet. ownerEmail is required for a medical organization; a basic organization may send no body at all.',
        consumes: [FORM_MEDIA_TYPE],
        body: CreateMeetingV1Body,
        response: { 201: MeetingV1Schema, ...problemResponses(...BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      const meeting = await createMeeting(ctx, actorOf(request), { ownerEmail: request.body.owner_email });
      reply.code(201).header('location', locationOf(request, meeting.id));
      return presentMeetingV1(ctx.publicUrl, meeting);
    },
  );

  app.get(
    '/meeting/:id',
    {
      schema: {
        tags,
        operationId: 'v1GetMeeting',
        summary: 'Read a meeting',
        description: 'One meeting of the caller’s organization; another organization’s meeting, or a path id that is not a UUID, answers 404.',
        params: MeetingIdParams,
        response: { 200: MeetingV1Schema, ...problemResponses(404) },
      },
    },
    async (request) => presentMeetingV1(ctx.publicUrl, await getMeeting(ctx, actorOf(request), request.params.id)),
  );

  app.post(
    '/room',
    {
      schema: {
        tags,
        operationId: 'v1CreateRoom',
        summary: 'Create a room',
        description: 'Creates a room: a permanent meeting place at {redirect_host}/<slug>. Slugs share one namespace with boards and queues, across organizations (409 when taken).',
        consumes: [FORM_MEDIA_TYPE],
        body: CreateRoomV1Body,
        response: { 201: RoomV1Schema, ...problemResponses(...BODY_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      const room = await createRoom(ctx, actorOf(request), { slug: request.body.slug, title: request.body.title });
      reply.code(201).header('location', locationOf(request, room.slug));
      return presentRoomV1(ctx.publicUrl, room);
    },
  );

  app.get(
    '/room/:slug',
    {
      schema: {
        tags,
        operationId: 'v1GetRoom',
        summary: 'Read a room by slug',
        description: 'One room of the caller’s organization by its slug; another organization’s room answers 404.',
        params: SlugParams,
        response: { 200: RoomV1Schema, ...problemResponses(404) },
      },
    },
    async (request) => presentRoomV1(ctx.publicUrl, await getRoom(ctx, actorOf(request), roomSlug(request.params.slug))),
  );
};

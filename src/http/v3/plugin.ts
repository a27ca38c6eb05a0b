/**
 * @module http/v3/plugin
 * API v3, under `/v3`: JSON request bodies, camelCase field names. Adds
 * meeting types, `isInfinite`, client-chosen `meetingId`, `queryParameters`
 * with the short redirect URL, meeting deletion, room read by slug (rooms
 * are created through v1/v2), boards and queues (see `spaces.ts`), and,
 * beyond the spec, webhook endpoints (see `webhooks.ts`) and the origins
 * allowed to embed the pages (`allowed-origins.ts`).
 */
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DomainContext } from '../../domain/context.ts';
import type { LiveContext } from '../../domain/lifecycle.ts';
import { createMeeting, deleteMeeting, getMeeting } from '../../domain/meetings.ts';
import { readOrganization } from '../../domain/organizations.ts';
import { getRoom } from '../../domain/rooms.ts';
import { actorOf } from '../plugins/auth.ts';
import { installErrorHandler } from '../plugins/errors.ts';
import { MeetingV3ReadSchema, MeetingV3Schema, presentMeetingV3, presentMeetingV3Read } from '../presenters/meeting.ts';
import { OrganizationSchema, presentOrganization } from '../presenters/organization.ts';
import { RoomV2Schema, presentRoomV2 } from '../presenters/room.ts';
import { roomSlug } from '../path-values.ts';
import { documented, named } from '../openapi-document.ts';
import { BODY_ERRORS, MeetingIdParams, SlugParams, problemResponses } from '../route-schemas.ts';
import { JSON_MEDIA_TYPE, acceptJsonBodies, installBodyDefaults, locationOf } from '../wire.ts';
import { registerSpaceRoutes } from './spaces.ts';
import { registerWebhookRoutes } from './webhooks.ts';
import { registerAllowedOriginRoutes } from './allowed-origins.ts';
import { registerMeetingControlRoutes } from './meeting-control.ts';
import { registerWaitingRoutes } from './waiting.ts';
import { registerIceServerRoutes } from './ice-servers.ts';
import type { IceConfig } from '../../config.ts';

const tags = ['v3'];

const CreateMeetingV3Body = named('CreateMeetingV3', Type.Object({
  ownerEmail: Type.Optional(
    Type.String({ description: 'Email of a member of the organization, who administers the meeting; required for a medical organization, optional for a basic one. Matched case-insensitively.' }),
  ),
  // Matched in any letter case by the domain; the enum names the canonical spelling.
  type: Type.Optional(documented(Type.String({ description: 'MEETING (default) or CONSULTATION; any letter case is accepted.' }), { enum: ['MEETING', 'CONSULTATION'] })),
  isInfinite: Type.Optional(Type.Boolean({ description: 'True keeps a MEETING open for ever; an error with CONSULTATION.' })),
  meetingId: Type.Optional(documented(Type.String({ description: 'UUID v4 to use as the meeting id; 409 when taken.' }), { format: 'uuid' })),
  queryParameters: Type.Optional(
    Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
      description: 'Flat object of strings, numbers or booleans, applied to the meeting page; when given, redirectUrl is the short form {redirect_host}/m/<code>.',
    }),
  ),
  waitForOwner: Type.Optional(
    Type.Boolean({
      description:
        'Foyer extension. True: the meeting is locked until its owner first joins (arrivals knock and the owner lets them in). Default: true for a CONSULTATION with an ownerEmail, false otherwise; true needs ownerEmail.',
    }),
  ),
  title: Type.Optional(
    Type.String({
      description:
        'Foyer extension. What the call page shows as the meeting’s name, beside the organization’s (for example "Follow-up, knee"). At most 100 characters; trimmed; empty means none; no control characters. 400 otherwise.',
    }),
  ),
}));

export const v3Plugin: FastifyPluginAsyncTypebox<{ ctx: DomainContext; live: LiveContext; ice: IceConfig }> = async (app, { ctx, live, ice }) => {
  // The spec spells the member list `membersIds`; the domain calls it `memberIds`.
  installErrorHandler(app, { renameField: (field) => (field === 'memberIds' ? 'membersIds' : field), bodyMediaType: JSON_MEDIA_TYPE });
  await acceptJsonBodies(app);
  installBodyDefaults(app);

  app.get(
    '/organizations',
    {
      schema: {
        tags,
        operationId: 'v3GetOrganization',
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
        operationId: 'v3CreateMeeting',
        summary: 'Create a meeting or consultation',
        description: 'Creates a MEETING or CONSULTATION and answers where its participants meet. Every field is optional for a basic organization (a bare POST creates a meeting); ownerEmail is required for a medical one.',
        body: CreateMeetingV3Body,
        response: { 201: MeetingV3Schema, ...problemResponses(...BODY_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const meeting = await createMeeting(ctx, actorOf(request), {
        ownerEmail: body.ownerEmail,
        type: body.type,
        isInfinite: body.isInfinite,
        meetingId: body.meetingId,
        queryParameters: body.queryParameters,
        waitForOwner: body.waitForOwner,
        title: body.title,
      });
      reply.code(201).header('location', locationOf(request, meeting.id));
      return presentMeetingV3(ctx.publicUrl, meeting);
    },
  );

  app.get(
    '/meeting/:id',
    {
      schema: {
        tags,
        operationId: 'v3GetMeeting',
        summary: 'Read a meeting, with whether it is still open',
        description: 'One meeting of the caller’s organization; another organization’s meeting, or a path id that is not a UUID, answers 404. Beside the spec’s fields, state and closedAt say whether it is still open.',
        params: MeetingIdParams,
        response: { 200: MeetingV3ReadSchema, ...problemResponses(404) },
      },
    },
    async (request) => presentMeetingV3Read(ctx.publicUrl, await getMeeting(ctx, actorOf(request), request.params.id), ctx.now()),
  );

  app.delete(
    '/meeting/:id',
    {
      schema: {
        tags,
        operationId: 'v3DeleteMeeting',
        summary: 'Delete (end) a meeting; answers the deleted meeting',
        description: 'Ends the meeting at once for everyone in it (webhook meeting.ended, reason deleted) and answers it as it was; afterwards it is 404 in every version.',
        params: MeetingIdParams,
        response: { 200: MeetingV3Schema, ...problemResponses(404) },
      },
    },
    async (request) => presentMeetingV3(ctx.publicUrl, await deleteMeeting(ctx, actorOf(request), request.params.id)),
  );

  app.get(
    '/room/:slug',
    {
      schema: {
        tags,
        operationId: 'v3GetRoom',
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

  registerSpaceRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
  registerAllowedOriginRoutes(app, ctx);
  registerIceServerRoutes(app, ctx, ice);
  registerMeetingControlRoutes(app, live);
  registerWaitingRoutes(app, live);
};

/**
 * @module http/v3/spaces
 * v3 boards (`/rooms/board`) and queues (`/rooms/queue`): create, read,
 * update (POST to the object) and delete. One domain concept with two
 * kinds; the two sets of routes differ only in `hasWaitingList`.
 */
import { Type, type FastifyPluginAsyncTypebox, type Static } from '@fastify/type-provider-typebox';
import type { DomainContext } from '../../domain/context.ts';
import { SLUG_MAX } from '../../domain/slugs.ts';
import { CLOSING_MESSAGE_MAX, MEMBERS_MAX, SPACE_NAME_MAX, createSpace, deleteSpace, getSpace, updateSpace } from '../../domain/spaces.ts';
import type { Space, SpaceKind } from '../../domain/types.ts';
import { actorOf } from '../plugins/auth.ts';
import { BoardSchema, CreatedSpaceSchema, QueueSchema, presentBoard, presentCreatedSpace, presentQueue } from '../presenters/space.ts';
import { spaceId } from '../path-values.ts';
import { documented } from '../openapi-document.ts';
import { BODY_ERRORS, SpaceIdParams, problemResponses } from '../route-schemas.ts';
import { locationOf } from '../wire.ts';

type V3Instance = Parameters<FastifyPluginAsyncTypebox>[0];

const tags = ['v3'];

const name = Type.String({ maxLength: SPACE_NAME_MAX });
const slug = Type.String({
  maxLength: SLUG_MAX,
  description: 'Lowercase letters, digits and single hyphens, 3 to 64 characters; one namespace with rooms, boards and queues.',
});
const closingMessage = Type.String({ maxLength: CLOSING_MESSAGE_MAX });
const membersIds = Type.Array(documented(Type.String(), { format: 'uuid' }), {
  maxItems: MEMBERS_MAX,
  description: 'Replaces the member set: user ids of the organization, each at most once.',
});

const CreateBoardBody = Type.Object({
  name,
  slug,
  closingMessage: Type.Optional(Type.String({ maxLength: CLOSING_MESSAGE_MAX, description: 'Board description; "" when omitted.' })),
  hasWaitingList: Type.Optional(Type.Boolean({ description: 'Default true.' })),
});

const UpdateBoardBody = Type.Object({
  name: Type.Optional(name),
  slug: Type.Optional(slug),
  closingMessage: Type.Optional(closingMessage),
  membersIds: Type.Optional(membersIds),
  isActive: Type.Optional(Type.Boolean()),
  hasWaitingList: Type.Optional(Type.Boolean()),
});

const CreateQueueBody = Type.Object({
  name,
  slug,
  closingMessage: Type.Optional(Type.String({ maxLength: CLOSING_MESSAGE_MAX, description: 'Shown while the queue is not active; "" when omitted.' })),
});

const UpdateQueueBody = Type.Object({
  name: Type.Optional(name),
  slug: Type.Optional(slug),
  closingMessage: Type.Optional(closingMessage),
  membersIds: Type.Optional(membersIds),
  isActive: Type.Optional(Type.Boolean({ description: 'Not in the spec’s parameter list but sent by its sample; honoured.' })),
});

interface KindRoutes {
  kind: SpaceKind;
  label: string;
  createBody: typeof CreateBoardBody | typeof CreateQueueBody;
  updateBody: typeof UpdateBoardBody | typeof UpdateQueueBody;
  schema: typeof BoardSchema | typeof QueueSchema;
  present(publicUrl: string, space: Space): Static<typeof BoardSchema> | Static<typeof QueueSchema>;
}

const KINDS: KindRoutes[] = [
  { kind: 'board', label: 'Board', createBody: CreateBoardBody, updateBody: UpdateBoardBody, schema: BoardSchema, present: presentBoard },
  { kind: 'queue', label: 'Queue', createBody: CreateQueueBody, updateBody: UpdateQueueBody, schema: QueueSchema, present: presentQueue },
];

/** Request bodies after validation; fields absent from a kind's schema never arrive. */
interface SpaceBody {
  name?: string;
  slug?: string;
  closingMessage?: string;
  hasWaitingList?: boolean;
  membersIds?: string[];
  isActive?: boolean;
}

export function registerSpaceRoutes(app: V3Instance, ctx: DomainContext): void {
  for (const k of KINDS) {
    const base = `/rooms/${k.kind}`;

    app.post(
      base,
      {
        schema: {
          tags,
          operationId: `v3Create${k.label}`,
          summary: `Create a ${k.kind}; answers its id and redirect URL`,
          description: `Creates a ${k.kind} of the caller’s organization with no members yet (add them with an update). The slug shares one namespace with rooms, across organizations: 409 when taken.`,
          body: k.createBody,
          response: { 201: CreatedSpaceSchema, ...problemResponses(...BODY_ERRORS, 409) },
        },
      },
      async (request, reply) => {
        const body = request.body as SpaceBody;
        const space = await createSpace(ctx, actorOf(request), k.kind, {
          name: body.name,
          slug: body.slug,
          closingMessage: body.closingMessage,
          hasWaitingList: k.kind === 'board' ? body.hasWaitingList : undefined,
        });
        reply.code(201).header('location', locationOf(request, space.id));
        return presentCreatedSpace(ctx.publicUrl, space);
      },
    );

    app.get(
      `${base}/:id`,
      {
        schema: {
          tags,
          operationId: `v3Get${k.label}`,
          summary: `Read a ${k.kind}`,
          description: `One ${k.kind} of the caller’s organization, with its members and their status; another organization’s answers 404.`,
          params: SpaceIdParams,
          response: { 200: k.schema, ...problemResponses(404) },
        },
      },
      async (request) => {
        const space = await getSpace(ctx, actorOf(request), k.kind, spaceId(k.kind, request.params.id));
        return k.present(ctx.publicUrl, space);
      },
    );

    app.post(
      `${base}/:id`,
      {
        schema: {
          tags,
          operationId: `v3Update${k.label}`,
          summary: `Update a ${k.kind}; answers the updated ${k.kind}`,
          description: `Changes the fields given (all optional); membersIds replaces the member set, in the given order. Nothing changes when any field is invalid.`,
          params: SpaceIdParams,
          body: k.updateBody,
          response: { 200: k.schema, ...problemResponses(...BODY_ERRORS, 404, 409) },
        },
      },
      async (request) => {
        const body = request.body as SpaceBody;
        const space = await updateSpace(ctx, actorOf(request), k.kind, spaceId(k.kind, request.params.id), {
          name: body.name,
          slug: body.slug,
          closingMessage: body.closingMessage,
          memberIds: body.membersIds,
          isActive: body.isActive,
          hasWaitingList: k.kind === 'board' ? body.hasWaitingList : undefined,
        });
        return k.present(ctx.publicUrl, space);
      },
    );

    app.delete(
      `${base}/:id`,
      {
        schema: {
          tags,
          operationId: `v3Delete${k.label}`,
          summary: `Delete a ${k.kind}; answers the deleted ${k.kind}`,
          description: `Deletes the ${k.kind}: every wait and call in it ends, its slug is freed; afterwards 404.`,
          params: SpaceIdParams,
          response: { 200: k.schema, ...problemResponses(404) },
        },
      },
      async (request) => {
        const space = await deleteSpace(ctx, actorOf(request), k.kind, spaceId(k.kind, request.params.id));
        return k.present(ctx.publicUrl, space);
      },
    );
  }
}

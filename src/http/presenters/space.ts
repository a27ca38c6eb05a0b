/**
 * @module http/presenters/space
 * v3 boards and queues. Both present the same fields except that a queue
 * has no `hasWaitingList`. `closingMessage` is always a string ("" when none
 * was set) and `joinedCallAt` an ISO 8601 timestamp or null.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { slugUrl } from '../../domain/links.ts';
import type { Member, Space } from '../../domain/types.ts';
import { named } from '../openapi-document.ts';
import { responseId } from '../route-schemas.ts';

export const MemberSchema = named('Member', Type.Object({
  userId: responseId('UUID v4 of the member (a user of the organization).'),
  fullName: Type.String(),
  isActive: Type.Boolean(),
  isAutoAccepting: Type.Boolean({ description: 'True when the member accepts clients into a call automatically.' }),
  joinedCallAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When the member joined a call; null when not in a call.',
  }),
}));

const common = {
  id: responseId('UUID v4 generated at creation.'),
  name: Type.String(),
  slug: Type.String(),
  isActive: Type.Boolean(),
  organizationId: responseId('UUID v4 of the owning organization.'),
  closingMessage: Type.String({ description: 'Empty string when none was set.' }),
};
const members = Type.Array(MemberSchema);
const redirectUrl = Type.String({ description: '{redirect_host}/<slug>' });

export const BoardSchema = named(
  'Board',
  Type.Object({
    ...common,
    hasWaitingList: Type.Boolean({ description: 'When true a member admits each joining client; when false clients connect at once.' }),
    members,
    redirectUrl,
  }),
);

export const QueueSchema = named('Queue', Type.Object({ ...common, members, redirectUrl }));

export const CreatedSpaceSchema = named('CreatedSpace', Type.Object({ id: common.id, redirectUrl }));

function presentMember(member: Member): Static<typeof MemberSchema> {
  return {
    userId: member.userId,
    fullName: member.fullName,
    isActive: member.isActive,
    isAutoAccepting: member.isAutoAccepting,
    joinedCallAt: member.joinedCallAt ? member.joinedCallAt.toISOString() : null,
  };
}

export function presentBoard(publicUrl: string, board: Space): Static<typeof BoardSchema> {
  return {
    id: board.id,
    name: board.name,
    slug: board.slug,
    isActive: board.isActive,
    organizationId: board.organizationId,
    closingMessage: board.closingMessage ?? '',
    hasWaitingList: board.hasWaitingList,
    members: board.members.map(presentMember),
    redirectUrl: slugUrl(publicUrl, board),
  };
}

export function presentQueue(publicUrl: string, queue: Space): Static<typeof QueueSchema> {
  return {
    id: queue.id,
    name: queue.name,
    slug: queue.slug,
    isActive: queue.isActive,
    organizationId: queue.organizationId,
    closingMessage: queue.closingMessage ?? '',
    members: queue.members.map(presentMember),
    redirectUrl: slugUrl(publicUrl, queue),
  };
}

export function presentCreatedSpace(publicUrl: string, space: Space): Static<typeof CreatedSpaceSchema> {
  return { id: space.id, redirectUrl: slugUrl(publicUrl, space) };
}

/**
 * @module http/presenters/room
 * The room object: v1 in snake_case without the organization; v2 and v3
 * (same shape) add `organizationSlug`. A room without a title has no
 * `title` key.
 */
import { Type, type Static } from '@fastify/type-provider-typebox';
import { slugUrl } from '../../domain/links.ts';
import type { Organization, Room } from '../../domain/types.ts';
import { named } from '../openapi-document.ts';

const title = Type.Optional(Type.String({ description: 'Omitted when the room has no title.' }));
const slug = Type.String({ description: 'Last path segment of the room URL.' });
const redirectUrl = Type.String({ description: '{redirect_host}/<slug>' });

export const RoomV1Schema = named('RoomV1', Type.Object({ title, slug, redirect_url: redirectUrl }));
export const RoomV2Schema = named('RoomV2', Type.Object({ title, slug, organizationSlug: Type.String(), redirectUrl }));

export function presentRoomV1(publicUrl: string, room: Room): Static<typeof RoomV1Schema> {
  const redirect = slugUrl(publicUrl, room);
  if (room.title === null) return { slug: room.slug, redirect_url: redirect };
  return { title: room.title, slug: room.slug, redirect_url: redirect };
}

/** Used by v2 and v3. */
export function presentRoomV2(publicUrl: string, organization: Organization, room: Room): Static<typeof RoomV2Schema> {
  const redirect = slugUrl(publicUrl, room);
  if (room.title === null) return { slug: room.slug, organizationSlug: organization.slug, redirectUrl: redirect };
  return { title: room.title, slug: room.slug, organizationSlug: organization.slug, redirectUrl: redirect };
}

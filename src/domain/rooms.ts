/**
 * @module domain/rooms
 * Rooms: permanent, slug-addressed meeting places (v1, v2; read in v3).
 */
import type { Actor } from './actors.ts';
import type { DomainContext } from './context.ts';
import { NotFoundError, ValidationError, type FieldError } from './errors.ts';
import { newId } from './ids.ts';
import type { MeetingPorts } from './meeting-ports.ts';
import { readPage, type Page } from './pages.ts';
import type { PageRequest } from './pages.ts';
import { authorize } from './policies.ts';
import { slugProblem } from './slugs.ts';
import { checkText } from './text.ts';
import type { Room } from './types.ts';

export const ROOM_TITLE_MAX = 200;

export interface CreateRoomInput {
  slug?: string | undefined;
  title?: string | undefined;
}

export async function createRoom(ctx: DomainContext<MeetingPorts>, actor: Actor, input: CreateRoomInput): Promise<Room> {
  authorize(actor, 'room.manage');
  const errors: FieldError[] = [];
  if (input.slug === undefined || input.slug === '') {
    errors.push({ field: 'slug', message: 'slug is required.' });
  } else {
    const problem = slugProblem(input.slug);
    if (problem) errors.push(problem);
  }
  checkText(errors, 'title', input.title, { max: ROOM_TITLE_MAX });
  if (errors.length) throw new ValidationError(errors);

  const room: Room = {
    id: newId(),
    organizationId: actor.organization.id,
    slug: input.slug!,
    // An empty title is no title: the room object then omits it.
    title: input.title?.trim() ? input.title : null,
    createdAt: ctx.now(),
  };
  await ctx.store.insertRoom(room);
  return room;
}

export async function getRoom(ctx: DomainContext<MeetingPorts>, actor: Actor, slug: string): Promise<Room> {
  authorize(actor, 'room.manage');
  const room = await ctx.store.findRoom(actor.organization.id, slug);
  if (!room) throw new NotFoundError('room');
  return room;
}

/** The organization's rooms, newest first. */
export async function listRooms(ctx: DomainContext<MeetingPorts>, actor: Actor, page: PageRequest): Promise<Page<Room>> {
  authorize(actor, 'room.manage');
  return readPage(page, (p) => ctx.store.listRooms(actor.organization.id, p));
}

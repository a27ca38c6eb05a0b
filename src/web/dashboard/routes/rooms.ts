/**
 * @module web/dashboard/routes/rooms
 * Rooms: the organization's permanent meeting places, each at its own
 * slug. The list (newest first, with each room's link), and the form that
 * creates one through the API's own domain command.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../domain/errors.ts';
import { slugUrl } from '../../../domain/links.ts';
import { createRoom, getRoom, listRooms } from '../../../domain/rooms.ts';
import { isSlugShaped } from '../../../domain/slugs.ts';
import type { Room } from '../../../domain/types.ts';
import { formOf, otherErrors, refusal, slugPrefix, text, type FieldErrors } from '../forms.ts';
import { pageRequest, pager } from '../paging.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, requireMember } from '../session.ts';
import { dashboardLang } from '../texts.ts';
import { moment } from '../times.ts';

const BASE = `${DASHBOARD}/rooms`;
const SHOWN_FIELDS = ['slug', 'title'];

export const roomRoutes: DashboardRoutes = (app, { ctx }) => {
  app.get('/rooms', async (request, reply) => {
    const actor = requireMember(request);
    const lang = dashboardLang(request, reply);
    const page = pageRequest(request.query);
    const found = await listRooms(ctx, actor, page);
    const row = (room: Room) => ({ id: room.id, slug: room.slug, title: room.title, url: slugUrl(ctx.publicUrl, room), created: moment(room.createdAt, lang) });
    // The room just made, found again by its slug, so its link can be shown first.
    const createdSlug = (request.query as Record<string, unknown>).created;
    let created: ReturnType<typeof row> | undefined;
    if (typeof createdSlug === 'string' && isSlugShaped(createdSlug)) {
      created = await getRoom(ctx, actor, createdSlug).then(row, (error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
    }
    return renderPage(request, reply, 'rooms', { rooms: found.items.map(row), pager: pager(BASE, page, found), created });
  });

  const showForm = (request: FastifyRequest, reply: FastifyReply, values: { slug: string; title: string }, errors: FieldErrors, status: number) =>
    renderPage(request, reply, 'room-new', { values, errors, others: otherErrors(errors, SHOWN_FIELDS), slugPrefix: slugPrefix(ctx.publicUrl) }, status);

  app.get('/rooms/new', async (request, reply) => {
    requireMember(request);
    return showForm(request, reply, { slug: '', title: '' }, {}, 200);
  });

  app.post('/rooms', async (request, reply) => {
    const actor = requireMember(request);
    const form = formOf(request);
    const values = { slug: text(form, 'slug').trim(), title: text(form, 'title') };
    try {
      const room = await createRoom(ctx, actor, { slug: values.slug, title: values.title });
      return reply.redirect(`${BASE}?created=${room.slug}`, 303);
    } catch (error) {
      const refused = refusal(error);
      if (!refused) throw error;
      return showForm(request, reply, values, refused.errors, refused.status);
    }
  });
};

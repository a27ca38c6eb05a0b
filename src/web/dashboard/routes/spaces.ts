/**
 * @module web/dashboard/routes/spaces
 * Boards and queues ("spaces"): the list of each kind, creating one, an
 * edit page for every field the API's update takes (members picked from
 * the organization's users), and deleting. One set of routes per kind,
 * through the API's own domain commands.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../domain/actors.ts';
import { slugUrl } from '../../../domain/links.ts';
import { readOrganization } from '../../../domain/organizations.ts';
import { can } from '../../../domain/policies.ts';
import { createSpace, deleteSpace, getSpace, listSpaces, updateSpace } from '../../../domain/spaces.ts';
import type { Space, SpaceKind } from '../../../domain/types.ts';
import { checked, formOf, otherErrors, pathId, refusal, slugPrefix, text, texts, type FieldErrors, type FormBody } from '../forms.ts';
import { pageRequest, pager } from '../paging.ts';
import { renderPage } from '../render.ts';
import { consoleHrefFor } from './consoles.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, requireMember } from '../session.ts';
import { dashboardLang } from '../texts.ts';
import { moment } from '../times.ts';

const KINDS: Array<{ kind: SpaceKind; path: string }> = [
  { kind: 'board', path: 'boards' },
  { kind: 'queue', path: 'queues' },
];
const SHOWN_FIELDS = ['name', 'slug', 'closingMessage', 'memberIds', 'isActive', 'hasWaitingList'];
const NOTICES = ['saved', 'deleted'] as const;

interface SpaceForm {
  name: string;
  slug: string;
  closingMessage: string;
  isActive: boolean;
  hasWaitingList: boolean;
  memberIds: string[];
}

function valuesOf(space: Space): SpaceForm {
  return {
    name: space.name,
    slug: space.slug,
    closingMessage: space.closingMessage ?? '',
    isActive: space.isActive,
    hasWaitingList: space.hasWaitingList,
    memberIds: space.members.map((m) => m.userId),
  };
}

function typedValues(form: FormBody): SpaceForm {
  return {
    name: text(form, 'name'),
    slug: text(form, 'slug').trim(),
    closingMessage: text(form, 'closingMessage'),
    isActive: checked(form, 'isActive'),
    hasWaitingList: checked(form, 'hasWaitingList'),
    memberIds: texts(form, 'memberIds'),
  };
}

/** Members kept stay in their order (it is the order the live pages show); added ones follow. */
function memberOrder(current: Space, picked: string[]): string[] {
  const chosen = new Set(picked);
  const kept = current.members.map((m) => m.userId).filter((id) => chosen.has(id));
  return [...kept, ...picked.filter((id) => !kept.includes(id))];
}

export const spaceRoutes: DashboardRoutes = (app, { ctx }) => {
  for (const { kind, path } of KINDS) {
    const base = `${DASHBOARD}/${path}`;

    const showNew = (request: FastifyRequest, reply: FastifyReply, values: SpaceForm, errors: FieldErrors, status: number) =>
      renderPage(request, reply, 'space-new', { kind, base, values, errors, others: otherErrors(errors, SHOWN_FIELDS), slugPrefix: slugPrefix(ctx.publicUrl) }, status);

    const showEdit = async (request: FastifyRequest, reply: FastifyReply, actor: Actor, space: Space, values: SpaceForm, errors: FieldErrors, status: number) => {
      const { users } = await readOrganization(ctx, actor);
      const created = (request.query as Record<string, unknown>).created !== undefined;
      return renderPage(
        request,
        reply,
        'space-edit',
        {
          kind,
          base,
          space: {
            id: space.id,
            name: space.name,
            url: slugUrl(ctx.publicUrl, space),
            consoleHref: consoleHrefFor(actor, space),
            historyHref: can(actor, 'space.audit') && (kind === 'queue' || space.hasWaitingList) ? `${base}/${space.id}/history` : undefined,
          },
          users: users.map((u) => ({ id: u.id, name: u.fullName, email: u.email })),
          values,
          errors,
          others: otherErrors(errors, SHOWN_FIELDS),
          slugPrefix: slugPrefix(ctx.publicUrl),
          notice: created ? `${kind}.created` : undefined,
        },
        status,
      );
    };

    app.get(`/${path}`, async (request, reply) => {
      const actor = requireMember(request);
      const lang = dashboardLang(request, reply);
      const page = pageRequest(request.query);
      const found = await listSpaces(ctx, actor, kind, page);
      const query = request.query as Record<string, unknown>;
      const notice = NOTICES.find((key) => query[key] !== undefined);
      return renderPage(request, reply, 'spaces', {
        kind,
        base,
        spaces: found.items.map((space) => ({
          id: space.id,
          name: space.name,
          slug: space.slug,
          isActive: space.isActive,
          hasWaitingList: space.hasWaitingList,
          members: space.members.map((m) => m.fullName),
          // Those the member serves and that have a line get a way to their console.
          console: consoleHrefFor(actor, space),
          url: slugUrl(ctx.publicUrl, space),
          created: moment(space.createdAt, lang),
        })),
        pager: pager(base, page, found),
        notice: notice && `${kind}.${notice}`,
      });
    });

    app.get(`/${path}/new`, async (request, reply) => {
      requireMember(request);
      return showNew(request, reply, { name: '', slug: '', closingMessage: '', isActive: true, hasWaitingList: kind === 'board', memberIds: [] }, {}, 200);
    });

    app.post(`/${path}`, async (request, reply) => {
      const actor = requireMember(request);
      const values = typedValues(formOf(request));
      try {
        const space = await createSpace(ctx, actor, kind, {
          name: values.name,
          slug: values.slug,
          // Left empty is not given, as when the API's caller omits it.
          closingMessage: values.closingMessage || undefined,
          hasWaitingList: kind === 'board' ? values.hasWaitingList : undefined,
        });
        return reply.redirect(`${base}/${space.id}?created`, 303);
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        return showNew(request, reply, values, refused.errors, refused.status);
      }
    });

    app.get<{ Params: { id: string } }>(`/${path}/:id`, async (request, reply) => {
      const actor = requireMember(request);
      const space = await getSpace(ctx, actor, kind, pathId(request.params.id, kind));
      return showEdit(request, reply, actor, space, valuesOf(space), {}, 200);
    });

    app.post<{ Params: { id: string } }>(`/${path}/:id`, async (request, reply) => {
      const actor = requireMember(request);
      const id = pathId(request.params.id, kind);
      const current = await getSpace(ctx, actor, kind, id);
      const values = typedValues(formOf(request));
      try {
        await updateSpace(ctx, actor, kind, id, {
          name: values.name,
          slug: values.slug,
          closingMessage: values.closingMessage,
          memberIds: memberOrder(current, values.memberIds),
          isActive: values.isActive,
          hasWaitingList: kind === 'board' ? values.hasWaitingList : undefined,
        });
        return reply.redirect(`${base}?saved`, 303);
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        return showEdit(request, reply, actor, current, values, refused.errors, refused.status);
      }
    });

    app.post<{ Params: { id: string } }>(`/${path}/:id/delete`, async (request, reply) => {
      const actor = requireMember(request);
      await deleteSpace(ctx, actor, kind, pathId(request.params.id, kind));
      return reply.redirect(`${base}?deleted`, 303);
    });
  }
};

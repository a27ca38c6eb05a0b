/**
 * @module web/dashboard/routes/consoles
 * A member's consoles: `/consoles` lists the boards with a waiting list and
 * the queues the signed-in member is on; `/boards/:id/console` and
 * `/queues/:id/console` are the live console of one (the waiting clients,
 * accept/decline or take next, the member's own switches, the call with
 * the client). The page only carries what its module needs to open the
 * console socket; the server checks membership again on that socket and
 * on every action (src/realtime/handlers/console.ts).
 */
import type { Actor } from '../../../domain/actors.ts';
import { can } from '../../../domain/policies.ts';
import { getSpace, listSpaces } from '../../../domain/spaces.ts';
import type { Space, SpaceKind } from '../../../domain/types.ts';
import { allowedOriginsOf } from '../../../domain/allowed-origins.ts';
import { iceServersFor } from '../../../realtime/ice.ts';
import { bundleUrl } from '../../bundles.ts';
import { scriptJson } from '../../views.ts';
import { pathId } from '../forms.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, requireMember } from '../session.ts';
import { dashboardLang } from '../texts.ts';

const KINDS: Array<{ kind: SpaceKind; path: string }> = [
  { kind: 'board', path: 'boards' },
  { kind: 'queue', path: 'queues' },
];
/** Pages of boards or queues read at a time; every page is read. */
const LIST_LIMIT = 100;

function userIdOf(actor: Actor): string | undefined {
  return actor.kind === 'member' ? actor.user.id : undefined;
}

function serves(space: Space, userId: string | undefined): boolean {
  return space.members.some((m) => m.userId === userId);
}

function hasLine(space: Space): boolean {
  return space.kind === 'queue' || space.hasWaitingList;
}

function consolePath(space: Pick<Space, 'kind' | 'id'>): string {
  return `${DASHBOARD}/${space.kind === 'board' ? 'boards' : 'queues'}/${space.id}/console`;
}

/** The console of `space` for `actor`, when they serve its line; undefined otherwise. */
export function consoleHrefFor(actor: Actor, space: Space): string | undefined {
  return serves(space, userIdOf(actor)) && hasLine(space) ? consolePath(space) : undefined;
}

export const consoleRoutes: DashboardRoutes = (app, { ctx, config }) => {
  app.get('/consoles', async (request, reply) => {
    const actor = requireMember(request);
    const userId = userIdOf(actor);
    const spaces: Space[] = [];
    for (const { kind } of KINDS) {
      // The member's lines are filtered after reading, so read past the first page.
      let before: Parameters<typeof listSpaces>[3]['before'];
      do {
        const found = await listSpaces(ctx, actor, kind, { limit: LIST_LIMIT, before });
        spaces.push(...found.items.filter((s) => serves(s, userId) && hasLine(s)));
        before = found.next;
      } while (before);
    }
    return renderPage(request, reply, 'consoles', {
      spaces: spaces.map((s) => ({ id: s.id, kind: s.kind, name: s.name, isActive: s.isActive, href: consolePath(s) })),
    });
  });

  for (const { kind, path } of KINDS) {
    app.get<{ Params: { id: string } }>(`/${path}/:id/console`, async (request, reply) => {
      const actor = requireMember(request);
      const space = await getSpace(ctx, actor, kind, pathId(request.params.id, kind));
      const member = serves(space, userIdOf(actor));
      const problem = !member ? 'console.notMember' : !hasLine(space) ? 'console.noWaitingList' : undefined;
      // A console may sit in the organization's own application (an iframe of an allowed origin, same site, for the session cookie).
      const allowedParents = await allowedOriginsOf(ctx, actor.organization.id);
      const settings = {
        allowedParents,
        target: null,
        title: null,
        iceServers: iceServersFor(config.ice, ctx.now()),
        iceTransportPolicy: config.ice.transportPolicy,
        wsPath: '/ws',
        // The call's texts in the language of the page around it.
        lang: dashboardLang(request, reply),
        console: { kind, spaceId: space.id, name: space.name, memberName: actor.kind === 'member' ? actor.user.fullName : '' },
      };
      return renderPage(
        request,
        reply,
        'console',
        {
          kind,
          space: {
            id: space.id,
            name: space.name,
            editHref: `${DASHBOARD}/${path}/${space.id}`,
            historyHref: can(actor, 'space.audit') ? `${DASHBOARD}/${path}/${space.id}/history` : undefined,
          },
          problem,
          entry: bundleUrl('console'),
          settingsJson: problem ? null : scriptJson(settings),
        },
        200,
        { calls: !problem, frameAncestors: allowedParents },
      );
    });
  }
};

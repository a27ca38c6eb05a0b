/**
 * @module web/dashboard/routes/waiting-history
 * Who served whom: `/boards/:id/history` and `/queues/:id/history` list the
 * clients whose wait ended in the last 30 days, newest first — who took or
 * declined them, when, and how it ended. Administrators only (the domain's
 * `space.audit`); a USER is refused with 403.
 */
import { waitingAudit } from '../../../domain/waiting/audit.ts';
import type { SpaceKind } from '../../../domain/types.ts';
import { pathId } from '../forms.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, requireMember } from '../session.ts';
import { dashboardLang } from '../texts.ts';
import { clockTime, moment } from '../times.ts';

const KINDS: Array<{ kind: SpaceKind; path: string }> = [
  { kind: 'board', path: 'boards' },
  { kind: 'queue', path: 'queues' },
];
const DAYS = 30;

export const waitingHistoryRoutes: DashboardRoutes = (app, { ctx }) => {
  for (const { kind, path } of KINDS) {
    app.get<{ Params: { id: string } }>(`/${path}/:id/history`, async (request, reply) => {
      const actor = requireMember(request);
      const lang = dashboardLang(request, reply);
      const { space, entries } = await waitingAudit(ctx, actor, kind, pathId(request.params.id, kind), { days: DAYS });
      const when = (date: Date | null) => (date ? clockTime(date, lang) : null);
      return renderPage(request, reply, 'waiting-history', {
        kind,
        days: DAYS,
        space: { id: space.id, name: space.name, editHref: `${DASHBOARD}/${path}/${space.id}`, consoleHref: `${DASHBOARD}/${path}/${space.id}/console` },
        entries: entries.map((e) => ({
          id: e.id,
          clientName: e.clientName,
          state: e.state,
          outcome: e.outcome,
          by: e.servedByName ?? (e.servedBy ? '—' : null),
          arrived: moment(e.arrivedAt, lang),
          accepted: when(e.acceptedAt),
          callStarted: when(e.callStartedAt),
          ended: when(e.endedAt),
          message: e.message,
        })),
      });
    });
  }
};

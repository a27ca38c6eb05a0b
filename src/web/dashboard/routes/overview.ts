/**
 * @module web/dashboard/routes/overview
 * The dashboard's first page: the organization, its members, and (for
 * those who may read usage) this hour's and today's API request totals.
 */
import { readOrganization } from '../../../domain/organizations.ts';
import { can } from '../../../domain/policies.ts';
import { usageReport } from '../../../domain/usage.ts';
import type { DashboardRoutes } from '../section.ts';
import { renderPage } from '../render.ts';
import { DASHBOARD, requireMember } from '../session.ts';

export const overviewRoutes: DashboardRoutes = (app, { ctx }) => {
  app.get('/', async (request, reply) => {
    const actor = requireMember(request);
    const { organization, users } = await readOrganization(ctx, actor);
    const usage = can(actor, 'usage.read') ? await usageReport(ctx, actor, 1) : null;
    return renderPage(request, reply, 'overview', {
      organization,
      users,
      manageMembers: can(actor, 'user.manage'),
      usage: usage && { hour: usage.currentHour.requests, day: usage.currentDay.requests, quota: usage.quota },
    });
  });
};

/**
 * @module web/dashboard/routes/members
 * The organization's members, for its administrators: the list (name,
 * email, role, whether they have set a password yet), inviting someone
 * (email, name, role; the invitation is mailed when a mail server is
 * configured, otherwise its one-time link is shown to hand over), a new
 * invitation for someone who has not set a password, changing a role,
 * removing someone (after being asked), and the record of every such
 * change. Through the same domain commands as `foyer user`, with the
 * member as the actor: the policy (ADMIN only) and the rules (the last
 * ADMIN stays, a link only for someone without a password) are checked
 * there; every handler also asks the policy first.
 *
 * An invitation link exists only in the answer to the form that issued
 * it: rendered, never redirected to; a reload of that answer sends the
 * form again, and its one-time form id turns that into the list.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../domain/actors.ts';
import { DomainError } from '../../../domain/errors.ts';
import { inviteMember, issueMemberLink, OPERATOR_LINK_HOURS, type IssuedLink } from '../../../domain/member-links.ts';
import { listOrganizationChanges, type OrganizationChange } from '../../../domain/organization-changes.ts';
import { changeUserRole, membersWithPassword, ORGANIZATION_ROLES, readOrganization, removeUser } from '../../../domain/organizations.ts';
import { authorize } from '../../../domain/policies.ts';
import type { User } from '../../../domain/types.ts';
import { LANGS } from '../../../../public/js/shared/langs.js';
import type { Lang } from '../../strings.ts';
import { oneTimeForms } from '../form-ids.ts';
import { formOf, otherErrors, pathId, refusal, text, type FieldErrors } from '../forms.ts';
import { pageRequest, pager } from '../paging.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, requireMember } from '../session.ts';
import { dashboardLang, translator, type Translate } from '../texts.ts';
import { moment } from '../times.ts';

const BASE = `${DASHBOARD}/members`;
const SHOWN_FIELDS = ['email', 'fullName', 'role', 'lang'];
const NOTICES = ['removed', 'roleChanged', 'alreadyInvited'] as const;

interface InviteForm {
  email: string;
  fullName: string;
  role: string;
  lang: string;
  formId: string;
}

/** The domain's reasons, in the page's language. */
function inLanguage(errors: FieldErrors, t: Translate): FieldErrors {
  const out: FieldErrors = { ...errors };
  if (errors.email) out.email = t(/already/.test(errors.email) ? 'members.error.taken' : 'members.error.email');
  if (errors.fullName) out.fullName = t('members.error.name');
  if (errors.role) out.role = t(/administrator/.test(errors.role) ? 'members.error.lastAdmin' : 'members.error.role');
  if (errors.userId) out.userId = t('members.error.lastAdmin');
  return out;
}

function changeView(c: OrganizationChange, lang: Lang, t: Translate) {
  const detail = c.detail;
  let what = t(`members.change.${c.action}`);
  if (c.action === 'member.role_changed') what = t('members.change.roleFromTo', { from: t(`role${String(detail.from)}`), to: t(`role${String(detail.to)}`) });
  else if (c.action === 'member.added') what = t('members.change.addedAs', { role: t(`role${String(detail.role)}`) });
  else if (c.action === 'member.invited' || c.action === 'member.reset_link') what += ` (${t(detail.delivery === 'mail' ? 'members.change.byMail' : 'members.change.byLink')})`;
  else if (c.action === 'allowed_origins.changed') {
    const parts = [...(detail.added as string[] | undefined ?? []).map((o) => `+ ${o}`), ...(detail.removed as string[] | undefined ?? []).map((o) => `− ${o}`)];
    what += parts.length ? `: ${parts.join(', ')}` : '';
  }
  const by = c.actor.kind === 'operator' ? t('members.change.operator') : c.actor.kind === 'api_key' ? t('members.change.apiKey', { name: c.actor.label }) : c.actor.label;
  return { id: c.id, at: moment(c.createdAt, lang), by, what, subject: c.subject?.label ?? null };
}

export const memberRoutes: DashboardRoutes = (app, { ctx }) => {
  const forms = oneTimeForms();
  const admin = (request: FastifyRequest): Actor => {
    const actor = requireMember(request);
    authorize(actor, 'user.manage');
    return actor;
  };
  const mailConfigured = Boolean(ctx.mailer);

  const showList = async (request: FastifyRequest, reply: FastifyReply, actor: Actor, extra: { notice?: string | undefined; error?: string | undefined }, status = 200) => {
    const { users } = await readOrganization(ctx, actor);
    const withPassword = new Set(await membersWithPassword(ctx, actor));
    const lang = dashboardLang(request, reply);
    const selfId = actor.kind === 'member' ? actor.user.id : null;
    return renderPage(
      request,
      reply,
      'members',
      {
        members: users.map((u: User) => ({
          id: u.id,
          fullName: u.fullName,
          email: u.email,
          role: u.role,
          self: u.id === selfId,
          pending: !withPassword.has(u.id),
          added: moment(u.createdAt, lang),
        })),
        roles: ORGANIZATION_ROLES,
        notice: extra.notice,
        error: extra.error,
      },
      status,
    );
  };

  const showForm = (request: FastifyRequest, reply: FastifyReply, values: InviteForm, errors: FieldErrors, status: number) =>
    renderPage(request, reply, 'member-new', { values, errors, others: otherErrors(errors, SHOWN_FIELDS), roles: ORGANIZATION_ROLES, langs: LANGS, mailConfigured }, status);

  const showIssued = (request: FastifyRequest, reply: FastifyReply, issued: IssuedLink, status: number) => {
    const lang = dashboardLang(request, reply);
    return renderPage(
      request,
      reply,
      'member-invited',
      { invitee: { fullName: issued.user.fullName, email: issued.user.email }, url: issued.url, mail: issued.mail, expires: moment(issued.expiresAt, lang), hours: OPERATOR_LINK_HOURS },
      status,
    );
  };

  app.get('/members', async (request, reply) => {
    const actor = admin(request);
    const query = request.query as Record<string, unknown>;
    const found = NOTICES.find((n) => query[n] !== undefined);
    return showList(request, reply, actor, { notice: found && `members.notice.${found}` });
  });

  app.get('/members/new', async (request, reply) => {
    admin(request);
    return showForm(request, reply, { email: '', fullName: '', role: 'USER', lang: dashboardLang(request, reply), formId: forms.issue() }, {}, 200);
  });

  app.post('/members', async (request, reply) => {
    const actor = admin(request);
    const form = formOf(request);
    const values: InviteForm = { email: text(form, 'email').trim(), fullName: text(form, 'fullName'), role: text(form, 'role') || 'USER', lang: text(form, 'lang'), formId: text(form, 'formId') };
    if (!(LANGS as readonly string[]).includes(values.lang)) values.lang = dashboardLang(request, reply);
    if (!forms.firstSend(values.formId)) return reply.redirect(`${BASE}?alreadyInvited`, 303);
    try {
      const issued = await inviteMember(ctx, actor, { email: values.email, fullName: values.fullName, role: values.role }, values.lang);
      return showIssued(request, reply, issued, 201);
    } catch (error) {
      forms.forget(values.formId);
      const refused = refusal(error);
      if (!refused) throw error;
      return showForm(request, reply, values, inLanguage(refused.errors, translator(dashboardLang(request, reply))), refused.status);
    }
  });

  app.post<{ Params: { id: string } }>('/members/:id/invite', async (request, reply) => {
    const actor = admin(request);
    const userId = pathId(request.params.id, 'user');
    const issued = await issueMemberLink(ctx, actor, { userId }, 'invite', dashboardLang(request, reply));
    return showIssued(request, reply, issued, 200);
  });

  app.post<{ Params: { id: string } }>('/members/:id/role', async (request, reply) => {
    const actor = admin(request);
    const userId = pathId(request.params.id, 'user');
    let changed: User;
    try {
      changed = await changeUserRole(ctx, actor, { userId }, text(formOf(request), 'role'));
    } catch (error) {
      const refused = refusal(error);
      if (!refused) throw error;
      const t = translator(dashboardLang(request, reply));
      return showList(request, reply, actor, { error: Object.values(inLanguage(refused.errors, t))[0] }, refused.status);
    }
    // A member who took ADMIN from themselves has just ended their own session.
    if (actor.kind === 'member' && actor.user.id === userId && changed.role !== actor.user.role) return reply.redirect(`${DASHBOARD}/sign-in`, 303);
    return reply.redirect(`${BASE}?roleChanged`, 303);
  });

  app.post<{ Params: { id: string } }>('/members/:id/remove', async (request, reply) => {
    const actor = admin(request);
    const userId = pathId(request.params.id, 'user');
    try {
      await removeUser(ctx, actor, { userId });
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'conflict')) throw error;
      const t = translator(dashboardLang(request, reply));
      return showList(request, reply, actor, { error: t('members.error.lastAdmin') }, 409);
    }
    if (actor.kind === 'member' && actor.user.id === userId) return reply.redirect(`${DASHBOARD}/sign-in`, 303);
    return reply.redirect(`${BASE}?removed`, 303);
  });

  app.get('/members/changes', async (request, reply) => {
    const actor = requireMember(request);
    authorize(actor, 'organization.audit');
    const lang = dashboardLang(request, reply);
    const t = translator(lang);
    const page = pageRequest(request.query);
    const found = await listOrganizationChanges(ctx, actor, page);
    return renderPage(request, reply, 'member-changes', { changes: found.items.map((c) => changeView(c, lang, t)), pager: pager(`${BASE}/changes`, page, found) });
  });
};

/**
 * @module web/dashboard/routes/meetings
 * Meetings: the organization's list (newest first, in pages: title,
 * owner, created, open or closed, Join), the form that creates one (with
 * an optional title the call page shows), a meeting's page with its link,
 * and deleting. Every action is the API's own domain command with the
 * member as actor, so a meeting made here is the one the API reads.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../domain/actors.ts';
import { meetingState } from '../../../domain/lifecycle.ts';
import { meetingUrl } from '../../../domain/links.ts';
import { createMeeting, deleteMeeting, getMeeting, listMeetings } from '../../../domain/meetings.ts';
import { readOrganization } from '../../../domain/organizations.ts';
import type { Meeting } from '../../../domain/types.ts';
import { checked, formOf, otherErrors, refusal, text, texts, type FieldErrors, type FormBody } from '../forms.ts';
import { pageRequest, pager } from '../paging.ts';
import { renderPage } from '../render.ts';
import type { DashboardRoutes } from '../section.ts';
import { DASHBOARD, requireMember } from '../session.ts';
import type { Lang } from '../../strings.ts';
import { dashboardLang, translator } from '../texts.ts';
import { moment, type Moment } from '../times.ts';

const BASE = `${DASHBOARD}/meetings`;
/** Rows the form offers before any is added; one more than those typed after a refusal. */
const EMPTY_ROWS = 3;
const SHOWN_FIELDS = ['title', 'type', 'isInfinite', 'waitForOwner', 'ownerEmail', 'meetingId', 'queryParameters'];

interface ParameterRow {
  key: string;
  value: string;
  error?: string | undefined;
}

interface MeetingForm {
  title: string;
  type: string;
  isInfinite: boolean;
  /** A consultation whose patients need not wait for the owner (`waitForOwner: false`). */
  openAtOnce: boolean;
  ownerEmail: string;
  meetingId: string;
  rows: ParameterRow[];
}

function padRows(rows: ParameterRow[]): ParameterRow[] {
  const padded = [...rows];
  while (padded.length < Math.max(EMPTY_ROWS, rows.length + 1)) padded.push({ key: '', value: '' });
  return padded;
}

/** The rows a member filled in (a row with neither key nor value is no row). */
function typedRows(form: FormBody): ParameterRow[] {
  const keys = texts(form, 'queryKey');
  const values = texts(form, 'queryValue');
  const rows: ParameterRow[] = [];
  for (let i = 0; i < Math.max(keys.length, values.length); i++) {
    const key = keys[i] ?? '';
    const value = values[i] ?? '';
    if (key.trim() !== '' || value !== '') rows.push({ key, value });
  }
  return rows;
}

/** Errors of the domain's `queryParameters.<key>` fields, put beside the row of that key. */
function placeRowErrors(rows: ParameterRow[], errors: FieldErrors): void {
  for (const [field, message] of Object.entries(errors)) {
    if (!field.startsWith('queryParameters.')) continue;
    const row = rows.find((r) => r.key === field.slice('queryParameters.'.length) && !r.error);
    if (row) {
      row.error = message;
      delete errors[field];
    }
  }
}

/** A meeting as its row and its page show it. */
function meetingView(meeting: Meeting, owners: Map<string, string>, now: Date, lang: Lang, publicUrl: string) {
  const state = meetingState(meeting, now);
  // When it closes, or closed: the state beside it says which.
  const ended = meeting.deletedAt ?? meeting.closedAt ?? meeting.closesAt;
  let closes: { label?: string; at?: Moment };
  if (state !== 'open') closes = ended ? { at: moment(ended, lang) } : {};
  else if (meeting.isInfinite) closes = { label: 'closesNever' };
  else if (!meeting.closesAt) closes = { label: 'closesWhenEmpty' };
  else closes = { at: moment(meeting.closesAt, lang) };
  return {
    id: meeting.id,
    title: meeting.title,
    type: meeting.type,
    isInfinite: meeting.isInfinite,
    state,
    created: moment(meeting.createdAt, lang),
    closes,
    owner: meeting.ownerUserId ? (owners.get(meeting.ownerUserId) ?? null) : null,
    url: meetingUrl(publicUrl, meeting),
    queryParameters: Object.entries(meeting.queryParameters ?? {}).map(([key, value]) => ({ key, value: String(value) })),
  };
}

export const meetingRoutes: DashboardRoutes = (app, { ctx }) => {
  const ownerNames = async (actor: Actor) => new Map((await readOrganization(ctx, actor)).users.map((u) => [u.id, u.fullName]));

  const showForm = async (request: FastifyRequest, reply: FastifyReply, actor: Actor, values: MeetingForm, errors: FieldErrors, status: number) => {
    const { organization, users } = await readOrganization(ctx, actor);
    return renderPage(
      request,
      reply,
      'meeting-new',
      {
        values: { ...values, rows: padRows(values.rows) },
        errors,
        others: otherErrors(errors, SHOWN_FIELDS),
        owners: users.map((u) => ({ email: u.email, name: u.fullName })),
        ownerRequired: organization.type === 'medical',
      },
      status,
    );
  };

  app.get('/meetings', async (request, reply) => {
    const actor = requireMember(request);
    const lang = dashboardLang(request, reply);
    const page = pageRequest(request.query);
    const found = await listMeetings(ctx, actor, page);
    const owners = await ownerNames(actor);
    return renderPage(request, reply, 'meetings', {
      meetings: found.items.map((m) => meetingView(m, owners, ctx.now(), lang, ctx.publicUrl)),
      pager: pager(BASE, page, found),
      notice: (request.query as Record<string, unknown>).deleted !== undefined ? 'meetingDeleted' : undefined,
    });
  });

  app.get('/meetings/new', async (request, reply) => {
    const actor = requireMember(request);
    const self = actor.kind === 'member' ? actor.user.email : '';
    return showForm(request, reply, actor, { title: '', type: 'MEETING', isInfinite: false, openAtOnce: false, ownerEmail: self, meetingId: '', rows: [] }, {}, 200);
  });

  app.post('/meetings', async (request, reply) => {
    const actor = requireMember(request);
    const form = formOf(request);
    const values: MeetingForm = {
      title: text(form, 'title'),
      type: text(form, 'type'),
      isInfinite: checked(form, 'isInfinite'),
      openAtOnce: checked(form, 'openAtOnce'),
      ownerEmail: text(form, 'ownerEmail'),
      meetingId: text(form, 'meetingId').trim(),
      rows: typedRows(form),
    };
    // Keys are object keys: the API's JSON cannot name one twice, a form can; say so rather than keep one.
    const seen = new Set<string>();
    const t = translator(dashboardLang(request, reply));
    for (const row of values.rows) {
      if (seen.has(row.key)) row.error = t('duplicateKey');
      seen.add(row.key);
    }
    if (values.rows.some((r) => r.error)) return showForm(request, reply, actor, values, {}, 400);
    try {
      const meeting = await createMeeting(ctx, actor, {
        title: values.title,
        type: values.type || undefined,
        isInfinite: values.isInfinite,
        // Unchecked leaves the default (a consultation with an owner waits for them).
        waitForOwner: values.openAtOnce ? false : undefined,
        ownerEmail: values.ownerEmail,
        meetingId: values.meetingId || undefined,
        queryParameters: values.rows.length ? Object.fromEntries(values.rows.map((r) => [r.key, r.value])) : undefined,
      });
      return reply.redirect(`${BASE}/${meeting.id}?created`, 303);
    } catch (error) {
      const refused = refusal(error);
      if (!refused) throw error;
      placeRowErrors(values.rows, refused.errors);
      return showForm(request, reply, actor, values, refused.errors, refused.status);
    }
  });

  app.get<{ Params: { id: string } }>('/meetings/:id', async (request, reply) => {
    const actor = requireMember(request);
    const meeting = await getMeeting(ctx, actor, request.params.id);
    const row = meetingView(meeting, await ownerNames(actor), ctx.now(), dashboardLang(request, reply), ctx.publicUrl);
    const created = (request.query as Record<string, unknown>).created !== undefined;
    return renderPage(request, reply, 'meeting', { meeting: row, notice: created ? 'meetingCreated' : undefined });
  });

  app.post<{ Params: { id: string } }>('/meetings/:id/delete', async (request, reply) => {
    const actor = requireMember(request);
    await deleteMeeting(ctx, actor, request.params.id);
    return reply.redirect(`${BASE}?deleted`, 303);
  });
};

/**
 * @module domain/meetings
 * Creating, reading and deleting meetings, with every rule of the spec's
 * meeting-creation table. All API versions funnel into `createMeeting`; v1
 * and v2 simply never pass the v3-only fields.
 */
import type { Actor } from './actors.ts';
import { raise, transact, type DomainContext } from './context.ts';
import { ConflictError, NotFoundError, ValidationError, type FieldError } from './errors.ts';
import { isUuidV4, newId, randomBase62 } from './ids.ts';
import type { MeetingPorts } from './meeting-ports.ts';
import type { MemberPorts } from './member-ports.ts';
import { readPage, type Page } from './pages.ts';
import type { PageRequest } from './pages.ts';
import type { PlacePorts } from './place-ports.ts';
import { authorize } from './policies.ts';
import type { Meeting, MeetingType, QueryParameters } from './types.ts';

export const MEETING_TYPES: readonly MeetingType[] = ['MEETING', 'CONSULTATION'];

/** Bounds that keep a short link's stored parameters a URL's worth. */
export const QUERY_PARAMETERS_MAX_KEYS = 50;
export const QUERY_PARAMETER_KEY_MAX = 64;
export const QUERY_PARAMETER_VALUE_MAX = 1000;

/**
 * The request headers Foyer's HTTP server takes, request line included, in
 * bytes (Node's default, set explicitly on the server); a longer request is
 * answered 431.
 */
export const MAX_REQUEST_HEADER_BYTES = 16 * 1024;
/**
 * Room kept for what a browser sends besides the URL: cookies, user agent,
 * accept and client-hint headers (a few hundred bytes to a few KiB). The
 * page's URL travels once per request: in the request line when the page
 * is opened, as the Referer of its own requests after that (the pages send
 * none to other sites).
 */
const BROWSER_HEADERS_RESERVE_BYTES = 8 * 1024;
/** `GET /meetings/<uuid>? HTTP/1.1` and its line end: the redirect's URL without its query. */
const REDIRECT_LINE_BYTES = 'GET /meetings/00000000-0000-4000-8000-000000000000? HTTP/1.1\r\n'.length;
/**
 * The longest query string a short link may carry, percent-encoded as the
 * redirect writes it: the meeting page it redirects to is then a request
 * Foyer itself takes, with up to 8 KiB of a browser's headers beside it
 * (8,130 bytes).
 */
export const SHORT_LINK_QUERY_MAX_BYTES = MAX_REQUEST_HEADER_BYTES - BROWSER_HEADERS_RESERVE_BYTES - REDIRECT_LINE_BYTES;

/** The query string a short link's redirect carries for these stored parameters (web/plugin.ts writes the same). */
export function storedQueryString(stored: QueryParameters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(stored)) params.set(key, String(value));
  return params.toString();
}

/** 10 base62 characters: ~59.5 bits, far beyond guessing through a rate-limited endpoint. */
const SHORT_CODE_LENGTH = 10;

export interface CreateMeetingInput {
  ownerEmail?: string | undefined;
  /** Case-insensitive `MEETING` or `CONSULTATION`; default MEETING. */
  type?: string | undefined;
  isInfinite?: boolean | undefined;
  meetingId?: string | undefined;
  /** Unvalidated: checked here to be a flat object of strings, numbers or booleans. */
  queryParameters?: unknown;
  /**
   * Lock the meeting until its owner first joins (arrivals knock meanwhile).
   * Default: true for a CONSULTATION with an owner, false otherwise; true
   * needs an owner. A v3 extension field (see the README).
   */
  waitForOwner?: boolean | undefined;
  /**
   * What the call page shows as the meeting's name (a v3 and dashboard
   * extension): trimmed, at most 100 characters; empty means none.
   */
  title?: string | undefined;
}

export const MEETING_TITLE_MAX = 100;

/** The title as stored: trimmed, inner runs of white space as one space; null when empty. */
function checkTitle(errors: FieldError[], value: string | undefined): string | null {
  if (value === undefined) return null;
  const title = value.trim().replace(/\s+/g, ' ');
  if (/[\u0000-\u001f\u007f]/.test(title)) {
    errors.push({ field: 'title', message: 'title must not contain control characters.' });
    return null;
  }
  if ([...title].length > MEETING_TITLE_MAX) {
    errors.push({ field: 'title', message: `title has at most ${MEETING_TITLE_MAX} characters.` });
    return null;
  }
  return title || null;
}

export function parseMeetingType(value: string | undefined): MeetingType | undefined {
  if (value === undefined) return 'MEETING';
  // ASCII letters only: toUpperCase() alone folds "meetıng" (dotless i) and "conſultation" (long s) into valid types.
  if (!/^[A-Za-z]+$/.test(value)) return undefined;
  const upper = value.toUpperCase();
  return MEETING_TYPES.includes(upper as MeetingType) ? (upper as MeetingType) : undefined;
}

function checkQueryParameters(errors: FieldError[], value: unknown): QueryParameters | null {
  if (value === undefined || value === null) return null;
  const field = 'queryParameters';
  if (typeof value !== 'object' || Array.isArray(value)) {
    errors.push({ field, message: 'queryParameters is an object of key-value pairs.' });
    return null;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > QUERY_PARAMETERS_MAX_KEYS) {
    errors.push({ field, message: `queryParameters has at most ${QUERY_PARAMETERS_MAX_KEYS} keys.` });
    return null;
  }
  const result: QueryParameters = {};
  for (const [key, v] of entries) {
    if (key.length === 0 || key.length > QUERY_PARAMETER_KEY_MAX) {
      errors.push({ field: `${field}.${key}`, message: `A key has 1 to ${QUERY_PARAMETER_KEY_MAX} characters.` });
    } else if (typeof v === 'string') {
      if (v.length > QUERY_PARAMETER_VALUE_MAX) {
        errors.push({ field: `${field}.${key}`, message: `A value has at most ${QUERY_PARAMETER_VALUE_MAX} characters.` });
      } else result[key] = v;
    } else if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') {
      result[key] = v;
    } else {
      errors.push({ field: `${field}.${key}`, message: 'A value is a string, a number or a boolean.' });
    }
  }
  const length = storedQueryString(result).length;
  if (length > SHORT_LINK_QUERY_MAX_BYTES) {
    errors.push({
      field,
      message: `queryParameters make a link's query of ${length} characters (percent-encoded); at most ${SHORT_LINK_QUERY_MAX_BYTES} fit in a URL a browser can open.`,
    });
  }
  return result;
}

export async function createMeeting(ctx: DomainContext<MeetingPorts & MemberPorts & PlacePorts>, actor: Actor, input: CreateMeetingInput): Promise<Meeting> {
  authorize(actor, 'meeting.manage');
  const org = actor.organization;
  const errors: FieldError[] = [];

  const type = parseMeetingType(input.type);
  if (!type) errors.push({ field: 'type', message: 'type is MEETING or CONSULTATION.' });

  const isInfinite = input.isInfinite === true;
  if (isInfinite && type === 'CONSULTATION') {
    errors.push({ field: 'isInfinite', message: 'isInfinite applies only to meetings of type MEETING.' });
  }

  if (input.meetingId !== undefined && !(isUuidV4(input.meetingId) && (await idFreeOrOwn(ctx, org.id, input.meetingId)))) {
    errors.push(UNUSABLE_MEETING_ID);
  }

  const queryParameters = checkQueryParameters(errors, input.queryParameters);
  const title = checkTitle(errors, input.title);

  // An empty owner email is treated as absent: forms send empty fields.
  const ownerEmail = input.ownerEmail?.trim() || undefined;
  let ownerUserId: string | null = null;
  if (ownerEmail === undefined) {
    if (org.type === 'medical') {
      errors.push({ field: 'ownerEmail', message: 'ownerEmail is required for a medical organization.' });
    }
  } else {
    const owner = await ctx.store.findUserByEmail(org.id, ownerEmail);
    if (!owner) {
      errors.push({ field: 'ownerEmail', message: 'ownerEmail is not a member of this organization.' });
    } else {
      ownerUserId = owner.id;
    }
  }

  const waitForOwner = input.waitForOwner ?? (type === 'CONSULTATION' && ownerEmail !== undefined);
  if (waitForOwner && ownerEmail === undefined) {
    errors.push({ field: 'waitForOwner', message: 'waitForOwner needs an ownerEmail: the owner is who lets people in.' });
  }

  if (errors.length) throw new ValidationError(errors);

  const createdAt = ctx.now();
  const meeting: Meeting = {
    id: input.meetingId?.toLowerCase() ?? newId(),
    organizationId: org.id,
    ownerUserId,
    type: type!,
    isInfinite,
    queryParameters,
    shortCode: null,
    createdAt,
    closesAt: isInfinite ? null : new Date(createdAt.getTime() + ctx.idleCloseSeconds * 1000),
    closedAt: null,
    deletedAt: null,
    lock: waitForOwner ? 'until_owner' : 'open',
    title,
  };

  await insertMeeting(ctx, meeting, Boolean(queryParameters));
  return meeting;
}

/**
 * Meeting ids are global (the redirect URL names no organization), so an id
 * another organization holds cannot be given. It is refused exactly as a
 * malformed one is, so that the answer does not tell that the id exists;
 * an id of the caller's own (deleted ones too) is a 409 conflict.
 */
const UNUSABLE_MEETING_ID: FieldError = { field: 'meetingId', message: 'meetingId must be a new UUID v4 (or left out).' };

/** Whether no meeting holds this id, or one of `organizationId`'s does. */
async function idFreeOrOwn(ctx: DomainContext<PlacePorts>, organizationId: string, id: string): Promise<boolean> {
  const holder = await ctx.store.live.findMeetingRecord({ id: id.toLowerCase() });
  return !holder || holder.organizationId === organizationId;
}

/** A short-code collision is astronomically unlikely, but cheap to survive: a few fresh codes, each in a whole new unit of work. */
const SHORT_CODE_RETRY = {
  attempts: 5,
  when: (error: unknown) => error instanceof ConflictError && error.field === 'shortCode',
};

/**
 * Inserts, raising `meeting.created`. A fresh short code is drawn inside
 * the unit of work, so when the outermost unit runs again after a
 * collision (see `transact`) it draws another. A taken id can only be a
 * client-chosen one, so it is reported as `meetingId`.
 */
async function insertMeeting(ctx: DomainContext<MeetingPorts & PlacePorts>, meeting: Meeting, withShortCode: boolean): Promise<void> {
  try {
    await transact(
      ctx,
      async (tx) => {
        if (withShortCode) meeting.shortCode = randomBase62(SHORT_CODE_LENGTH);
        await tx.store.insertMeeting(meeting);
        raise(tx, { type: 'meeting.created', organizationId: meeting.organizationId, meetingId: meeting.id, at: meeting.createdAt });
      },
      withShortCode ? { retry: SHORT_CODE_RETRY } : {},
    );
  } catch (error) {
    if (error instanceof ConflictError && error.field === 'id') {
      // Taken meanwhile: by another organization, answered as above.
      if (!(await idFreeOrOwn(ctx, meeting.organizationId, meeting.id))) throw new ValidationError([UNUSABLE_MEETING_ID]);
      throw new ConflictError('meetingId', 'A meeting with this meetingId already exists.');
    }
    throw error;
  }
}

export async function getMeeting(ctx: DomainContext<MeetingPorts>, actor: Actor, id: string): Promise<Meeting> {
  authorize(actor, 'meeting.manage');
  const meeting = isUuidV4(id) ? await ctx.store.findMeeting(actor.organization.id, id.toLowerCase()) : undefined;
  if (!meeting) throw new NotFoundError('meeting');
  return meeting;
}

/** Deletes (ends) a meeting at once, raising `meeting.ended`; returns it as it was. */
export async function deleteMeeting(ctx: DomainContext<MeetingPorts>, actor: Actor, id: string): Promise<Meeting> {
  authorize(actor, 'meeting.manage');
  if (!isUuidV4(id)) throw new NotFoundError('meeting');
  return transact(ctx, async (tx) => {
    const at = tx.now();
    const meeting = await tx.store.deleteMeeting(actor.organization.id, id.toLowerCase(), at);
    if (!meeting) throw new NotFoundError('meeting');
    raise(tx, { type: 'meeting.ended', organizationId: meeting.organizationId, meetingId: meeting.id, reason: 'deleted', at });
    return meeting;
  });
}

/**
 * Ends an open meeting at once for everyone in it, as the service (not an
 * API client) decides: a waiting-list call that is over, a host ending a
 * meeting. Raises `meeting.ended` (reason `closed`); the page then answers 410.
 */
export async function endMeeting(ctx: DomainContext<MeetingPorts>, meetingId: string, byUserId?: string, byApiKeyId?: string): Promise<Meeting | undefined> {
  return transact(ctx, async (tx) => {
    const at = tx.now();
    const meeting = await tx.store.closeMeeting(meetingId, at);
    const by = { ...(byUserId ? { byUserId } : {}), ...(byApiKeyId ? { byApiKeyId } : {}) };
    if (meeting) raise(tx, { type: 'meeting.ended', organizationId: meeting.organizationId, meetingId: meeting.id, reason: 'closed', at, ...by });
    return meeting;
  });
}

/** The organization's meetings, newest first, deleted ones included (their state says so). */
export async function listMeetings(ctx: DomainContext<MeetingPorts>, actor: Actor, page: PageRequest): Promise<Page<Meeting>> {
  authorize(actor, 'meeting.manage');
  return readPage(page, (p) => ctx.store.listMeetings(actor.organization.id, p));
}
